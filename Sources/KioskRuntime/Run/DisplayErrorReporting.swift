import DialCore
import KMSOutput
import LinuxSystem
import KioskReporting

/// Exit statuses and one-line messages for the display's errors.
extension DisplayCall: ReportableCall {
    package func exitStatus(errno: Errno) -> ExitStatus {
        let error = DisplayError(self, errno: errno)
        if error.isPermissionDenied { return .permissionDenied }
        if error.isAnotherMaster { return .deviceBusy }
        if case .open = self, error.code == Errno.noSuchFile.rawValue || error.code == Errno.noDeviceOrAddress.rawValue { return .noDevice }
        // ENODEV from any call: the card went away (unplugged or unbound) while in use.
        if error.code == Errno.noDevice.rawValue { return .noDevice }
        // The driver's atomic check refused the modeset: this mode cannot be shown on this
        // connector, as if it were not offered.
        if case .atomicTest = self, [Errno.invalidArgument, .outOfRange, .noSpace].map(\.rawValue).contains(error.code) { return .outputNotFound }
        return .osError
    }
}

extension OutputChoiceError: ReportableError {
    package var exitStatus: ExitStatus {
        switch self {
        case .noDevice, .deviceNotFound, .noConnectedOutput: return .noDevice
        case .connectorNotFound, .modeNotFound: return .outputNotFound
        case .noCRTC: return .osError
        }
    }

    public var description: String {
        switch self {
        case .noDevice:
            return "no DRM device found (no /dev/dri/card*); without a display, `dialkiosk preview` shows the dial in a browser (`dialkiosk simulate` prints its events)"
        case .deviceNotFound(let path, let found):
            return "no DRM device at \(path); found: \(found.isEmpty ? "none" : found.joined(separator: ", "))"
        case .noConnectedOutput(let cards):
            return "no connected display on \(cards.joined(separator: ", ")); check the cable or `dialkiosk list-outputs`"
        case .connectorNotFound(let name, let connected):
            return "connector \(name) not found; connected: \(connected.isEmpty ? "none" : connected.joined(separator: ", "))"
        case .modeNotFound(let requested, let connector, let available):
            return "mode \(requested) not offered by \(connector); modes: \(available.joined(separator: ", "))"
        case .noCRTC(let connector):
            return "no CRTC can drive \(connector)"
        }
    }
}

extension OutputOpenError: ReportableError {
    package var exitStatus: ExitStatus {
        switch self {
        case .choice(let e): return e.exitStatus
        case .display(let e): return e.exitStatus
        }
    }

    public var description: String {
        switch self {
        case .choice(let e): return e.description
        case .display(let e): return e.description
        }
    }
}
