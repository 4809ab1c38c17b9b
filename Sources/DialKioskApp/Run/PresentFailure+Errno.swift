import DialCore
import KMSOutput
#if canImport(Glibc)
import Glibc
#endif

extension PresentFailure {
    /// The failure class of an error thrown by a presenter (KMSOutput's DisplayError carries
    /// the errno of the DRM call; anything else is `.other`).
    init(_ error: Error) {
        guard let e = error as? DisplayError else {
            self = .other
            return
        }
        switch e.code {
        case EBUSY, EAGAIN, EINTR: self = .busy
        case EINVAL: self = .invalid
        case ENODEV, ENOENT, ENXIO: self = .gone
        case EACCES, EPERM: self = .denied
        default: self = .other
        }
    }
}
