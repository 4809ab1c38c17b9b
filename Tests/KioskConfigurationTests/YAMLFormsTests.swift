import Testing
@testable import KioskConfiguration
import KioskFeatures
import KioskTestSupport

/// The YAML forms configuration files are written in, each with what the reader made of it: the
/// items it read (id, label, colour, command, description, speech) or the located error. The
/// expected column was produced by the reader the kiosk used before (Yams, which compiles
/// libyaml in) and is kept as it printed, so a change of reader that reads any form differently
/// fails here by name.
@Suite struct YAMLFormsTests {
    /// What one text reads as, in one line.
    static func outcome(_ text: String) -> String {
        do {
            let config = try ConfigParser.parse(text, file: "f.yaml")
            let items = config.menu.everyItem.map { entry -> String in
                let item = entry.item
                var parts = [item.id, item.label, "\(item.color)"]
                if let command = item.command { parts.append("cmd=" + command.joined(separator: "|")) }
                if let description = item.description { parts.append("desc=" + description) }
                if let speech = item.speech { parts.append("speech=" + speech) }
                return parts.joined(separator: " ")
            }
            var line = "OK [" + items.joined(separator: "; ") + "]"
            if config.theme != KioskConfig().theme { line += " theme=\(config.theme.ringColor)" }
            if let idle = config.behaviour.idleAfterMinutes { line += " idle=\(idle)" }
            return line
        } catch {
            return "\(error)"
        }
    }

    static let cases: [(name: String, text: String)] = [
        ("block map", "items:\n  - id: a\n    label: Tea\n    color: \"#112233\"\n"),
        ("flow map in a flow list", "items: [{id: a, label: Tea, color: '#112233'}]\n"),
        ("flow list of ids", "items: [{id: a}, {id: b}]\n"),
        ("flow root", "{items: [{id: a, label: Tea}], behaviour: {idle_after_minutes: 5}}\n"),
        ("block list indented at the key", "items:\n- id: a\n  label: Tea\n- id: b\n"),
        ("anchor and alias of a scalar", "items:\n  - {id: a, color: &c \"#112233\"}\n  - {id: b, color: *c}\n"),
        ("alias of a mapping", "theme: &t {ring: \"#101010\"}\nitems: [{id: a}]\naccessibility: *t\n"),
        ("alias of a command list", "items:\n  - id: a\n    command: &cmd [/bin/echo, hi]\n  - id: b\n    command: *cmd\n"),
        ("undefined alias", "items:\n  - id: a\n    label: *nope\n"),
        ("anchor redefined", "items:\n  - {id: a, label: &l One}\n  - {id: b, label: &l Two}\n  - {id: c, label: *l}\n"),
        ("merge key", "base: &b {label: X}\nitems:\n  - <<: *b\n    id: a\n"),
        ("single quoted with an escaped quote", "items:\n  - id: a\n    label: 'it''s # not a comment'\n"),
        ("double quoted escapes", "items:\n  - id: a\n    label: \"caf\\u00e9 \\x41 \\\"q\\\"\"\n"),
        ("double quoted NUL", "items:\n  - id: a\n    label: \"a\\0b\"\n"),
        ("double quoted tab escape", "items:\n  - id: a\n    label: \"a\\tb\"\n"),
        ("plain scalar with spaces and colon", "items:\n  - id: a\n    label: Tea: hot or cold\n"),
        ("plain scalar with inner colon", "items:\n  - id: a\n    label: 10:30 tea\n"),
        ("plain scalar folded over lines", "items:\n  - id: a\n    description: one\n      two\n      three\n"),
        ("literal block", "items:\n  - id: a\n    description: |\n      line one\n      line two\n"),
        ("folded block", "items:\n  - id: a\n    description: >\n      line one\n      line two\n"),
        ("literal block keep and strip", "items:\n  - id: a\n    description: |-\n      kept\n  - id: b\n    description: |+\n      kept\n\n"),
        ("Unicode labels", "items:\n  - id: a\n    label: Café ☕\n  - id: b\n    label: 日本語\n  - id: c\n    label: \"שלום\"\n"),
        ("Unicode escapes beyond the BMP", "items:\n  - id: a\n    label: \"\\U0001F375 tea\"\n"),
        ("Unicode key", "items:\n  - id: a\n    lábel: x\n"),
        ("byte order mark", "\u{FEFF}items:\n  - id: a\n"),
        ("comments everywhere", "# head\nitems: # the ring\n  # between\n  - id: a # trailing\n    label: \"# kept\" # gone\n"),
        ("hash without a space is text", "items:\n  - id: a\n    label: tea#1\n"),
        ("document start", "---\nitems:\n  - id: a\n"),
        ("document start and end", "---\nitems:\n  - id: a\n...\n"),
        ("two documents", "items:\n  - id: a\n---\nitems:\n  - id: b\n"),
        ("YAML directive", "%YAML 1.1\n---\nitems:\n  - id: a\n"),
        ("unknown directive", "%FOO bar\n---\nitems:\n  - id: a\n"),
        ("empty", ""),
        ("comments only", "# nothing\n\n# here\n"),
        ("document start only", "---\n"),
        ("null root", "~\n"),
        ("scalar root", "hello\n"),
        ("list root", "- id: a\n"),
        ("tab indentation", "items:\n\t- id: a\n"),
        ("tab after indentation", "theme:\n  \tring: \"#000000\"\n"),
        ("tab inside a plain value", "items:\n  - id: a\n    label: a\tb\n"),
        ("tab before a comment", "items:\n  - id: a\t# note\n"),
        ("CRLF line ends", "items:\r\n  - id: a\r\n    label: Tea\r\n"),
        ("CR only line ends", "items:\r  - id: a\r"),
        ("duplicate top-level key", "items:\n  - id: a\ntheme:\n  ring: \"#000000\"\ntheme:\n  hub: \"#000000\"\n"),
        ("duplicate item key", "items:\n  - id: a\n    label: A\n    label: B\n"),
        ("duplicate key plain and quoted", "items:\n  - id: a\n    \"label\": A\n    label: B\n"),
        ("same text different tags", "items:\n  - id: a\n1: x\n\"1\": y\n"),
        ("duplicate number keys", "items:\n  - id: a\n1: x\n1: y\n"),
        ("several duplicates", "b: 1\na: 1\nb: 2\na: 2\n"),
        ("duplicate in a flow mapping", "items: [{id: a, id: b}]\n"),
        ("duplicate list keys", "? [a]\n: 1\n? [a]\n: 2\n"),
        ("complex key", "? items\n: [{id: a}]\n"),
        ("list as a key", "items: [{id: a}]\n[x]: 1\n"),
        ("null forms", "items:\n  - id: a\n    label: ~\n    description: null\n    speech:\n"),
        ("empty quoted is text", "items:\n  - id: a\n    description: \"\"\n"),
        ("explicit tag", "items:\n  - id: !!str a\n    label: !!str 42\n"),
        ("local tag", "items:\n  - id: !x a\n"),
        ("numbers as text", "items:\n  - id: a\n    label: 0x1F\n  - id: b\n    label: 1e3\n  - id: c\n    label: yes\n"),
        ("unterminated double quote", "theme:\n  ring: \"#000000\n  hub: 1\n"),
        ("unterminated single quote", "items:\n  - id: 'a\n"),
        ("unclosed flow list", "items: [a\n"),
        ("unclosed flow map", "items: [{id: a\n"),
        ("bad indentation", "theme:\n  ring: 1\n bad: 2\n"),
        ("mapping in a plain value", "a: b: c\n"),
        ("block list after a value", "items: x\n  - id: a\n"),
        ("control character", "items:\n  - id: a\n    label: a\u{01}b\n"),
        ("DEL character", "items:\n  - id: a\n    label: a\u{7F}b\n"),
        ("C1 character quoted", "items:\n  - id: a\n    label: \"a\u{85}b\"\n"),
        ("invalid escape", "items:\n  - id: a\n    label: \"\\q\"\n"),
        ("alias as a key", "items:\n  - id: &k label\n    *k : Tea\n"),
        ("anchor on an empty value", "items:\n  - id: a\n    label: &e\n"),
        ("deep flow nesting", "items:\n  - id: a\n    command: " + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "\n"),
        ("long label", "items:\n  - id: a\n    label: " + String(repeating: "é", count: 300) + "\n"),
        ("indentation of four", "items:\n    -   id: a\n        label: Tea\n"),
        ("trailing spaces", "items:   \n  - id: a   \n    label: Tea   \n"),
        ("no newline at the end", "items:\n  - id: a"),
        ("reserved indicator", "items:\n  - id: a\n    label: @x\n"),
        ("backtick indicator", "items:\n  - id: a\n    label: `x\n"),
    ]

    /// The outcomes the Yams reader gave, case by case.
    static let expected: [String: String] = [
        "block map": "OK [a Tea RGBColor(r: 17, g: 34, b: 51)]",
        "flow map in a flow list": "OK [a Tea RGBColor(r: 17, g: 34, b: 51)]",
        "flow list of ids": "OK [a a RGBColor(r: 232, g: 184, b: 74); b b RGBColor(r: 74, g: 163, b: 232)]",
        "flow root": "OK [a Tea RGBColor(r: 232, g: 184, b: 74)] idle=5.0",
        "block list indented at the key": "OK [a Tea RGBColor(r: 232, g: 184, b: 74); b b RGBColor(r: 74, g: 163, b: 232)]",
        "anchor and alias of a scalar": "OK [a a RGBColor(r: 17, g: 34, b: 51); b b RGBColor(r: 17, g: 34, b: 51)]",
        "alias of a mapping": "f.yaml:1: accessibility.ring: unknown key; known keys: speech, voice, rate, volume, sound_cues, cue_volume, device, menu_speech, items_speech, activated_speech, back_speech",
        "alias of a command list": "OK [a a RGBColor(r: 232, g: 184, b: 74) cmd=/bin/echo|hi; b b RGBColor(r: 74, g: 163, b: 232) cmd=/bin/echo|hi]",
        "undefined alias": "f.yaml:3: YAML syntax error: found undefined alias",
        "anchor redefined": "OK [a One RGBColor(r: 232, g: 184, b: 74); b Two RGBColor(r: 74, g: 163, b: 232); c Two RGBColor(r: 107, g: 203, b: 119)]",
        "merge key": "f.yaml:1: base: unknown key; known keys: items, theme, physics, display, input, behaviour, power, mqtt, accessibility, remote, fleet, languages, text, lock",
        "single quoted with an escaped quote": "OK [a it's # not a comment RGBColor(r: 232, g: 184, b: 74)]",
        "double quoted escapes": "OK [a café A \"q\" RGBColor(r: 232, g: 184, b: 74)]",
        "double quoted NUL": "f.yaml:3: items[0].label: contains a NUL character (\\0), which no text value may",
        "double quoted tab escape": "f.yaml:3: items[0].label: contains the control character U+0009; expected plain text",
        "plain scalar with spaces and colon": "f.yaml:3: YAML syntax error: mapping values are not allowed in this context",
        "plain scalar with inner colon": "OK [a 10:30 tea RGBColor(r: 232, g: 184, b: 74)]",
        "plain scalar folded over lines": "OK [a a RGBColor(r: 232, g: 184, b: 74) desc=one two three]",
        "literal block": "f.yaml:3: items[0].description: expected a non-empty single-line text, got 'line one\\nline two\\n'",
        "folded block": "f.yaml:3: items[0].description: expected a non-empty single-line text, got 'line one line two\\n'",
        "literal block keep and strip": "f.yaml:6: items[1].description: expected a non-empty single-line text, got 'kept\\n\\n'",
        "Unicode labels": "OK [a Café ☕ RGBColor(r: 232, g: 184, b: 74); b 日本語 RGBColor(r: 74, g: 163, b: 232); c שלום RGBColor(r: 107, g: 203, b: 119)]",
        "Unicode escapes beyond the BMP": "OK [a 🍵 tea RGBColor(r: 232, g: 184, b: 74)]",
        "Unicode key": "f.yaml:3: items[0].lábel: unknown key (did you mean 'label'?); known keys: id, label, color, icon, command, timeout_seconds, items, speech, ring_speech, live, value, description, languages",
        "byte order mark": "OK [a a RGBColor(r: 232, g: 184, b: 74)]",
        "comments everywhere": "OK [a # kept RGBColor(r: 232, g: 184, b: 74)]",
        "hash without a space is text": "OK [a tea#1 RGBColor(r: 232, g: 184, b: 74)]",
        "document start": "OK [a a RGBColor(r: 232, g: 184, b: 74)]",
        "document start and end": "OK [a a RGBColor(r: 232, g: 184, b: 74)]",
        "two documents": "f.yaml:3: YAML syntax error: but found another document (expected a single document in the stream at line 1)",
        "YAML directive": "OK [a a RGBColor(r: 232, g: 184, b: 74)]",
        "unknown directive": "f.yaml:1: YAML syntax error: found unknown directive name (while scanning a directive at line 1)",
        "empty": "OK [pale-lager Pale lager RGBColor(r: 232, g: 184, b: 74); witbier Witbier RGBColor(r: 242, g: 209, b: 107); pilsner Pilsner RGBColor(r: 217, g: 164, b: 43); weissbier Weissbier RGBColor(r: 227, g: 194, b: 111); apa APA RGBColor(r: 224, g: 123, b: 57); ipa IPA RGBColor(r: 200, g: 85, b: 46); english-bitter English Bitter RGBColor(r: 179, g: 101, b: 43); dark-lager Dark lager RGBColor(r: 142, g: 74, b: 42); porter Porter RGBColor(r: 94, g: 53, b: 35); stout Stout RGBColor(r: 59, g: 36, b: 26)]",
        "comments only": "OK [pale-lager Pale lager RGBColor(r: 232, g: 184, b: 74); witbier Witbier RGBColor(r: 242, g: 209, b: 107); pilsner Pilsner RGBColor(r: 217, g: 164, b: 43); weissbier Weissbier RGBColor(r: 227, g: 194, b: 111); apa APA RGBColor(r: 224, g: 123, b: 57); ipa IPA RGBColor(r: 200, g: 85, b: 46); english-bitter English Bitter RGBColor(r: 179, g: 101, b: 43); dark-lager Dark lager RGBColor(r: 142, g: 74, b: 42); porter Porter RGBColor(r: 94, g: 53, b: 35); stout Stout RGBColor(r: 59, g: 36, b: 26)]",
        "document start only": "OK [pale-lager Pale lager RGBColor(r: 232, g: 184, b: 74); witbier Witbier RGBColor(r: 242, g: 209, b: 107); pilsner Pilsner RGBColor(r: 217, g: 164, b: 43); weissbier Weissbier RGBColor(r: 227, g: 194, b: 111); apa APA RGBColor(r: 224, g: 123, b: 57); ipa IPA RGBColor(r: 200, g: 85, b: 46); english-bitter English Bitter RGBColor(r: 179, g: 101, b: 43); dark-lager Dark lager RGBColor(r: 142, g: 74, b: 42); porter Porter RGBColor(r: 94, g: 53, b: 35); stout Stout RGBColor(r: 59, g: 36, b: 26)]",
        "null root": "f.yaml:1: expected a mapping of keys, got '~'",
        "scalar root": "f.yaml:1: expected a mapping of keys, got 'hello'",
        "list root": "f.yaml:1: expected a mapping of keys, got a list",
        "tab indentation": "f.yaml:2: YAML syntax error: found character that cannot start any token (while scanning for the next token at line 2)",
        "tab after indentation": "f.yaml:2: YAML syntax error: found character that cannot start any token (while scanning for the next token at line 2)",
        "tab inside a plain value": "f.yaml:3: items[0].label: contains the control character U+0009; expected plain text",
        "tab before a comment": "OK [a a RGBColor(r: 232, g: 184, b: 74)]",
        "CRLF line ends": "OK [a Tea RGBColor(r: 232, g: 184, b: 74)]",
        "CR only line ends": "OK [a a RGBColor(r: 232, g: 184, b: 74)]",
        "duplicate top-level key": "f.yaml:3: key 'theme' appears more than once in the same mapping",
        "duplicate item key": "f.yaml:3: key 'label' appears more than once in the same mapping",
        "duplicate key plain and quoted": "f.yaml:3: key 'label' appears more than once in the same mapping",
        "same text different tags": "f.yaml:3: 1: unknown key; known keys: items, theme, physics, display, input, behaviour, power, mqtt, accessibility, remote, fleet, languages, text, lock",
        "duplicate number keys": "f.yaml:3: key '1' appears more than once in the same mapping",
        "several duplicates": "f.yaml:2: key 'a', 'b' appears more than once in the same mapping",
        "duplicate in a flow mapping": "f.yaml:1: key 'id' appears more than once in the same mapping",
        "duplicate list keys": "f.yaml:1: key '<uncovertable>' appears more than once in the same mapping",
        "complex key": "OK [a a RGBColor(r: 232, g: 184, b: 74)]",
        "list as a key": "f.yaml:2: keys must be plain names, got a list",
        "null forms": "OK [a a RGBColor(r: 232, g: 184, b: 74)]",
        "empty quoted is text": "f.yaml:3: items[0].description: expected a non-empty single-line text, got ''",
        "explicit tag": "OK [a 42 RGBColor(r: 232, g: 184, b: 74)]",
        "local tag": "OK [a a RGBColor(r: 232, g: 184, b: 74)]",
        "numbers as text": "OK [a 0x1F RGBColor(r: 232, g: 184, b: 74); b 1e3 RGBColor(r: 74, g: 163, b: 232); c yes RGBColor(r: 107, g: 203, b: 119)]",
        "unterminated double quote": "f.yaml:4: YAML syntax error: found unexpected end of stream (while scanning a quoted scalar at line 2)",
        "unterminated single quote": "f.yaml:3: YAML syntax error: found unexpected end of stream (while scanning a quoted scalar at line 2)",
        "unclosed flow list": "f.yaml:2: YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at line 1)",
        "unclosed flow map": "f.yaml:2: YAML syntax error: did not find expected ',' or '}' (while parsing a flow mapping at line 1)",
        "bad indentation": "f.yaml:3: YAML syntax error: did not find expected key (while parsing a block mapping at line 1)",
        "mapping in a plain value": "f.yaml:1: YAML syntax error: mapping values are not allowed in this context",
        "block list after a value": "f.yaml:2: YAML syntax error: mapping values are not allowed in this context",
        "control character": "f.yaml:3: unreadable text: control characters are not allowed",
        "DEL character": "f.yaml:3: unreadable text: control characters are not allowed",
        "C1 character quoted": "OK [a a b RGBColor(r: 232, g: 184, b: 74)]",
        "invalid escape": "f.yaml:3: YAML syntax error: found unknown escape character (while parsing a quoted scalar at line 3)",
        "alias as a key": "OK [label Tea RGBColor(r: 232, g: 184, b: 74)]",
        "anchor on an empty value": "OK [a a RGBColor(r: 232, g: 184, b: 74)]",
        "deep flow nesting": "f.yaml:3: items[0].command[0]: expected a string, got a list",
        "long label": "f.yaml:3: items[0].label: at most 200 characters, got 300",
        "indentation of four": "OK [a Tea RGBColor(r: 232, g: 184, b: 74)]",
        "trailing spaces": "OK [a Tea RGBColor(r: 232, g: 184, b: 74)]",
        "no newline at the end": "OK [a a RGBColor(r: 232, g: 184, b: 74)]",
        "reserved indicator": "f.yaml:3: YAML syntax error: found character that cannot start any token (while scanning for the next token at line 3)",
        "backtick indicator": "f.yaml:3: YAML syntax error: found character that cannot start any token (while scanning for the next token at line 3)",
    ]

    @Test func everyFormReadsAsBefore() {
        var unexpected: [String] = []
        for (name, text) in Self.cases {
            let got = Self.outcome(text)
            if Self.expected[name] != got {
                unexpected.append("        \(EventLine.quote(name)): \(EventLine.quote(got)),")
            }
        }
        let report = "forms read differently (name: outcome):\n" + unexpected.joined(separator: "\n")
        #expect(unexpected.isEmpty, Comment(rawValue: report))
        #expect(Self.expected.count == Self.cases.count)
    }
}
