import ArgumentParser
import KioskReporting

/// Runs a command body, turning a `ReportableError` into one line on stderr and its exit status.
/// The line carries the journal's `<3>` (error) priority when stderr is the journal (LogFormat
/// decides, as for every other log line).
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ReportableError {
        let format = LogFormat.forStandardError(environment: ProcessEnvironment.current())
        flushStandardOutput()
        JournalLogger.writeToStandardError(format.format(.error, "dialkiosk: \(error.description)"))
        throw ExitCode(error.exitStatus.rawValue)
    }
}
