import ArgumentParser

struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file."
    )

    func run() throws {
        try reportingErrors {
            throw CommandFailure("check-config is not implemented yet", status: .failure)
        }
    }
}
