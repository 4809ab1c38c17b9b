import ArgumentParser
import DialCore
import Testing
@testable import KioskSeams
@testable import DialKioskApp
@testable import KioskRuntime
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

/// `--config`, `--size`, `--items` and `--rotate` are one option group: each command takes the
/// ones it names, with one wording and one check, and refuses the others as unknown.
extension SharedOptionsTests {
    /// Each command with the arguments it needs besides these, and the options it takes.
    static let commands: [([String], Set<String>)] = [
        (["run"], ["config", "items", "rotate"]),
        (["simulate"], ["config", "size", "items"]),
        (["render", "--out", "/tmp/x.png", "--size", "64x64"], ["config", "size", "items", "rotate"]),
        (["bench", "--size", "64x64"], ["size", "items", "rotate"]),
        (["preview"], ["config", "size"]),
        (["splash", "--out", "/tmp/x", "--size", "64x64"], ["config", "size", "rotate"]),
    ]
    static let values = ["config": "/tmp/none.yaml", "size": "64x48", "items": "5", "rotate": "90"]

    @Test func eachCommandTakesItsOptionsAndRefusesTheOthers() {
        for (base, takes) in Self.commands {
            for (option, value) in Self.values {
                let result = outcome(base + ["--\(option)", value])
                if takes.contains(option) {
                    #expect(result.status == 0, "\(base[0]) --\(option): \(result.message)")
                } else {
                    #expect(result.status == 64 && result.message.contains("Unknown option '--\(option)'"), "\(base[0]) --\(option)")
                }
            }
        }
    }

    @Test func oneCheckForAll() {
        for (base, takes) in Self.commands {
            if takes.contains("items") {
                let refused = outcome(base + ["--items", "65"])
                #expect(refused.status == 64 && refused.message.contains("--items must be between 1 and 64, got 65"), "\(base[0])")
            }
            if takes.contains("size") {
                let big = outcome(base + ["--size", "16384x16384"])
                #expect(big.status == 64 && big.message.contains("at most 33177600 (7680x4320)"), "\(base[0]): \(big.message)")
            }
        }
        let unsized = outcome(["render", "--out", "/tmp/x.png"])
        #expect(unsized.status == 64 && unsized.message.contains("Missing expected argument '--size <WxH>'"))
    }

    @Test func oneWording() {
        let texts = [RunCommand.helpMessage(), SimulateCommand.helpMessage(), RenderCommand.helpMessage(), PreviewCommand.helpMessage(),
                     SplashCommand.helpMessage()].map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        for text in texts {
            #expect(text.contains("--config <file> The configuration file (YAML); the demo menu when omitted."))
        }
        for text in texts where text.contains("--items") {
            #expect(text.contains("--items <n> Show N numbered items instead of the demo menu (1 to 64)."))
        }
    }
}
