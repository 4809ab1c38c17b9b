import Testing
@testable import KioskConfiguration
import KioskTestSupport

/// Each kind of mistake gives one line naming the file, the line and the key, and status 78.
@Suite struct ConfigErrorTests {
    private func message(_ text: String) -> String { configErrorMessage(text, file: "config.yaml") }

    @Test func badColourNamesLineAndItem() {
        let text = """
            items:
              - id: a
              - id: b
              - id: c
              - id: d
                label: D
                color: blu
            """
        #expect(message(text) == "config.yaml:7: items[3].color: expected #RRGGBB, got 'blu'")
    }

    @Test func unknownKeysAreErrorsWithASuggestion() {
        #expect(message("theme:\n  bakground: \"#000000\"\n")
                == "config.yaml:2: theme.bakground: unknown key (did you mean 'background'?); "
                + "known keys: background, ring, hub, label, font, label_size, preset, label_scale")
        #expect(message("behavior:\n  idle: dim\n").hasPrefix(
            "config.yaml:1: behavior: unknown key (did you mean 'behaviour'?)"))
        #expect(message("items:\n  - id: a\n    colour: \"#000000\"\n").hasPrefix(
            "config.yaml:3: items[0].colour: unknown key (did you mean 'color'?)"))
        #expect(message("zzz: 1\n").hasPrefix("config.yaml:1: zzz: unknown key; known keys: items,"))
    }

    @Test func duplicateItemIds() {
        let text = "items:\n  - id: tea\n  - id: coffee\n  - id: tea\n"
        #expect(message(text) == "config.yaml:4: items[2].id: duplicate item id 'tea' (first used on line 2)")
    }

    @Test func duplicateKeysInAMapping() {
        #expect(message("theme:\n  ring: \"#000000\"\n  ring: \"#111111\"\n")
                == "config.yaml:2: key 'ring' appears more than once in the same mapping")
    }

    @Test func emptyOrMissingItems() {
        #expect(message("items: []\n") == "config.yaml:1: items: the menu needs at least one item")
        #expect(message("items:\n").hasPrefix("config.yaml:1: items: expected a list of items"))
        #expect(message("items:\n  - label: Tea\n") == "config.yaml:2: items[0].id: every item needs an id")
        #expect(message("items:\n  - id: has space\n").hasPrefix("config.yaml:2: items[0].id: expected letters"))
    }

    @Test func wrongTypes() {
        #expect(message("theme: dark\n") == "config.yaml:1: theme: expected a mapping of keys or a preset (standard, high-contrast), got 'dark'")
        #expect(message("physics:\n  decay: fast\n")
                == "config.yaml:2: physics.decay: expected a number strictly between 0 and 1, got 'fast'")
        #expect(message("theme:\n  label_size: [1, 2]\n")
                == "config.yaml:2: theme.label_size: expected a number between 4 and 400 (pixels), got a list")
        #expect(message("items:\n  - id: a\n    command: /bin/true --x\n")
                == "config.yaml:3: items[0].command: expected a list of strings (program and arguments; no shell), "
                + "got '/bin/true --x'")
        #expect(message("items:\n  - id: a\n    command: [/bin/x, {a: 1}]\n")
                == "config.yaml:3: items[0].command[1]: expected a string, got a mapping")
        #expect(message("behaviour:\n  wake_on_touch: maybe\n")
                == "config.yaml:2: behaviour.wake_on_touch: expected true or false, got 'maybe'")
        #expect(message("- a\n- b\n") == "config.yaml:1: expected a mapping of keys, got a list")
    }

    @Test func outOfRangeValues() {
        #expect(message("physics:\n  decay: 1\n")
                == "config.yaml:2: physics.decay: expected a number strictly between 0 and 1, got 1")
        #expect(message("physics:\n  snap_duration: 2\n")
                == "config.yaml:2: physics.snap_duration: expected a number or [min, max] between 0.05 and 1.0 (seconds), got '2'")
        #expect(message("physics:\n  snap_duration: [0.4, 0.2]\n")
                == "config.yaml:2: physics.snap_duration: expected a number or [min, max] between 0.05 and 1.0 (seconds), got [0.4, 0.2]")
        // The two ranges meet at 1, so inflate_min can never exceed inflate_max.
        #expect(message("physics: {inflate_min: 1, inflate_max: 1}\n") == "parsed without error")
        #expect(message("physics:\n  inflate_max: 0.9\n")
                == "config.yaml:2: physics.inflate_max: expected a number between 1 and 2, got 0.9")
        #expect(message("display:\n  rotation: 45\n")
                == "config.yaml:2: display.rotation: expected 0, 90, 180 or 270, got '45'")
        #expect(message("display:\n  on_exit: blank\n")
                == "config.yaml:2: display.on_exit: expected one of restore, keep, got 'blank'")
        #expect(message("display:\n  mode: big\n")
                == "config.yaml:2: display.mode: expected WxH or WxH@Hz (like 1280x800@60), got 'big'")
        #expect(message("input:\n  calibration: 1 0 0\n")
                == "config.yaml:2: input.calibration: expected six numbers \"a b c d e f\" (libinput's matrix), got '1 0 0'")
        #expect(message("behaviour:\n  start: open\n")
                == "config.yaml:2: behaviour.start: expected one of collapsed, expanded, got 'open'")
        #expect(message("behaviour:\n  idle: sleep\n")
                == "config.yaml:2: behaviour.idle: expected one of dim, blank, none, got 'sleep'")
        #expect(message("display:\n  device: card0\n")
                == "config.yaml:2: display.device: expected a path like /dev/dri/card0, got 'card0'")
        #expect(message("items:\n  - id: a\n    icon: a.png\n")
                == "config.yaml:3: items[0].icon: expected an absolute path to a PNG file, got 'a.png'")
    }

    @Test func defaultItemMustExist() {
        #expect(message("items: [{id: a}, {id: b}]\nbehaviour:\n  default_item: c\n")
                == "config.yaml:3: behaviour.default_item: no item has the id 'c'; ids: a, b")
    }

    @Test func yamlSyntaxErrorsCarryYamsLine() {
        #expect(message("theme:\n  ring: \"#000000\n  hub: 1\n").hasPrefix("config.yaml:4: YAML syntax error:"))
        #expect(message("items: [a\n").hasPrefix("config.yaml:2: YAML syntax error: did not find expected ',' or ']'"))
        #expect(message("theme:\n  ring: 1\n bad: 2\n").hasPrefix("config.yaml:3: YAML syntax error:"))
    }

    @Test func missingFileIsNoInput() throws {
        do {
            _ = try ConfigLoader.load(path: "/nonexistent/dialkiosk.yaml")
            Issue.record("loaded a missing file")
        } catch let error as ConfigError {
            #expect(error.exitStatus == .noInput)
            #expect(error.description == "/nonexistent/dialkiosk.yaml: cannot open: No such file or directory")
        }
    }

    @Test func directoryIsUnreadable() throws {
        do {
            _ = try ConfigLoader.load(path: "/")
            Issue.record("loaded a directory")
        } catch let error as ConfigError {
            #expect(error.exitStatus == .noInput)
            #expect(error.description == "/: cannot open: is a directory")
        }
    }
}
