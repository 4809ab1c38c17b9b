/// The scanout's flip states (the four of Slint's linuxkms presenter), as a value with pure
/// transitions, so the rule "never write a buffer that is on screen or pending" is decided here
/// and unit-tested, and KMSOutput only performs the calls it is told to.
///
/// Buffers are indices 0..<count into the presenter's ring. The first frame is a modeset
/// (drmModeSetCrtc), or a page flip onto a CRTC another client left running with the same
/// connector and mode; every later one is a page flip answered by one flip event.
public enum PageFlipState: Sendable, Equatable {
    /// Nothing posted since start or since the output was lost: the next frame sets the CRTC.
    case nothingPosted
    /// The CRTC was set to `front`; no flip is queued.
    case firstBufferSet(front: Int)
    /// The first frame was flipped onto the running CRTC: `pending` replaces a framebuffer that
    /// is not ours when its event arrives.
    case waitingForFirstFlip(pending: Int)
    /// A flip to `pending` is queued; `front` is on screen until its event arrives.
    case waitingForFlip(front: Int, pending: Int)
    /// The last flip completed; `front` is on screen and nothing is queued.
    case ready(front: Int)

    /// The kernel call that shows the next frame.
    public enum ShowCall: Sendable, Equatable {
        case setCrtc
        case pageFlip
    }

    /// What happened to the scanout.
    public enum Step: Sendable, Equatable {
        /// drmModeSetCrtc showed `buffer`.
        case crtcSet(buffer: Int)
        /// drmModePageFlip queued `buffer`.
        case flipQueued(buffer: Int)
        /// The first frame, `buffer`, was flipped onto the running CRTC instead of a modeset.
        case firstFlipQueued(buffer: Int)
        /// The flip event arrived.
        case flipCompleted
        /// The output is gone (unplug, VT released): the next frame needs a modeset again.
        case outputLost
    }

    /// The buffer on screen, if any.
    public var front: Int? {
        switch self {
        case .nothingPosted, .waitingForFirstFlip: return nil
        case .firstBufferSet(let f), .ready(let f), .waitingForFlip(let f, _): return f
        }
    }

    /// True while a flip is queued and its event has not arrived.
    public var isFlipPending: Bool {
        switch self {
        case .waitingForFlip, .waitingForFirstFlip: return true
        case .nothingPosted, .firstBufferSet, .ready: return false
        }
    }

    /// The buffer the next frame may be painted into: the one after the front buffer in the
    /// ring, never the front or a pending one. Nil while a flip is pending (a frame is queued
    /// already; the next waits for its event) or for a ring of fewer than two buffers once
    /// something is on screen.
    public func writableBuffer(count: Int) -> Int? {
        guard count > 0 else { return nil }
        switch self {
        case .nothingPosted: return 0
        case .waitingForFlip, .waitingForFirstFlip: return nil
        case .firstBufferSet(let f), .ready(let f):
            guard count >= 2 else { return nil }
            return (f + 1) % count
        }
    }

    /// How the next frame is shown, or nil while a flip is pending.
    public var nextShowCall: ShowCall? {
        switch self {
        case .nothingPosted: return .setCrtc
        case .firstBufferSet, .ready: return .pageFlip
        case .waitingForFlip, .waitingForFirstFlip: return nil
        }
    }

    /// The state after `step`, or nil when `step` cannot happen in this state (a flip queued
    /// while another is pending, a flip event with none pending, a modeset over a pending flip).
    public func after(_ step: Step) -> PageFlipState? {
        switch (self, step) {
        case (.nothingPosted, .crtcSet(let b)), (.ready, .crtcSet(let b)), (.firstBufferSet, .crtcSet(let b)):
            return .firstBufferSet(front: b)
        case (.firstBufferSet(let f), .flipQueued(let b)), (.ready(let f), .flipQueued(let b)):
            return .waitingForFlip(front: f, pending: b)
        case (.nothingPosted, .firstFlipQueued(let b)):
            return .waitingForFirstFlip(pending: b)
        case (.waitingForFlip(_, let p), .flipCompleted), (.waitingForFirstFlip(let p), .flipCompleted):
            return .ready(front: p)
        case (_, .outputLost):
            return .nothingPosted
        default:
            return nil
        }
    }
}

extension PageFlipState {
    /// `after(step)` for a caller that cannot refuse what already happened: an impossible step
    /// (a flip event with none pending, a flip queued over a pending one) is said through
    /// `report` instead of being ignored, and the state becomes `fallback` (nil: unchanged).
    public func applying(_ step: Step, otherwise fallback: PageFlipState? = nil,
                         report: (String) -> Void) -> PageFlipState {
        if let next = after(step) { return next }
        let now = fallback ?? self
        report("display: page flip state \(self) cannot take \(step); now \(now)")
        return now
    }
}
