import Glibc

/// Exit statuses, one per kind of failure a person can act on (sysexits.h numbering where one
/// fits). The README's table is generated from the same list; keep them together.
package enum ExitStatus: Int32, CaseIterable, Sendable {
    case ok = 0
    /// An unexpected failure: a bug, or a system call that should not fail.
    case failure = 1
    /// Bad command-line arguments.
    case usage = 64
    /// A malformed touch script or `libinput record` file, or a fleet key or bundle that is
    /// damaged, truncated or does not verify.
    case dataError = 65
    /// A named input file (script, record, config, icon, font file) does not exist.
    case noInput = 66
    /// No DRM device, or no input device where one is required.
    case noDevice = 69
    /// A system call on the display failed (modeset, page flip, mmap).
    case osError = 71
    /// Writing an output file failed.
    case ioError = 74
    /// Another program is DRM master on the card.
    case deviceBusy = 75
    /// The device exists but cannot be opened (permissions, groups).
    case permissionDenied = 77
    /// The configuration is invalid; systemd must not restart the service in a loop.
    case config = 78
    /// The requested connector or mode does not exist on the card. DialKiosk's own status:
    /// sysexits.h has none for it (78 would stop systemd's restarts, and a display plugged in
    /// or a cable reseated can fix it), so the unit restarts on it.
    case outputNotFound = 79

    /// One line for the README's table.
    package var meaning: String {
        switch self {
        case .ok: return "success (or stopped by SIGTERM/SIGINT)"
        case .failure: return "unexpected internal failure"
        case .usage: return "bad command-line arguments"
        case .dataError: return "malformed touch script or libinput record file; a fleet key or bundle that is damaged, truncated, or does not verify"
        case .noInput: return "a named input file does not exist"
        case .noDevice: return "no DRM device found (or a required input device missing)"
        case .osError: return "a display system call failed"
        case .ioError: return "an output file could not be written"
        case .deviceBusy: return "another program is DRM master"
        case .permissionDenied: return "permission denied on a device (groups video/input)"
        case .config: return "invalid configuration"
        case .outputNotFound: return "the requested connector or mode does not exist"
        }
    }
}

/// An error a person can act on: a one-line message and the exit status that goes with it.
package protocol ReportableError: Error, CustomStringConvertible {
    var exitStatus: ExitStatus { get }
}

/// A plain located failure for commands that need no error type of their own.
package struct CommandFailure: ReportableError {
    package var message: String
    package var exitStatus: ExitStatus
    package init(_ message: String, status: ExitStatus) {
        self.message = message
        self.exitStatus = status
    }
    package var description: String { message }
}
