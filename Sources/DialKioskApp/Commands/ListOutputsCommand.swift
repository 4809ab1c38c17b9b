import ArgumentParser

struct ListOutputsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-outputs",
        abstract: "List DRM cards, connectors, modes and CRTCs."
    )

    func run() throws {
        try reportingErrors {
            throw CommandFailure("list-outputs is not implemented yet", status: .failure)
        }
    }
}
