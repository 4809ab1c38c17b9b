import Glibc

/// Why a system or library call failed: an errno number. Its text is the C library's, and this is
/// the package's one reader of it (strerror).
public struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    /// The number, as the <errno.h> constants spell it (EBUSY, EINVAL, ...).
    public var rawValue: Int32

    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's errno; read it right after the call that failed.
    public static var current: Errno { Errno(errno) }

    /// A result in the -errno convention of libdrm, libinput and libudev: -errno, or -1 with
    /// errno set (libdrm's wrappers return what ioctl(2) returned, which is -1).
    public init(negatedResult result: Int32) {
        self.init(result < -1 ? -result : errno)
    }

    public static let interrupted = Errno(EINTR)
    public static let wouldBlock = Errno(EAGAIN)
    /// ENOENT: no such file or directory.
    public static let noSuchFile = Errno(ENOENT)
    /// ENODEV, ENXIO: the device went away or was never there.
    public static let noDevice = Errno(ENODEV)
    public static let noDeviceOrAddress = Errno(ENXIO)
    /// EINVAL, ERANGE, ENOSPC: refused arguments, as the KMS atomic test reports an output
    /// that cannot be lit.
    public static let invalidArgument = Errno(EINVAL)
    public static let outOfRange = Errno(ERANGE)
    public static let noSpace = Errno(ENOSPC)
    /// EACCES: permission denied.
    public static let accessDenied = Errno(EACCES)
    /// EADDRINUSE: another socket is bound to the address.
    public static let addressInUse = Errno(EADDRINUSE)
    /// ENOTDIR: a part of the path is not a directory.
    public static let notADirectory = Errno(ENOTDIR)
    /// EEXIST: the file exists.
    public static let fileExists = Errno(EEXIST)

    /// "Permission denied". glibc's strerror is thread-safe since 2.32 (Debian 12 has 2.36). Zero,
    /// left by a library that failed without setting errno, reads "failed".
    public var description: String {
        rawValue == 0 ? "failed" : String(cString: strerror(rawValue))
    }
}
