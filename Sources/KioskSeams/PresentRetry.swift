/// Why a frame could not be queued on the display, in the terms the recovery decision needs
/// (the run loop maps the kernel's errno onto these).
public enum PresentFailure: Sendable, Equatable {
    /// The CRTC is still busy with a flip, or the call was interrupted (EBUSY, EAGAIN, EINTR).
    case busy
    /// The kernel refused the flip itself (EINVAL): after a mode or connector change the next
    /// frame sets the CRTC again instead of flipping.
    case invalid
    /// The device is gone (ENODEV, ENOENT, ENXIO): unplugged or unbound.
    case gone
    /// Master was taken away (EACCES, EPERM).
    case denied
    /// Anything else.
    case other
}

/// An error a presenter throws that knows its recovery class (KMSOutput's `DisplayError` by
/// the DRM call's errno, the virtual display's refusals by what they stand for).
public protocol PresentFailureClassified: Error {
    /// How the frame loop recovers from this error.
    var presentFailure: PresentFailure { get }
}

extension PresentFailure {
    /// The failure class of an error thrown by a presenter: `.other` for errors that do not
    /// classify themselves.
    public init(_ error: Error) {
        self = (error as? PresentFailureClassified)?.presentFailure ?? .other
    }
}

/// What to do after a frame failed to queue.
public enum PresentRecovery: Sendable, Equatable {
    /// Try the frame again after this many seconds.
    case retry(after: Double)
    /// Stop: leave the loop with the error, so teardown restores the CRTC and the service
    /// manager can restart us.
    case giveUp
}

/// The pure decision between retrying a frame and giving up. A busy CRTC clears within a
/// refresh or two; a refused flip gets one retry (as a modeset); a vanished device or lost
/// master does not come back by retrying.
public struct PresentRetryPolicy: Sendable, Equatable {
    public var maxBusyRetries: Int
    public var maxInvalidRetries: Int

    public init(maxBusyRetries: Int = 5, maxInvalidRetries: Int = 1) {
        self.maxBusyRetries = maxBusyRetries
        self.maxInvalidRetries = maxInvalidRetries
    }

    /// - Parameter failuresInARow: how many frames in a row failed, this one included.
    public func recovery(for failure: PresentFailure, failuresInARow: Int, refreshPeriod: Double) -> PresentRecovery {
        switch failure {
        case .busy where failuresInARow <= maxBusyRetries:
            return .retry(after: refreshPeriod * Double(failuresInARow))
        case .invalid where failuresInARow <= maxInvalidRetries:
            return .retry(after: refreshPeriod)
        default:
            return .giveUp
        }
    }
}
