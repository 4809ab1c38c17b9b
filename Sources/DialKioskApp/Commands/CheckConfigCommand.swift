import ArgumentParser

/// `dialkiosk check-config FILE`: parse and validate, print one line, exit 0, 78 or 66.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file.",
        discussion: "Prints one summary line and exits 0 when the file is valid; otherwise prints "
            + "'FILE:LINE: KEY: problem' and exits 78 (invalid) or 66 (missing or unreadable)."
    )

    @Argument(help: "The YAML configuration file to check (e.g. /etc/dialkiosk/config.yaml).")
    var file: String

    func validate() throws {
        guard !file.isEmpty else { throw ValidationError("FILE must not be empty.") }
    }

    func run() throws {
        try reportingErrors {
            let config = try ConfigLoader.load(path: file)
            print(ConfigSummary.line(config, file: file))
        }
    }
}
