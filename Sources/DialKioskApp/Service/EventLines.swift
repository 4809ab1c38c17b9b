import DialCore

/// What the kiosk tells the outside world, on stdout and to control-socket clients.
public enum KioskEvent: Sendable, Equatable {
    /// The dial is on screen (after the first flip).
    case started(time: Double, items: Int)
    /// A configuration was applied by SIGHUP or `reload`.
    case reloaded(time: Double, items: Int)
    /// The process is about to exit (`reason` such as "SIGTERM").
    case stopping(time: Double, reason: String)
    case selected(time: Double, index: Int)
    case activated(time: Double, index: Int)
    case rest(time: Double, rotation: Double, index: Int?)
    /// A control command could not be carried out (sent only to the client that sent it).
    case error(time: Double, message: String)

    /// The dial's own events in this vocabulary.
    public init(_ event: DialEvent) {
        switch event {
        case let .selected(index, time): self = .selected(time: time, index: index)
        case let .activated(index, time): self = .activated(time: time, index: index)
        case let .rest(time, rotation, index): self = .rest(time: time, rotation: rotation, index: index)
        }
    }
}

/// JSON Lines for `KioskEvent`s, one object per line with a fixed key order:
/// `{"t": 1.234, "event": "selected", "index": 3, "id": "ipa", "label": "IPA"}`.
/// `simulate`, stdout and the control socket share it, so a consumer parses one shape.
public struct EventLineEncoder: Sendable {
    /// The menu the indices refer to (ids and labels are looked up here).
    public var items: [MenuItem]

    public init(items: [MenuItem]) {
        self.items = items
    }

    /// The line for `event`, ending in "\n".
    public func line(_ event: KioskEvent) -> String {
        var fields: [(String, String)]
        switch event {
        case let .started(time, count):
            fields = [("t", Self.fixed(time, 3)), ("event", Self.quoted("started")), ("items", String(count))]
        case let .reloaded(time, count):
            fields = [("t", Self.fixed(time, 3)), ("event", Self.quoted("reloaded")), ("items", String(count))]
        case let .stopping(time, reason):
            fields = [("t", Self.fixed(time, 3)), ("event", Self.quoted("stopping")), ("reason", Self.quoted(reason))]
        case let .selected(time, index):
            fields = [("t", Self.fixed(time, 3)), ("event", Self.quoted("selected"))] + itemFields(index)
        case let .activated(time, index):
            fields = [("t", Self.fixed(time, 3)), ("event", Self.quoted("activated"))] + itemFields(index)
        case let .rest(time, rotation, index):
            fields = [("t", Self.fixed(time, 3)), ("event", Self.quoted("rest")), ("rotation", Self.fixed(rotation, 4))]
            fields += index.map(itemFields) ?? [("index", "null")]
        case let .error(time, message):
            fields = [("t", Self.fixed(time, 3)), ("event", Self.quoted("error")), ("message", Self.quoted(message))]
        }
        return "{" + fields.map { Self.quoted($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}\n"
    }

    public func line(_ event: DialEvent) -> String { line(KioskEvent(event)) }

    private func itemFields(_ index: Int) -> [(String, String)] {
        var fields = [("index", String(index))]
        if items.indices.contains(index) {
            fields.append(("id", Self.quoted(items[index].id)))
            fields.append(("label", Self.quoted(items[index].label)))
        }
        return fields
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
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

    /// `value` with exactly `decimals` digits after the point; JSON has no NaN, so non-finite is null.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9.0e15 else { return String(value) }  // beyond exact integers: let Swift print it
        let units = UInt64(scaled)
        let whole = units / UInt64(scale)
        let fraction = String(units % UInt64(scale))
        let sign = value < 0 && units != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
