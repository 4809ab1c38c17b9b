import LinuxSystem

/// A kind of call whose failures map onto exit statuses, so that every `CallError` reports
/// through the one `ReportableError` conformance below.
package protocol ReportableCall: SystemCall {
    func exitStatus(errno: Errno) -> ExitStatus
}

extension CallError: ReportableError where Call: ReportableCall {
    package var exitStatus: ExitStatus { call.exitStatus(errno: errno) }
}
