import LinuxSystem

/// A system call of the app itself (control socket, systemd notification, spawning, signals,
/// timers), named as its failure message says it, with the exit status its failure leaves with:
/// "Failed to bind control socket /run/dialkiosk.sock: Address already in use".
package struct NamedCall: ReportableCall {
    /// What was being done, worded to follow "Failed to".
    package var operation: String
    package var status: ExitStatus

    package var phrase: String { operation }
    package func exitStatus(errno: Errno) -> ExitStatus { status }
}

/// The app's own failed calls, in the package's one error shape.
package typealias SystemCallError = CallError<NamedCall>

extension SystemCallError {
    package init(_ operation: String, errno: Int32, status: ExitStatus = .failure) {
        self.init(NamedCall(operation: operation, status: status), code: errno)
    }
}
