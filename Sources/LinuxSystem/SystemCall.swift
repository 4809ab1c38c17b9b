/// A call into the kernel or a C library that can fail, as its failure message names it.
/// Each module that touches the kernel has one enum (or struct) of these.
public protocol SystemCall: Sendable, Equatable {
    /// The words after "Failed to": "set CRTC 42".
    var phrase: String { get }

    /// A whole message of its own for `errno`, where the usual shape would not tell a person
    /// what to do (a permission problem, a device held by another program); nil for the usual.
    func message(errno: Errno) -> String?
}

extension SystemCall {
    public func message(errno: Errno) -> String? { nil }
}

/// The package's one error shape for a failed call: which call, and the errno it left.
/// Reads "Failed to set CRTC 42: Permission denied".
public struct CallError<Call: SystemCall>: Error, Sendable, Equatable, CustomStringConvertible {
    public var call: Call
    public var errno: Errno

    public init(_ call: Call, errno: Errno) {
        self.call = call
        self.errno = errno
    }

    /// For a bare errno number (what the <errno.h> constants are).
    public init(_ call: Call, code: Int32) {
        self.init(call, errno: Errno(code))
    }

    /// The errno's number, to compare with the <errno.h> constants.
    public var code: Int32 { errno.rawValue }

    public var description: String {
        call.message(errno: errno) ?? "Failed to \(call.phrase): \(errno)"
    }

    /// Runs `body`, a call that returns -1 and sets errno when it fails, again each time a
    /// signal interrupts it (EINTR); any other failure is thrown as `call`'s error.
    public static func retrying<T: FixedWidthInteger>(_ call: Call, _ body: () -> T) throws(CallError) -> T {
        switch Errno.retryingInterrupts(body) {
        case .success(let value): return value
        case .failure(let errno): throw CallError(call, errno: errno)
        }
    }

    /// Throws `call`'s error unless `result`, in the -errno convention (libdrm, libinput,
    /// libudev), is zero or more. libdrm's ioctl wrapper already retries EINTR and EAGAIN.
    public static func check(_ call: Call, _ result: Int32) throws(CallError) {
        if result < 0 { throw CallError(call, errno: Errno(negatedResult: result)) }
    }
}
