import ArgumentParser

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure paint and copy times per frame."
    )

    func run() throws {
        try reportingErrors {
            throw CommandFailure("bench is not implemented yet", status: .failure)
        }
    }
}
