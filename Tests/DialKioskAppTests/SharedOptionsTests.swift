import ArgumentParser
import DialCore
import Testing
@testable import KioskSeams
@testable import DialKioskApp
import KioskTestSupport

/// `--rotate`, `--size` and `--mode` are typed options, parsed by one type
/// each, so every subcommand that has them takes the same values and words a refusal the same.
@Suite struct SharedOptionsTests {
    private func outcome(_ arguments: [String]) -> (status: Int32, message: String) {
        do {
            _ = try DialKioskCommand.parseAsRoot(arguments)
            return (0, "")
        } catch {
            return (DialKioskCommand.exitCode(for: error).rawValue, DialKioskCommand.message(for: error))
        }
    }

    private let rotating: [[String]] = [
        ["run"], ["render", "--size", "800x480", "--out", "/tmp/x.png"], ["splash", "--out", "/tmp/x"],
        ["bench", "--size", "800x480"], ["list-inputs"],
    ]

    @Test func everyRotateTakesTheFourQuarterTurnsWithOneWording() {
        for command in rotating {
            for degrees in ["0", "90", "180", "270"] {
                #expect(outcome(command + ["--rotate", degrees]).status == 0, "\(command) \(degrees)")
            }
            for bad in ["45", "1", "360", "ninety"] {
                let refused = outcome(command + ["--rotate", bad])
                #expect(refused.status == 64, "\(command) \(bad)")
                #expect(refused.message.contains("The value '\(bad)' is invalid for '--rotate <deg>'. "
                                                 + "Please provide one of '0', '90', '180' or '270'."), "\(refused.message)")
            }
        }
    }

    @Test func everySizeHasTheSidesOfModeRequest() {
        let sized: [[String]] = [["render", "--out", "/tmp/x.png"], ["simulate"], ["bench"], ["splash", "--out", "/tmp/x"],
                                 ["list-inputs"]]
        for command in sized {
            #expect(outcome(command + ["--size", "16x16"]).status == 0, "\(command)")
            for bad in ["15x480", "800x16385", "800x480@60", "800"] {
                let refused = outcome(command + ["--size", bad])
                #expect(refused.status == 64, "\(command) \(bad)")
                #expect(refused.message.contains("The value '\(bad)' is invalid for '--size <WxH>'"), "\(refused.message)")
            }
        }
    }

    @Test func runsModeIsAModeRequest() throws {
        let parsed = try RunOptions.parse(["--mode", "800x480@59.94"])
        #expect(parsed.mode == ModeRequest(width: 800, height: 480, refreshHz: 59.94))
        for bad in ["1024", "800x480@0", "15x480", "800x480@"] {
            let refused = outcome(["run", "--mode", bad])
            #expect(refused.status == 64, "\(bad)")
            #expect(refused.message.contains("The value '\(bad)' is invalid for '--mode <WxH[@Hz]>'"), "\(refused.message)")
        }
    }
}
