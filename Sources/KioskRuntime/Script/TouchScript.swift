import DialCore
import KioskSeams
import LinuxSystem
import KioskReporting

/// The touch script format of `dialkiosk simulate`: JSON Lines, one sample per line,
/// `{"t": 0.016, "type": "down"|"motion"|"up"|"cancel", "x": 400, "y": 120, "slot": 0}`
/// (t in seconds, x/y in screen pixels, slot optional, default 0). Blank lines and lines whose
/// first non-blank character is `#` are skipped; lines end with LF or CRLF.
package enum TouchScript {
    static let keys: Set<String> = ["t", "type", "x", "y", "slot"]

    /// Parses a whole script held in memory; the first malformed line is an error naming
    /// `source` and the line number.
    static func parse(_ text: String, source: String) throws -> [TouchEvent] {
        var reader = Reader(lines: LineReader(bytes: Array(text.utf8)), source: source)
        var events: [TouchEvent] = []
        while let event = try reader.next() { events.append(event) }
        return events
    }

    /// The sample on one line; nil for a blank or comment line.
    static func sample(_ raw: LineReader.Line, source: String) throws -> TouchEvent? {
        let first = raw.bytes.first { !FlatJSON.isSpace($0) }
        if first == nil || first == UInt8(ascii: "#") { return nil }
        func fail(_ why: String) -> ScriptError { ScriptError(source: source, line: raw.number, message: why) }
        let dict: [String: JSONScalar]
        switch FlatJSON.read(raw.bytes) {
        case .success(let read): dict = read
        case .failure(let why):
            throw fail("expected one JSON object of numbers and strings, like "
                + "{\"t\": 0.016, \"type\": \"down\", \"x\": 400, \"y\": 120} (\(why))")
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
        // The frame clock runs to 1e9 s (about 31 years); a later time is no recording.
        guard t <= VirtualTime.maximumSeconds else { throw fail("'t' must be at most 1e9 (seconds), got \(t)") }
        let x = try number("x"), y = try number("y")
        var slot = 0
        if dict["slot"] != nil {
            let s = try number("slot")
            guard s >= 0, s < 64, s == s.rounded() else {
                throw fail("'slot' must be a whole number from 0 to 63, got \(s)")
            }
            slot = Int(s)
        }
        return TouchEvent(slot: slot, phase: phase, x: x, y: y, time: t)
    }

    /// Reads a script line by line: memory stays flat in its length, and a line longer than
    /// 64 KiB (`/dev/zero`, a binary file) is a located error as soon as that much arrived.
    struct Reader {
        var lines: LineReader
        let source: String

        init(lines: LineReader, source: String) {
            self.lines = lines
            self.source = source
        }

        /// The next sample; nil at the end of the script.
        mutating func next() throws -> TouchEvent? {
            while true {
                let line: LineReader.Line
                do {
                    guard let next = try lines.next() else { return nil }
                    line = next
                } catch LineReader.Failure.tooLong(let number, let limit) {
                    throw ScriptError(source: source, line: number,
                                      message: "longer than \(limit) bytes; expected one touch sample per line")
                } catch LineReader.Failure.read(_, let code) {
                    throw CommandFailure("\(source): cannot read: \(code)", status: .noInput)
                }
                if let event = try TouchScript.sample(line, source: source) { return event }
            }
        }
    }
}

/// A malformed touch script line: exit status 65.
package struct ScriptError: ReportableError {
    var source: String
    var line: Int
    var message: String
    package var exitStatus: ExitStatus { .dataError }
    /// One line: newlines, NULs and other control characters of the source name or of a value
    /// quoted in the message are escaped.
    package var description: String { "\(source):\(line): \(message)".oneLine() }
}
