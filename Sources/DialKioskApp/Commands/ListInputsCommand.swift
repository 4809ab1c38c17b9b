import ArgumentParser

struct ListInputsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-inputs",
        abstract: "List input devices with their capabilities."
    )

    func run() throws {
        try reportingErrors {
            throw CommandFailure("list-inputs is not implemented yet", status: .failure)
        }
    }
}
