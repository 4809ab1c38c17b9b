import ArgumentParser
import DialCore
import Testing
@testable import DialKioskApp
@testable import KioskRuntime
@testable import KioskConfiguration
import KioskTestSupport

/// The smaller defects, each pinned.
@Suite struct SmallDefectsTests {
    /// The exit status `dialkiosk ARGUMENTS` ends with, up to validation (parse errors and
    /// `validate()` come back as the usage status).
    private func parseStatus(_ arguments: [String]) -> Int32 {
        do {
            _ = try DialKioskCommand.parseAsRoot(arguments)
            return 0
        } catch {
            return DialKioskCommand.exitCode(for: error).rawValue
        }
    }

    private func message(_ arguments: [String]) -> String {
        do {
            _ = try DialKioskCommand.parseAsRoot(arguments)
            return ""
        } catch {
            return DialKioskCommand.message(for: error)
        }
    }

    @Test func anEmptyDeviceIsAUsageError() {
        #expect(parseStatus(["run", "--device", ""]) == 64)
        #expect(parseStatus(["list-outputs", "--device", ""]) == 64)
        #expect(message(["run", "--device", ""]).contains("--device needs a DRM card node"))
        #expect(parseStatus(["run", "--device", "/dev/dri/card0"]) == 0)
    }

    /// run, simulate, render and bench take the same --items range, worded the same way.
    @Test func everyItemsOptionSharesOneRangeAndOneWording() {
        let commands: [[String]] = [["run"], ["simulate"], ["render", "--size", "800x480", "--out", "/tmp/x.png"], ["bench", "--size", "800x480"]]
        for command in commands {
            #expect(parseStatus(command + ["--items", "1"]) == 0, "\(command)")
            #expect(parseStatus(command + ["--items", "64"]) == 0, "\(command)")
            #expect(parseStatus(command + ["--items", "0"]) == 64, "\(command)")
            #expect(parseStatus(command + ["--items", "65"]) == 64, "\(command)")
            #expect(message(command + ["--items", "65"]).contains("--items must be between 1 and 64, got 65"), "\(command)")
        }
    }

    /// A timer of a few milliseconds fires between two frames of any touch: refused, located.
    @Test func timersOfMillisecondsAreRefused() throws {
        #expect(throws: ConfigError(file: "c.yaml", line: 2, key: "behaviour.return_after_seconds",
                                    message: "expected a number of seconds: 0 (never), or between 1 and 86400, got 0.005")) {
            try ConfigParser.parse("behaviour:\n  return_after_seconds: 0.005\n", file: "c.yaml")
        }
        #expect(throws: ConfigError.self) {
            try ConfigParser.parse("behaviour:\n  idle_after_minutes: 0.0001\n", file: "c.yaml")
        }
        do {
            _ = try ConfigParser.parse("behaviour:\n  idle_after_minutes: 0.0001\n", file: "c.yaml")
        } catch let error as ConfigError {
            #expect(error.line == 2 && error.key == "behaviour.idle_after_minutes")
            #expect(error.message.contains("at least one second"))
        }
        let ok = try ConfigParser.parse("behaviour: {return_after_seconds: 1, idle_after_minutes: 0.017}", file: "c.yaml")
        #expect(ok.behaviour.returnAfter == 1)
        #expect(ok.behaviour.idleAfterMinutes == 0.017)
        let never = try ConfigParser.parse("behaviour: {return_after_seconds: 0, idle_after_minutes: 0}", file: "c.yaml")
        #expect(never.behaviour.returnAfter == nil && never.behaviour.idleAfterMinutes == nil)
    }
}
