import ArgumentParser
import FleetConfig
import KioskReporting
import KioskConfiguration
import KioskRuntime

/// `dialkiosk check-config FILE`: parse and validate, print one line, exit 0, 78 or 66.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file.",
        discussion: "Loads every icon and font the way `run` does. Prints one summary line and exits 0 "
            + "when the file is valid (with a warning for each file the service's sandbox hides); otherwise "
            + "prints 'FILE:LINE: KEY: problem' and exits 78 (invalid) or 66 (the file, an icon or a font "
            + "missing or unreadable)."
    )

    @Argument(help: "The YAML configuration file to check (e.g. /etc/dialkiosk/config.yaml).")
    var file: String

    func validate() throws {
        guard !file.isEmpty else { throw ValidationError("FILE must not be empty.") }
    }

    func run() throws {
        try reportingErrors {
            let config = try ConfigLoader.load(path: file)
            // The painter `run` builds, on a typical panel size: what it refuses, this refuses.
            // The configured mode's size when there is one (a portrait panel's bands differ).
            let setup = DialSetup(config: config, width: config.display.mode?.width ?? 800, height: config.display.mode?.height ?? 480)
            let painter = try setup.makePainter()
            let format = LogFormat.forStandardError(environment: ProcessEnvironment.current())
            for warning in try config.warnings + TextChecks.warnings(setup).map({ "\(file): \($0)" }) {
                JournalLogger.writeToStandardError(format.format(.warning, "dialkiosk: warning: \(warning)"))
            }
            for warning in ServiceSandbox.warnings(config: config, fontFiles: painter.fontFiles) {
                JournalLogger.writeToStandardError(format.format(.warning, "dialkiosk: warning: \(warning)"))
            }
            // The files `mqtt:` names are read at start; say now if they cannot be.
            for problem in config.mqtt?.fileProblems ?? [] {
                JournalLogger.writeToStandardError(format.format(.warning, "dialkiosk: warning: \(file): \(problem)"))
            }
            // The fleet's trusted keys are read at start; a kiosk with none refuses every bundle.
            for problem in config.fleet.map({ FleetKeys.load($0.trustedKeys).problems }) ?? [] {
                JournalLogger.writeToStandardError(format.format(.warning, "dialkiosk: warning: \(file): fleet.trusted_keys: \(problem)"))
            }
            for problem in config.accessibility?.audioProblems() ?? [] {
                JournalLogger.writeToStandardError(format.format(.warning, "dialkiosk: warning: \(file): \(problem)"))
            }
            print(ConfigSummary.line(config, file: file))
        }
    }
}
