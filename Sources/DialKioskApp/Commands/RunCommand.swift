import ArgumentParser
import DialCore
import KMSOutput
#if canImport(Glibc)
import Glibc
#endif

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Show the dial full screen and turn it by touch."
    )

    @OptionGroup var options: RunOptions

    func run() throws {
        try reportingErrors {
            setvbuf(stdout, nil, _IOLBF, 0)
            let session = try RunSession(options: options)
            defer { session.close() }
            let ending = try session.run()
            print("run: ended by \(ending == .signal ? "signal" : "--exit-after"), \(session.flipCount) flips")
        }
    }
}
