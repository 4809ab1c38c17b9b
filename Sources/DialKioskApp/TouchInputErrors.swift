import DialCore
import KioskSeams
import LinuxSystem
import TouchInput
import KioskReporting

/// TouchInput's failures as exit statuses: permissions are 77, a seat without devices 69.
extension InputCall: ReportableCall {
    package func exitStatus(errno: Errno) -> ExitStatus {
        if InputSystemError(self, errno: errno).isPermissionProblem { return .permissionDenied }
        switch kind {
        case .open, .noDevices: return .noDevice
        case .call: return errno.rawValue == 0 ? .failure : .noDevice
        }
    }
}

extension CalibrationError: ReportableError {
    package var exitStatus: ExitStatus { .usage }
}
