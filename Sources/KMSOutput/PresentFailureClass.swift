import KioskSeams
import Glibc

extension PresentFailure {
    /// The recovery class of a failed present, from the errno of the DRM call:
    /// EBUSY/EAGAIN/EINTR, the CRTC is still flipping; EINVAL, the flip itself was refused;
    /// ENODEV/ENOENT/ENXIO, the card went away; EACCES/EPERM, master was taken away.
    public init(presentErrno code: Int32) {
        switch code {
        case EBUSY, EAGAIN, EINTR: self = .busy
        case EINVAL: self = .invalid
        case ENODEV, ENOENT, ENXIO: self = .gone
        case EACCES, EPERM: self = .denied
        default: self = .other
        }
    }
}

extension DisplayError: PresentFailureClassified {
    /// How the frame loop recovers from this error when a present throws it.
    public var presentFailure: PresentFailure { PresentFailure(presentErrno: code) }
}
