import LinuxSystem

/// A kind of call whose failures map onto exit statuses, so that every `CallError` reports
/// through the one `ReportableError` conformance below.
public protocol ReportableCall: SystemCall {
    func exitStatus(errno: Errno) -> ExitStatus
}

extension CallError: ReportableError where Call: ReportableCall {
    public var exitStatus: ExitStatus { call.exitStatus(errno: errno) }
}
