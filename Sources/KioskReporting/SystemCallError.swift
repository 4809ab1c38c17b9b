import LinuxSystem

/// A system call of the app itself (control socket, systemd notification, spawning, signals,
/// timers), named as its failure message says it, with the exit status its failure leaves with:
/// "Failed to bind control socket /run/dialkiosk.sock: Address already in use".
public struct NamedCall: ReportableCall {
    /// What was being done, worded to follow "Failed to".
    public var operation: String
    public var status: ExitStatus

    public var phrase: String { operation }
    public func exitStatus(errno: Errno) -> ExitStatus { status }
}

/// The app's own failed calls, in the package's one error shape.
public typealias SystemCallError = CallError<NamedCall>

extension SystemCallError {
    public init(_ operation: String, errno: Int32, status: ExitStatus = .failure) {
        self.init(NamedCall(operation: operation, status: status), code: errno)
    }
}
