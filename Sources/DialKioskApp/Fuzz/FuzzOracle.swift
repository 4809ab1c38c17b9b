import DialCore
import InputRecording
import KioskConfiguration
import KioskJSON

/// What must hold for any bytes fed to the two parsers that read files people hand us: the
/// configuration and `libinput record` captures. Parsing either succeeds with finite values or
/// throws the parser's own error as one located line; anything else (a crash, another error
/// type, a message without a place, a NaN) is a finding.
package enum FuzzTarget: String, CaseIterable, Sendable {
    case config
    case record
    /// The JSON reader of live payloads and touch script lines.
    case json
}

package enum FuzzOracle {
    /// The file name errors are reported against.
    static let fileName = "fuzz.yaml"

    /// Nil when `bytes` were handled as promised; otherwise what went wrong.
    package static func check(_ target: FuzzTarget, _ bytes: [UInt8]) -> String? {
        // The JSON reader checks UTF-8 itself, with the offset of the first bad byte.
        if target == .json { return checkJSON(bytes) }
        // Both readers take UTF-8 text; ConfigLoader rejects other bytes with a located error
        // before parsing, which `firstInvalidLine` covers.
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let line = ConfigLoader.firstInvalidLine(bytes)
            return line >= 1 ? nil : "invalid UTF-8 not located"
        }
        switch target {
        case .config: return checkConfig(text)
        case .record: return checkRecord(text)
        case .json: return checkJSON(bytes)
        }
    }

    static func checkConfig(_ text: String) -> String? {
        do {
            return checkAccepted(try ConfigParser.parse(text, file: fileName))
        } catch let error as ConfigError {
            let line = error.description
            if line.contains("\n") { return "error spans lines: \(line.debugDescription)" }
            guard error.exitStatus == .config, error.line != nil,
                  // Bytes, not characters: a key that starts with a combining mark joins the
                  // space before it into one Character, and hasPrefix would miss the place.
                  line.utf8.starts(with: "\(fileName):\(error.line!): ".utf8) else {
                return "error not located: \(line)"
            }
            return nil
        } catch {
            return "unexpected error type \(type(of: error)): \(error)"
        }
    }

    /// What an accepted configuration must respect: the physics' ranges and the limits that
    /// keep painting and reloading bounded, with no NUL in any text.
    static func checkAccepted(_ config: KioskConfig) -> String? {
        if config.items.isEmpty { return "accepted a menu with no items" }
        if config.items.count > ConfigLimits.items { return "accepted \(config.items.count) items" }
        let menu = config.menu, all = menu.everyItem.map(\.item)
        if all.count > ConfigLimits.totalItems { return "accepted \(all.count) items in all rings" }
        if let ring = menu.ringPaths.first(where: { (menu.slots(ofRing: $0)?.count ?? 0) > ConfigLimits.items }) {
            return "accepted ring '\(ring)' with more than \(ConfigLimits.items) slots"
        }
        if let problem = MenuTree.problems(in: menu.top).first { return "accepted a broken menu: \(problem)" }
        let p = config.physics
        guard p.motion.decayPerFrame60 > 0, p.motion.decayPerFrame60 < 1, p.motion.minFlingSpeed.isFinite,
              p.inflate.minScale.isFinite, p.inflate.maxScale.isFinite else {
            return "accepted physics out of range: \(p)"
        }
        if let item = all.first(where: { $0.label.unicodeScalars.count > ConfigLimits.labelCharacters }) {
            return "accepted a label of \(item.label.unicodeScalars.count) characters"
        }
        var texts = all.flatMap { [$0.id, $0.label] + ($0.command ?? []) + [$0.iconPath ?? ""] }
        texts += [config.theme.fontName, config.theme.hubFontName]
        texts += [config.display.device ?? "", config.display.connector ?? "", config.input.seat]
        if let text = texts.first(where: { $0.unicodeScalars.contains("\0") }) {
            return "accepted a NUL in \(text.debugDescription)"
        }
        return nil
    }

    static func checkRecord(_ text: String) -> String? {
        do {
            let events = try parseLibinputRecord(yaml: text, screenWidth: 800, screenHeight: 480)
            if let bad = events.first(where: { !($0.x.isFinite && $0.y.isFinite && $0.time.isFinite) }) {
                return "non-finite touch \(bad)"
            }
            return nil
        } catch let error as LibinputRecordError {
            let line = error.description
            if line.contains("\n") { return "error spans lines: \(line.debugDescription)" }
            if error.line == nil && error.path.isEmpty && !line.contains("empty") { return "error not located: \(line)" }
            return nil
        } catch {
            return "unexpected error type \(type(of: error)): \(error)"
        }
    }
}

/// The JSON reader's promise: bytes are a value or a refusal at an offset inside them, with a
/// one-line message; a value, written out again, reads back as itself.
extension FuzzOracle {
    static func checkJSON(_ bytes: [UInt8]) -> String? {
        switch JSONReader.parse(bytes) {
        case .failure(let error):
            if error.offset < 0 || error.offset > max(bytes.count, JSONLimits.standard.maximumBytes) {
                return "error offset \(error.offset) outside \(bytes.count) bytes"
            }
            if error.message.isEmpty || error.description.contains("\n") { return "error not one line: \(error.description.debugDescription)" }
            return nil
        case .success(let value):
            let again = JSONReader.parse(Array(written(value).utf8))
            guard case .success(let reread) = again else { return "its own writing refused: \(again)" }
            return reread == value ? nil : "read back differently"
        }
    }

    /// `value` as JSON text, every string fully escaped (the oracle's own writer).
    static func written(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n.text
        case .string(let s): return quoted(s)
        case .array(let items): return "[" + items.map(written).joined(separator: ",") + "]"
        case .object(let o): return "{" + o.members.map { quoted($0.key) + ":" + written($0.value) }.joined(separator: ",") + "}"
        }
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for unit in s.utf16 {
            let digits = String(unit, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        return out + "\""
    }
}
