import InputRecording
import KioskReporting

/// A malformed `libinput record` file is status 65 (data error).
extension LibinputRecordError: ReportableError {
    package var exitStatus: ExitStatus { .dataError }
}
