import DialCore
import KioskVocabulary

/// The limits of a configuration file. Each keeps the work of a parse or a reload, and of
/// painting what the file says, bounded: a hand-written menu is far inside all of them.
package enum ConfigLimits {
    /// Bytes of the whole file (256 KiB): a hand-edited file is a few kilobytes, and a reload
    /// parses inside the frame loop, where a file four times the bound took most of a second
    /// to parse (docs/measurements.md).
    package static let fileBytes = 256 << 10
    /// Items on the dial: at 64 the discs at rest are already small on a 1920x1080 panel; more
    /// cannot be told apart or read.
    package static let items = 64
    /// Items in all the rings of a nested menu together: every ring's labels and icons are
    /// prepared at start and at each reload, so the whole tree, not only a ring, must stay small.
    package static let totalItems = 512
    /// Unicode code points of a label: two lines' worth at the largest size; the painter fits
    /// what is shown in the item's disc.
    package static let labelCharacters = 200
    /// UTF-8 bytes of a path or a name (font, icon, device, connector, seat): PATH_MAX.
    package static let nameBytes = 4096
    /// Program and arguments of an item's command, and the UTF-8 bytes of each.
    package static let commandArguments = 256
    package static let argumentBytes = 4096

    /// Refuses a file of `byteCount` bytes (for a caller that knows the size before reading,
    /// from fstat, and for the parser, which sees the text).
    package static func checkFileSize(_ byteCount: Int, file: String) throws {
        guard byteCount <= fileBytes else {
            throw ConfigError(file: file, line: nil, key: nil,
                              message: "\(byteCount) bytes, larger than \(fileBytes >> 10) KiB; is this the right file?")
        }
    }

    /// The first control character (C0, DEL, C1) of `text`, with the ones `allowed` skipped.
    package static func controlCharacter(in text: String, allowing allowed: Set<Unicode.Scalar> = []) -> Unicode.Scalar? {
        text.unicodeScalars.first { $0.properties.generalCategory == .control && !allowed.contains($0) }
    }
}

/// Parsers for the configuration's textual value forms. Each returns nil for text it does not
/// accept; the caller words the error, because it knows the key and the line.
package enum ConfigValues {
    /// `#RRGGBB` (exactly six hex digits after the hash).
    package static func color(_ text: String) -> RGBColor? {
        let digits = text.utf8
        guard digits.count == 7, digits.first == UInt8(ascii: "#") else { return nil }
        guard let value = UInt32(text.dropFirst(), radix: 16) else { return nil }
        return RGBColor(hex: value)
    }

    /// A finite decimal number (YAML's plain forms: `1`, `0.92`, `-3`, `1e-3`); no hex, no inf/nan.
    package static func number(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ isNumberByte($0) }) else { return nil }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// YAML 1.1's booleans as people type them.
    package static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    /// An item id: letters, digits, `-`, `_`, `.`; it travels in `select <id>` lines and
    /// environment variables, so no spaces or control characters.
    /// The rule is the control vocabulary's, which the socket and MQTT parsers check too.
    package static func isValidID(_ text: String) -> Bool { VocabularyWords.isItemID(text) }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E")
    }
}

/// The closest known key to a misspelt one, for "did you mean" hints (Levenshtein distance <= 2).
package enum KeySuggestion {
    package static func closest(to key: String, among known: [String]) -> String? {
        let scored = known.map { ($0, distance(Array(key.lowercased().utf8), Array($0.utf8))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.1 < key.utf8.count else { return nil }
        return best.0
    }

    package static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
