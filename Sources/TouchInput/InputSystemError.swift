import Glibc
import LinuxSystem

/// A call into udev, libinput or the kernel that TouchInput makes, as its failure message names
/// it: "Failed to assign seat seat9: No such device" or, for device nodes,
/// "/dev/input/event3: Permission denied (is the user in group input?)".
package struct InputCall: SystemCall {
    package enum Kind: Sendable, Equatable {
        /// A library or system call; `operation` says which and on what.
        case call
        /// Opening a device node; `operation` is its path.
        case open
        /// The seat has no input device at all; `operation` is the whole message.
        case noDevices
    }

    package var kind: Kind
    package var operation: String

    package init(_ kind: Kind = .call, operation: String) {
        self.kind = kind
        self.operation = operation
    }

    package var phrase: String { operation }

    package func message(errno: Errno) -> String? {
        switch kind {
        case .call:
            return nil
        case .open:
            let hint = InputSystemError.isPermission(errno) ? " (is the user in group input?)" : ""
            return "\(operation): \(errno)\(hint)"
        case .noDevices:
            return operation
        }
    }
}

/// TouchInput's failures: which call, and the errno it left.
package typealias InputSystemError = CallError<InputCall>

extension InputSystemError {
    package init(_ kind: InputCall.Kind = .call, operation: String, errno: Int32) {
        self.init(InputCall(kind, operation: operation), code: errno)
    }

    package var kind: InputCall.Kind { call.kind }

    /// True when a person can fix it with groups or permissions.
    package var isPermissionProblem: Bool { Self.isPermission(errno) }

    static func isPermission(_ errno: Errno) -> Bool { errno.rawValue == EACCES || errno.rawValue == EPERM }
}
