import DialCore
import KioskSeams
import KioskVocabulary

/// One JSON object on one line, keys in the order given: the program's one JSON writer, for the
/// event lines of `simulate`, `run` and the control socket, `list-inputs --watch` and `bench --json`. One
/// spacing (`{"key": value, "key": value}`); every string, keys included, is escaped; numbers
/// print in their shortest exact form so a reader gets back the same Double.
package struct EventLine {
    package enum Value {
        case number(Double)
        case int(Int)
        case string(String)
        /// An event's name (the `"event"` key's value), written as its string.
        case event(EventName)
        /// An array of strings, such as an item's path from the top menu: `["drinks", "coffee"]`.
        case strings([String])
        case ints([Int])
        case bool(Bool)
        /// A nested object, keys in the order given. (A line of its own rather than a list of
        /// pairs: Swift 6.0.3 rejects an indirect enum holding tuples of itself as a circular
        /// reference.)
        case object(EventLine)
        case null
    }

    package private(set) var fields: [(String, Value)] = []

    package init(_ fields: [(String, Value)]) { self.fields = fields }

    package var text: String { Self.object(fields) }

    private static func object(_ fields: [(String, Value)]) -> String {
        "{" + fields.map { key, value in quote(key) + ": " + json(value) }.joined(separator: ", ") + "}"
    }

    private static func json(_ value: Value) -> String {
        switch value {
        case .number(let d): return shortestExact(d)
        case .int(let n): return "\(n)"
        case .string(let s): return quote(s)
        case .event(let name): return quote(name.rawValue)
        case .strings(let list): return "[" + list.map(quote).joined(separator: ", ") + "]"
        case .ints(let list): return "[" + list.map { "\($0)" }.joined(separator: ", ") + "]"
        case .bool(let b): return b ? "true" : "false"
        case .object(let line): return line.text
        case .null: return "null"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters (C0 and DEL) escaped.
    package static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The line for a dial event; `frames` is added to `rest` events. `selected` and
    /// `activated` name the item by its index in its ring (null for a back item), id, label and
    /// path; `opened` and `closed` name the item whose ring it is.
    package static func dialEvent(_ event: DialEvent, menu: MenuTree, frames: Int) -> EventLine {
        func item(_ path: MenuPath) -> [(String, Value)] {
            let item = path.isBack ? MenuTree.backItem : menu.node(at: path)?.item
            return [("id", .string(item?.id ?? path.last ?? "")), ("label", .string(item?.label ?? "")),
                    ("path", .strings(path.ids))]
        }
        func head(_ t: Double, _ name: EventName) -> [(String, Value)] { [("t", .number(t)), ("event", .event(name))] }
        switch event {
        case .selected(let i, let path, let t):
            return EventLine(head(t, .selected) + [("index", i.map { .int($0) } ?? .null)] + item(path))
        case .activated(let i, let path, let t):
            return EventLine(head(t, .activated) + [("index", i.map { .int($0) } ?? .null)] + item(path))
        case .opened(let path, let t):
            return EventLine(head(t, .opened) + item(path))
        case .closed(let path, let t):
            return EventLine(head(t, .closed) + item(path))
        case .rest(let t, let rotation, let index):
            return EventLine([("event", .event(.rest)), ("t", .number(t)), ("rotation", .number(rotation)),
                              ("index", index.map { .int($0) } ?? .null), ("frames", .int(frames))])
        case .value(let news):
            return valueDialEvent(news)
        }
    }

    /// A value dial's line: `opened` and `closed` with the item's id, label and path (and the
    /// value shown on opening), `value` with its phase. Events without a line
    /// (`ValueDialEvent.hasLine`) get one only for the log.
    package static func valueDialEvent(_ event: ValueDialEvent) -> EventLine {
        func head(_ t: Double, _ name: EventName) -> [(String, Value)] { [("t", .number(t)), ("event", .event(name))] }
        switch event {
        case .opened(let path, let id, let label, let value, let t):
            return EventLine(head(t, .opened) + [("id", .string(id)), ("label", .string(label)), ("path", .strings(path.ids)),
                                                  ("value", .number(value))])
        case .closed(let path, let id, let label, let t):
            return EventLine(head(t, .closed) + [("id", .string(id)), ("label", .string(label)), ("path", .strings(path.ids))])
        case .output(let output, let path, let id, let t):
            let phase: String, v: Double
            switch output {
            case .changing(let x): (phase, v) = ("changing", x)
            case .committed(let x): (phase, v) = ("committed", x)
            case .confirmed(let x): (phase, v) = ("confirmed", x)
            case .external(let x): (phase, v) = ("external", x)
            case .rest(let x): (phase, v) = ("rest", x)
            case .clamped(_, let x): (phase, v) = ("clamped", x)
            case .stop(let atMaximum): (phase, v) = ("stop", atMaximum ? 1 : 0)
            }
            return EventLine(head(t, .value) + [("phase", .string(phase)), ("value", .number(v)), ("id", .string(id)),
                                                 ("path", .strings(path.ids))])
        case .heldBack(let path, let t):
            return EventLine(head(t, .value) + [("phase", .string("held_back")), ("path", .strings(path.ids))])
        }
    }
}
