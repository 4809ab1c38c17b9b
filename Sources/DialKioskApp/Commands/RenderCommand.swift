import ArgumentParser

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Paint one frame of the dial into a PNG file."
    )

    func run() throws {
        try reportingErrors {
            throw CommandFailure("render is not implemented yet", status: .failure)
        }
    }
}
