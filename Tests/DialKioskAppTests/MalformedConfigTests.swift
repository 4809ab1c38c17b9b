import ArgumentParser
import DialCore
import Testing
@testable import DialKioskApp

/// Hand-written broken configurations: each must give one line naming the file, the line and
/// (where there is one) the key, and exit status 78. Also the corpus for the config fuzzer.
@Suite struct MalformedConfigTests {
    /// (configuration text, expected start of the message after "bad.yaml:").
    static let corpus: [(String, String)] = [
        ("items: {id: a}\n", "1: items: expected a list of items"),
        ("items: []\n", "1: items: the menu needs at least one item"),
        ("items:\n", "1: items: expected a list of items"),
        ("items:\n  - tea\n", "2: items[0]: expected a mapping of keys, got 'tea'"),
        ("items:\n  - label: Tea\n", "2: items[0].id: every item needs an id"),
        ("items:\n  - id: \"\"\n", "2: items[0].id: expected letters"),
        ("items:\n  - id: [a]\n", "2: items[0].id: expected a text value, got a list"),
        ("items:\n  - id: a\n  - id: a\n", "3: items[1].id: duplicate item id 'a' (first used on line 2)"),
        ("items:\n  - id: a\n    label: \"\"\n", "3: items[0].label: expected a non-empty single-line text"),
        ("items:\n  - id: a\n    color: red\n", "3: items[0].color: expected #RRGGBB, got 'red'"),
        ("items:\n  - id: a\n    color: \"#12345\"\n", "3: items[0].color: expected #RRGGBB, got '#12345'"),
        ("items:\n  - id: a\n    icon: icon.png\n", "3: items[0].icon: expected an absolute path"),
        ("items:\n  - id: a\n    command: \"reboot now\"\n", "3: items[0].command: expected a list of strings"),
        ("items:\n  - id: a\n    command: []\n", "3: items[0].command: expected a list of strings"),
        ("items:\n  - id: a\n    commnd: [x]\n", "3: items[0].commnd: unknown key (did you mean 'command'?)"),
        ("theme: []\n", "1: theme: expected a mapping of keys, got a list"),
        ("theme:\n  hub: white\n", "2: theme.hub: expected #RRGGBB, got 'white'"),
        ("theme:\n  label_size: 2\n", "2: theme.label_size: expected a number between 4 and 400"),
        ("theme:\n  label_size: huge\n", "2: theme.label_size: expected a number between 4 and 400 (pixels), got 'huge'"),
        ("theme:\n  font: \"\"\n", "2: theme.font: expected a non-empty single-line text"),
        ("physics:\n  decay: 0\n", "2: physics.decay: expected a number strictly between 0 and 1, got 0"),
        ("physics:\n  decay: .inf\n", "2: physics.decay: expected a number strictly between 0 and 1, got '.inf'"),
        ("physics:\n  min_fling_speed: -1\n", "2: physics.min_fling_speed: expected a number between 0 and 100"),
        ("physics:\n  snap_duration: [0.2]\n", "2: physics.snap_duration: expected a number or [min, max]"),
        ("physics:\n  inflate_min: 0\n", "2: physics.inflate_min: expected a number between 0.1 and 1, got 0"),
        ("physics:\n  friction: 0.9\n", "2: physics.friction: unknown key"),
        ("display:\n  rotation: 360\n", "2: display.rotation: expected 0, 90, 180 or 270, got '360'"),
        ("display:\n  rotation: left\n", "2: display.rotation: expected 0, 90, 180 or 270, got 'left'"),
        ("display:\n  mode: 1920*1080\n", "2: display.mode: expected WxH or WxH@Hz"),
        ("display:\n  mode: 1920x1080@0\n", "2: display.mode: expected WxH or WxH@Hz"),
        ("display:\n  device: card0\n", "2: display.device: expected a path like /dev/dri/card0"),
        ("display:\n  connector: HDMI A 1\n", "2: display.connector: expected a connector name like HDMI-A-1"),
        ("input:\n  calibration: [1, 0, 0, 0, 1, 0]\n", "2: input.calibration: expected six numbers"),
        ("input:\n  calibration: \"1 0 0 0 1 x\"\n", "2: input.calibration: expected six numbers"),
        ("input:\n  seats: seat1\n", "2: input.seats: unknown key (did you mean 'seat'?)"),
        ("behaviour:\n  default_item: nope\n", "2: behaviour.default_item: no item has the id 'nope'"),
        ("behaviour:\n  return_after_seconds: -5\n", "2: behaviour.return_after_seconds: expected a number of seconds"),
        ("behaviour:\n  idle_after_minutes: forever\n", "2: behaviour.idle_after_minutes: expected a number of minutes"),
        ("behaviour:\n  start: hidden\n", "2: behaviour.start: expected one of collapsed, expanded, got 'hidden'"),
        ("behaviour:\n  wake_on_touch: 2\n", "2: behaviour.wake_on_touch: expected true or false, got '2'"),
        ("behavior:\n  idle: dim\n", "1: behavior: unknown key (did you mean 'behaviour'?)"),
        ("items: [\n", "2: YAML syntax error"),
        ("theme:\n\t label: \"#FFFFFF\"\n", "2: YAML syntax error"),
        ("theme:\n  ring: \"#000000\n", "3: YAML syntax error"),
        ("a: b: c\n", "1: YAML syntax error"),
        ("theme: {ring: \"#000000\", ring: \"#111111\"}\n", "1: key 'ring' appears more than once"),
        ("42\n", "1: expected a mapping of keys, got '42'"),
        ("? [a]\n: b\n", "1: keys must be plain names, got a list"),
    ]

    @Test func everyMalformedConfigGivesOneLocatedLineAndStatus78() {
        #expect(Self.corpus.count >= 30)
        for (text, expected) in Self.corpus {
            do {
                _ = try ConfigParser.parse(text, file: "bad.yaml")
                Issue.record("accepted: \(text)")
            } catch let error as ConfigError {
                #expect(error.exitStatus == .config, "\(text)")
                #expect(!error.description.contains("\n"), "\(error.description)")
                #expect(error.description.hasPrefix("bad.yaml:" + expected), "\(text) -> \(error.description)")
            } catch {
                Issue.record("unexpected \(error) for \(text)")
            }
        }
    }

    /// An unquoted `#` starts a comment, so `color: #123456` is an empty (null) colour: the
    /// default. Documented in the example file; this pins the behaviour.
    @Test func unquotedHashIsAComment() throws {
        let config = try ConfigParser.parse("items:\n  - id: a\n    color: #123456\n", file: "c.yaml")
        #expect(config.items[0].color == DemoMenu.numbered(1)[0].color)
    }

    @Test func checkConfigExitStatuses() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        writeFile(dir.path + "/good.yaml", "items: [{id: a}]\n")
        writeFile(dir.path + "/bad.yaml", "items: []\n")
        func status(_ arguments: [String]) -> Int32 {
            do {
                var command = try DialKioskCommand.parseAsRoot(arguments)
                try command.run()
                return 0
            } catch let exit as ExitCode {
                return exit.rawValue
            } catch {
                return DialKioskCommand.exitCode(for: error).rawValue
            }
        }
        #expect(status(["check-config", dir.path + "/good.yaml"]) == 0)
        #expect(status(["check-config", dir.path + "/bad.yaml"]) == 78)
        #expect(status(["check-config", dir.path + "/missing.yaml"]) == 66)
        #expect(status(["check-config"]) == 64)
    }
    // Mutated configurations: FuzzTests.swift (the fuzz oracle and its seeded budget).
}
