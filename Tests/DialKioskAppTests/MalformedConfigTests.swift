import ArgumentParser
import DialCore
import Testing
@testable import DialKioskApp
@testable import KioskRuntime
@testable import KioskConfiguration
import KioskTestSupport

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
        // Limits and control characters.
        ("items:\n  - id: a\n    label: \"" + String(repeating: "é", count: 201) + "\"\n",
         "3: items[0].label: at most 200 characters, got 201"),
        ("items:\n  - id: a\n    label: \"Tea\\0<0>x\"\n", "3: items[0].label: contains a NUL character"),
        ("items:\n  - id: a\n    label: \"Tea\\e[31m\"\n", "3: items[0].label: contains the control character U+001B"),
        ("items:\n  - id: a\n    label: \"Tea\\tcake\"\n", "3: items[0].label: contains the control character U+0009"),
        ("items:\n  - id: \"a\\0\"\n", "2: items[0].id: contains a NUL character"),
        ("items:\n  - id: a\n    icon: \"/x\\0.png\"\n", "3: items[0].icon: contains a NUL character"),
        ("items:\n  - id: a\n    command: [/bin/echo, \"a\\0b\"]\n", "3: items[0].command[1]: contains the control character U+0000"),
        ("items:\n  - id: a\n    command: [\"/bin/echo\\n\"]\n", "3: items[0].command[0]: contains the control character U+000A"),
        ("items:\n  - id: a\n    command: [/bin/echo, \"\\x1b]0;x\"]\n", "3: items[0].command[1]: contains the control character U+001B"),
        ("items:\n  - id: a\n    command: [/bin/echo" + String(repeating: ", x", count: 256) + "]\n",
         "3: items[0].command: at most 256 program and arguments, got 257"),
        ("items:\n  - id: a\n    command: [/bin/echo, " + String(repeating: "x", count: 4097) + "]\n",
         "3: items[0].command[1]: longer than 4096 bytes (4097)"),
        ("theme:\n  font: \"/usr/share/fonts/\\0x.ttf\"\n", "2: theme.font: contains a NUL character"),
        ("theme:\n  font: /" + String(repeating: "f", count: 4096) + "\n", "2: theme.font: longer than 4096 bytes (4097)"),
        ("input:\n  seat: \"seat\\u0085\"\n", "2: input.seat: expected a non-empty single-line text"),
        ("display:\n  connector: \"HDMI\\x7f\"\n", "2: display.connector: contains the control character U+007F"),
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

    /// 20,000 items without a colour took 45 s to parse (a numbered demo menu
    /// built per item), and nothing limited the list. The 65th item is refused at its line,
    /// before any item is read; 64 are fine and take the palette's colours in order.
    @Test func itemsPerRingAreLimitedAndDefaultColoursComeFromThePalette() throws {
        func menu(_ count: Int) -> String { "items:\n" + (0..<count).map { "  - id: item-\($0)\n" }.joined() }
        do {
            _ = try ConfigParser.parse(menu(10_000), file: "big.yaml")
            Issue.record("accepted 10,000 items")
        } catch let error as ConfigError {
            #expect(error.description == "big.yaml:66: items[64]: the dial shows at most 64 items legibly; this list has 10000")
            #expect(error.exitStatus == .config)
        }
        let config = try ConfigParser.parse(menu(64), file: "ok.yaml")
        #expect(config.items.count == 64)
        #expect(config.items.map(\.color) == DemoMenu.numbered(64).map(\.color))
        #expect(config.items[13].color == DemoMenu.paletteColor(1))
    }

    /// Labels of up to 200 characters, any script; tabs and newlines stay allowed in command
    /// arguments (a `sh -c` script), not in the program.
    @Test func limitsLeaveOrdinaryTextAlone() throws {
        let label = String(repeating: "नमस्ते", count: 33)  // 198 code points
        let config = try ConfigParser.parse("""
            items:
              - id: a
                label: "\(label)"
                command: [/bin/sh, -c, "echo one\\techo two\\necho three"]
            """, file: "ok.yaml")
        #expect(config.items[0].label == label)
        #expect(config.items[0].command == ["/bin/sh", "-c", "echo one\techo two\necho three"])
    }

    /// A text over 256 KiB is refused whole, before YAML reads it (ConfigLoader reads no more
    /// than that; the same limit holds for a caller handing the text over).
    @Test func aFileOverTheSizeLimitIsRefused() {
        let text = "# " + String(repeating: "x", count: ConfigLimits.fileBytes) + "\n"
        #expect(throws: ConfigError(file: "huge.yaml", line: nil, key: nil,
                                    message: "262147 bytes, larger than 256 KiB; is this the right file?")) {
            try ConfigParser.parse(text, file: "huge.yaml")
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
