#if canImport(Glibc)
import Glibc
#endif

/// A failed call into udev, libinput or the kernel: which operation, and the errno it left.
/// Reads "Failed to assign seat seat9: No such device" or, for device nodes,
/// "/dev/input/event3: Permission denied (is the user in group input?)".
public struct InputSystemError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A library or system call; `operation` says which and on what.
        case call
        /// Opening a device node; `operation` is its path.
        case open
        /// The seat has no input device at all.
        case noDevices
    }

    public var kind: Kind
    public var operation: String
    public var errno: Int32

    public init(_ kind: Kind = .call, operation: String, errno: Int32) {
        self.kind = kind
        self.operation = operation
        self.errno = errno
    }

    /// True when a person can fix it with groups or permissions.
    public var isPermissionProblem: Bool { errno == EACCES || errno == EPERM }

    public var description: String {
        let reason = errno == 0 ? "failed" : String(cString: strerror(errno))
        switch kind {
        case .call:
            return "Failed to \(operation): \(reason)"
        case .open:
            let hint = isPermissionProblem ? " (is the user in group input?)" : ""
            return "\(operation): \(reason)\(hint)"
        case .noDevices:
            return operation
        }
    }
}

/// How loud a libinput log line is (libinput_log_priority).
public enum InputLogLevel: Int, Sendable, Comparable {
    case debug = 10, info = 20, error = 30
    public static func < (a: InputLogLevel, b: InputLogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Where TouchInput's and libinput's log lines go.
public typealias InputLog = @Sendable (InputLogLevel, String) -> Void
