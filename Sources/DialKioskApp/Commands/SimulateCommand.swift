import ArgumentParser

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Replay a touch script headlessly and print the dial's events."
    )

    func run() throws {
        try reportingErrors {
            throw CommandFailure("simulate is not implemented yet", status: .failure)
        }
    }
}
