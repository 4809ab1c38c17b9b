import DialCore

/// One JSON object on one line, keys in the order given: the event format shared by `simulate`,
/// `run` and the control socket. Numbers print in their shortest exact form so a reader gets back
/// the same Double.
struct EventLine {
    enum Value {
        case number(Double)
        case int(Int)
        case string(String)
        case strings([String])
        case null
    }

    private(set) var fields: [(String, Value)] = []

    init(_ fields: [(String, Value)]) { self.fields = fields }

    var text: String {
        var out = "{"
        for (i, (key, value)) in fields.enumerated() {
            if i > 0 { out += ", " }
            out += Self.quote(key) + ": "
            switch value {
            case .number(let d): out += d.isFinite ? "\(d)" : "null"
            case .int(let n): out += "\(n)"
            case .string(let s): out += Self.quote(s)
            case .strings(let list): out += "[" + list.map(Self.quote).joined(separator: ", ") + "]"
            case .null: out += "null"
            }
        }
        return out + "}"
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
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
    static func dialEvent(_ event: DialEvent, menu: MenuTree, frames: Int) -> EventLine {
        func item(_ path: MenuPath) -> [(String, Value)] {
            let item = path.isBack ? MenuTree.backItem : menu.node(at: path)?.item
            return [("id", .string(item?.id ?? path.last ?? "")), ("label", .string(item?.label ?? "")),
                    ("path", .strings(path.ids))]
        }
        func head(_ t: Double, _ name: String) -> [(String, Value)] { [("t", .number(t)), ("event", .string(name))] }
        switch event {
        case .selected(let i, let path, let t):
            return EventLine(head(t, "selected") + [("index", i.map { .int($0) } ?? .null)] + item(path))
        case .activated(let i, let path, let t):
            return EventLine(head(t, "activated") + [("index", i.map { .int($0) } ?? .null)] + item(path))
        case .opened(let path, let t):
            return EventLine(head(t, "opened") + item(path))
        case .closed(let path, let t):
            return EventLine(head(t, "closed") + item(path))
        case .rest(let t, let rotation, let index):
            return EventLine([("event", .string("rest")), ("t", .number(t)), ("rotation", .number(rotation)),
                              ("index", index.map { .int($0) } ?? .null), ("frames", .int(frames))])
        }
    }
}
