import TouchInput

/// TouchInput's failures as exit statuses: permissions are 77, a seat without devices 69,
/// a malformed `libinput record` file 65.
extension InputSystemError: ReportableError {
    public var exitStatus: ExitStatus {
        if isPermissionProblem { return .permissionDenied }
        switch kind {
        case .open, .noDevices: return .noDevice
        case .call: return errno == 0 ? .failure : .noDevice
        }
    }
}

extension LibinputRecordError: ReportableError {
    public var exitStatus: ExitStatus { .dataError }
}

extension CalibrationError: ReportableError {
    public var exitStatus: ExitStatus { .usage }
}
