import ArgumentParser

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Show the dial full screen and turn it by touch."
    )

    func run() throws {
        try reportingErrors {
            throw CommandFailure("run is not implemented yet", status: .failure)
        }
    }
}
