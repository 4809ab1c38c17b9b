import DialCore
import Foundation

/// The touch script format of `dialkiosk simulate`: JSON Lines, one sample per line,
/// `{"t": 0.016, "type": "down"|"motion"|"up"|"cancel", "x": 400, "y": 120, "slot": 0}`
/// (t in seconds, x/y in screen pixels, slot optional, default 0). Blank lines and lines whose
/// first non-blank character is `#` are skipped.
enum TouchScript {
    static let keys: Set<String> = ["t", "type", "x", "y", "slot"]

    /// Parses the whole script before anything runs; the first malformed line is an error
    /// naming `source` and the line number.
    static func parse(_ text: String, source: String) throws -> [TouchEvent] {
        var events: [TouchEvent] = []
        var lineNumber = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            func fail(_ why: String) -> ScriptError { ScriptError(source: source, line: lineNumber, message: why) }
            let dict: [String: JSONScalar]
            do {
                dict = try JSONDecoder().decode([String: JSONScalar].self, from: Data(line.utf8))
            } catch {
                throw fail("expected one JSON object of numbers and strings, like "
                    + "{\"t\": 0.016, \"type\": \"down\", \"x\": 400, \"y\": 120}")
            }
            if let unknown = dict.keys.sorted().first(where: { !keys.contains($0) }) {
                throw fail("unknown key '\(unknown)' (expected t, type, x, y, slot)")
            }
            func number(_ key: String) throws -> Double {
                guard let value = dict[key] else { throw fail("missing key '\(key)'") }
                guard case .number(let d) = value else { throw fail("'\(key)' must be a number, got \(value)") }
                guard d.isFinite else { throw fail("'\(key)' must be finite") }
                return d
            }
            guard let typeName = dict["type"] else { throw fail("missing key 'type'") }
            guard case .string(let s) = typeName, let phase = TouchPhase(rawValue: s), phase != .frame else {
                throw fail("'type' must be one of down, motion, up, cancel, got \(typeName)")
            }
            let t = try number("t")
            guard t >= 0 else { throw fail("'t' must not be negative, got \(t)") }
            let x = try number("x"), y = try number("y")
            var slot = 0
            if dict["slot"] != nil {
                let s = try number("slot")
                guard s >= 0, s < 64, s == s.rounded() else {
                    throw fail("'slot' must be a whole number from 0 to 63, got \(s)")
                }
                slot = Int(s)
            }
            events.append(TouchEvent(slot: slot, phase: phase, x: x, y: y, time: t))
        }
        return events
    }
}

/// A JSON value that may stand in a touch script line.
enum JSONScalar: Decodable, CustomStringConvertible {
    case number(Double), string(String), bool(Bool), null

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else { self = .string(try c.decode(String.self)) }
    }

    var description: String {
        switch self {
        case .number(let d): return "\(d)"
        case .string(let s): return "'\(s)'"
        case .bool(let b): return "\(b)"
        case .null: return "null"
        }
    }
}

/// A malformed touch script line: exit status 65.
struct ScriptError: ReportableError {
    var source: String
    var line: Int
    var message: String
    var exitStatus: ExitStatus { .dataError }
    var description: String { "\(source):\(line): \(message)" }
}
