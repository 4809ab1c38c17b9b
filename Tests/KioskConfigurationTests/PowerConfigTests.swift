import Testing
@testable import KioskConfiguration
@testable import KioskReporting
import OpeningHours
import KioskTestSupport

/// The `power:` section: windows as written, located errors (78) for bad times, days and lists.
@Suite struct PowerConfigTests {
    private func parse(_ power: String) throws -> KioskConfig {
        try ConfigParser.parse("power:\n" + power, file: "kiosk.yaml")
    }

    @Test func windowsOnAndOffAreTimesWhateverYAML11Says() throws {
        // Unquoted 07:00 is a base-60 number and `on`/`off` booleans to a YAML 1.1 reader.
        let config = try parse("""
          schedule:
            - {days: mon-fri, on: 07:00, off: "19:30"}
            - {days: [sat, sun], on: "22:00", off: "02:00"}
            - days: fri-mon
              on: "00:00"
              off: "24:00"
          outside_hours: dim
          touch_outside_hours: ignore
        """)
        let windows = try #require(config.power.schedule).windows
        #expect(windows == [HoursWindow(days: [.mon, .tue, .wed, .thu, .fri], on: 420, off: 1170),
                            HoursWindow(days: [.sat, .sun], on: 1320, off: 120),
                            HoursWindow(days: [.fri, .sat, .sun, .mon], on: 0, off: 1440)])
        #expect(config.power.outsideHours == .dim)
        #expect(config.power.touchOutsideHours == .ignore)
        #expect(try ConfigParser.parse("", file: "k.yaml").power == PowerSettings())
    }

    @Test func cecIsAFlagOrAnAdapter() throws {
        #expect(try parse("  cec: true\n").power.cec == .first)
        #expect(try parse("  cec: false\n").power.cec == nil)
        #expect(try parse("  cec: /dev/cec1\n").power.cec == .path("/dev/cec1"))
    }

    @Test(arguments: [
        ("  schedule:\n    - {days: mon, on: \"25:00\", off: \"19:00\"}\n", 3, "power.schedule[0].on", "25:00"),
        ("  schedule:\n    - {days: mon, on: \"7:5\", off: \"19:00\"}\n", 3, "power.schedule[0].on", "7:5"),
        ("  schedule:\n    - {days: mon, on: \"07:00\", off: \"24:01\"}\n", 3, "power.schedule[0].off", "24:01"),
        ("  schedule:\n    - {days: funday, on: \"07:00\", off: \"19:00\"}\n", 3, "power.schedule[0].days", "funday"),
        ("  schedule:\n    - {days: [], on: \"07:00\", off: \"19:00\"}\n", 3, "power.schedule[0].days", "empty list"),
        ("  schedule: []\n", 2, "power.schedule", "empty schedule"),
        ("  schedule:\n    - {days: mon, on: \"07:00\", off: \"07:00\"}\n", 3, "power.schedule[0].off", "empty"),
        ("  schedule:\n    - {days: mon, on: \"07:00\"}\n", 3, "power.schedule[0].off", "missing"),
        ("  schedule:\n    - {days: mon, on: \"07:00\", off: \"08:00\", of: \"09:00\"}\n", 3, "power.schedule[0].of", "unknown key"),
        ("  outside_hours: sleep\n", 2, "power.outside_hours", "off, dim, on"),
        ("  cec: /dev/video0\n", 2, "power.cec", "/dev/cec0"),
        ("  cec: maybe\n", 2, "power.cec", "true, false"),
    ])
    func badInputIsALocatedError(text: String, line: Int, key: String, words: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted: \(text)")
        } catch let error as ConfigError {
            #expect(error.line == line, "\(error)")
            #expect(error.key == key, "\(error)")
            #expect(error.description.contains(words), "\(error)")
            #expect(error.exitStatus == .config)
        } catch {
            Issue.record("\(error)")
        }
    }
}
