import Testing
@testable import KioskVocabulary
import DialCore

/// Every verb of the vocabulary, on the socket grammar and on its MQTT payloads, with extreme
/// numbers: never a crash; a refusal with a message, or a command whose numbers are in the
/// verb's declared range.
@Suite struct NumericArgumentPropertyTests {
    static let extremes: [String] = [
        "\(Int.min)", "\(Int.max)", "-9223372036854775809", "9223372036854775808", "0", "-0", "+0", "1", "-1",
        "1000", "1001", "-1000", "-1001", "100", "101", "1e308", "-1e308", "1e-320", "-1e-320", "5e-324", "1e309",
        "NaN", "nan", "-nan", "inf", "-inf", "Infinity", "-Infinity", "0x10", "1.5", "+5", "--1", "-",
        String(repeating: "9", count: 400), "-" + String(repeating: "9", count: 400), "0." + String(repeating: "0", count: 400) + "1",
        "18446744073709551615", "18446744073709551616",
    ]

    /// The command's numbers are those its verb allows.
    static func inRange(_ command: ControlCommand) -> Bool {
        switch command {
        case .turn(let n): return n != 0 && (-1000...1000).contains(n)
        case .brightness(let p): return (0...100).contains(p)
        case .confirmConfig(let serial): return serial.map { $0 > 0 } ?? true
        case .setItem(_, .value(let v)), .setItem(_, .current(let v)): return v.isFinite
        default: return true
        }
    }

    static func lines(for verb: ControlVerb, _ x: String) -> [String] {
        switch verb.name {
        case "set": return ["set a value \(x)", "set a/b value \(x)", "set a available \(x)", "set a text \(x)", "set \(x) value 1"]
        case "select": return ["select \(x)", "select a/\(x)"]
        default: return ["\(verb.name) \(x)", "\(verb.name) \(x) \(x)", "\(verb.name)\t\(x)"]
        }
    }

    @Test func theSocketGrammarRefusesOrStaysInRange() {
        var checked = 0
        for verb in ControlVocabulary.verbs where verb.socket != nil {
            for x in Self.extremes {
                for line in Self.lines(for: verb, x) {
                    switch ControlLine.parse(line) {
                    case .command(let command): #expect(Self.inRange(command), "\(line) -> \(command)")
                    case .invalid(let message): #expect(!message.isEmpty && !message.contains("\n"), "\(line)")
                    case .blank: Issue.record("\(line) read as blank")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 400)
    }

    @Test func mqttPayloadsRefuseOrStayInRange() {
        for (_, input) in ControlVocabulary.mqttInputs where input.isCommand {
            for x in Self.extremes + Self.extremes.map({ " \($0)\n" }) {
                switch MQTTCommand.parse(name: input.topic, payload: x) {
                case .success(let command): #expect(Self.inRange(command), "set/\(input.topic) \(x) -> \(command)")
                case .failure(let error): #expect(!error.description.isEmpty, "set/\(input.topic) \(x)")
                }
            }
        }
    }

    /// The reproduction: the argument check computed abs(Int.min), which traps.
    @Test func turnWithTheSmallestIntIsRefusedWithItsRange() {
        #expect(ControlLine.parse("turn -9223372036854775808")
                == .invalid("turn needs a whole number of detents from -1000 to 1000, not 0, got '-9223372036854775808'"))
        #expect(ControlLine.parse("turn 1000") == .command(.turn(1000)))
        #expect(ControlLine.parse("turn -1000") == .command(.turn(-1000)))
        #expect(ControlLine.parse("brightness -0") == .invalid("brightness needs a whole number from 0 to 100, got '-0'"))
        #expect(ControlLine.parse("turn -0") == .invalid("turn needs a whole number of detents from -1000 to 1000, not 0, got '-0'"))
        #expect(ControlLine.parse("brightness 9223372036854775807")
                == .invalid("brightness needs a whole number from 0 to 100, got '9223372036854775807'"))
    }

    /// Leading white space is trimmed and tabs separate words like spaces, so `" select x"`
    /// and `"select\tx"` are the command `select x`.
    @Test func leadingWhiteSpaceAndTabs() {
        #expect(ControlLine.parse(" select x") == .command(.select(path: ["x"])))
        #expect(ControlLine.parse("\t select\tx") == .command(.select(path: ["x"])))
        #expect(ControlLine.parse("select\tx\t") == .command(.select(path: ["x"])))
        #expect(ControlLine.parse(" turn\t-3") == .command(.turn(-3)))
        #expect(ControlLine.parse("\tset a\ttext  two  words") == .command(.setItem(path: ["a"], change: .text("two  words"))))
    }
}
