import DialCore

extension ControlLine {
    /// Live text longer than this is cut (a badge shows a few words; the line limit of the
    /// socket and MQTT's payload bound come first).
    package static let liveTextCharacters = 200

    /// `set <path> text <rest of the line>`, `set <path> available true|false`,
    /// `set <path> value <number>` (`turn <n>` is an `IntegerArgument` of the vocabulary).
    static func parseLive<S: StringProtocol>(_ line: S, verb: String, arguments: [String]) -> ControlLine {
        let usage = "set needs a path and text <text>, available true|false or value <number>"
        guard arguments.count >= 2 else { return .invalid(usage) }
        guard let path = MenuPath(parsing: String(arguments[0])), path.ids.allSatisfy(VocabularyWords.isItemID) else {
            return .invalid("'\(arguments[0].prefix(64))' is not an item id or path")
        }
        switch arguments[1] {
        case "text":
            return .command(.setItem(path: path, change: .text(restOfLine(line, afterWords: 3))))
        case "available":
            guard arguments.count == 3, let available = parseBool(arguments[2]) else {
                return .invalid("set \(path) available needs true or false")
            }
            return .command(.setItem(path: path, change: .available(available)))
        case "value":
            guard arguments.count == 3, let value = Double(arguments[2]), value.isFinite else {
                return .invalid("set \(path) value needs a number, got '\(arguments.dropFirst(2).joined(separator: " ").prefix(64))'")
            }
            return .command(.setItem(path: path, change: .value(value)))
        default:
            return .invalid(usage)
        }
    }

    /// true/false, on/off, online/offline (the payloads devices use for availability).
    package static func parseBool<S: StringProtocol>(_ word: S) -> Bool? {
        switch word.lowercased() {
        case "true", "on", "online", "1", "yes": return true
        case "false", "off", "offline", "0", "no": return false
        default: return nil
        }
    }

    /// The line after its first `count` words, spaces inside kept, ends trimmed; nil when empty
    /// (`set a text` clears the text). Control characters become spaces.
    static func restOfLine<S: StringProtocol>(_ line: S, afterWords count: Int) -> String? {
        var rest = Substring(line)
        for _ in 0..<count {
            while let c = rest.first, c == " " || c == "\t" { rest = rest.dropFirst() }
            while let c = rest.first, c != " " && c != "\t" { rest = rest.dropFirst() }
        }
        let text = liveText(String(rest))
        return text.isEmpty ? nil : text
    }

    /// Text as an item shows it: control characters as spaces, trimmed, at most
    /// `liveTextCharacters` characters.
    package static func liveText(_ raw: String) -> String {
        let cleaned = String(String.UnicodeScalarView(raw.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
        return String(cleaned.trimmingWhitespace().prefix(liveTextCharacters))
    }
}
