/// Every JSON event line the program writes (`{"t": ..., "event": "selected", ...}`): its name
/// (an `EventName`), its fields in order, and who writes it. Home Assistant's event entity takes
/// its `event_types` from here, `--help` its lists of events, and tests check the writers and
/// docs/reference.md's event table against it. A new event is an `EventName` case and a row here.
package enum EventVocabulary {
    package static let events: [EventKind] = [
        EventKind(.started, ["t", "event", "items"], help: "the dial is on the glass (after the first flip)", homeAssistant: true),
        EventKind(.selected, ["t", "event", "index", "id", "label", "path"],
                  help: "an item came to rest at the top (`index` null for a back item)", from: .runAndSimulate, homeAssistant: true),
        EventKind(.activated, ["t", "event", "index", "id", "label", "path"],
                  help: "the selected item was activated (hub tap, Enter, `activate`)", from: .runAndSimulate, homeAssistant: true),
        EventKind(.opened, ["t", "event", "id", "label", "path"], sometimes: ["value"],
                  help: "an item's ring opened, or its value dial (with its `value`)", from: .runAndSimulate, homeAssistant: true),
        EventKind(.closed, ["t", "event", "id", "label", "path"],
                  help: "an item's ring or value dial closed", from: .runAndSimulate, homeAssistant: true),
        EventKind(.reloaded, ["t", "event", "items"], help: "a configuration was applied (SIGHUP, `reload`, a pushed one)", homeAssistant: true),
        EventKind(.stopping, ["t", "event", "reason"], help: "the program is about to exit", homeAssistant: true),
        EventKind(.rest, ["event", "t", "rotation", "index", "frames"],
                  help: "the ring stopped moving, after `frames` frames", from: .runAndSimulate, homeAssistant: true),
        EventKind(.error, ["t", "event", "message"], help: "a control command could not be carried out (to its client only)",
                  homeAssistant: true),
        EventKind(.language, ["t", "event", "code"], help: "texts are shown and spoken in this language from now on", homeAssistant: true),
        EventKind(.power, ["t", "event", "state", "reason", "detail"], help: "the screen went on, dim or off, and why",
                  homeAssistant: true),
        EventKind(.refused, ["t", "event", "reason", "id", "path"], help: "an unavailable item was activated; nothing ran"),
        EventKind(.value, ["t", "event", "phase", "value", "id", "path"], help: "a value dial's value changing or committed"),
        EventKind(.item, ["t", "event", "path", "id", "text", "available"], sometimes: ["value", "current", "age_minutes"],
                  help: "an item's live state changed (`age_minutes`: how old it is while the broker is away)"),
        EventKind(.config, ["t", "event", "serial", "status", "reason"], help: "a pushed configuration's status changed"),
        EventKind(.viewer, ["t", "event", "state", "peer", "input"], help: "a remote viewer connected or disconnected"),
        EventKind(.screenshot, ["t", "event", "path", "width", "height", "sha256"],
                  help: "a screenshot was written (to the client that asked for it only)"),
        EventKind(.unfinished, ["t", "event", "reason", "frames"], help: "the simulation stopped with the ring still moving",
                  from: .simulate),
        EventKind(.watching, ["t", "event", "seat"], help: "the seat's devices are open", from: .listInputs),
        EventKind(.touch, ["t", "event", "slot", "phase", "x", "y", "time"], help: "a finger's sample", from: .listInputs),
        EventKind(.command, ["t", "event", "command"], sometimes: ["by", "speech", "time"], help: "a key or wheel command", from: .listInputs),
    ]

    /// The row of the event a line names (nil: no event of the vocabulary).
    package static func event(_ name: String) -> EventKind? { EventName(rawValue: name).map { event($0) } }

    /// The row of `name`; every `EventName` has one (a test checks).
    package static func event(_ name: EventName) -> EventKind {
        guard let kind = events.first(where: { $0.event == name }) else { preconditionFailure("EventVocabulary has no row for \(name)") }
        return kind
    }

    /// The names of the events `command` writes, in the table's order ("started, selected, ..."),
    /// for its `--help`.
    package static func names(writtenBy command: EventKind.Source) -> String {
        events.filter { $0.from.writers.contains(command) }.map(\.name).joined(separator: ", ")
    }

    /// Home Assistant's event entity's `event_types`.
    package static var homeAssistantTypes: [String] { events.filter(\.homeAssistant).map(\.name) }
}

/// One event line's shape.
package struct EventKind: Sendable, Equatable {
    /// Which output carries it.
    package enum Source: String, Sendable {
        /// `run`'s standard output, the control socket's clients and `<base>/event`.
        case run = "run"
        /// `run` and `simulate` alike.
        case runAndSimulate = "run, simulate"
        case simulate = "simulate"
        case listInputs = "list-inputs --watch"

        /// The commands that write such a line (`run`, `simulate` or `list-inputs --watch`).
        package var writers: [Source] {
            switch self {
            case .runAndSimulate: return [.run, .simulate]
            default: return [self]
            }
        }
    }

    package let event: EventName
    /// The name as lines spell it.
    package var name: String { event.rawValue }
    /// The fields every line has, in order.
    package let fields: [String]
    /// Fields some lines add after those, in this order.
    package let sometimes: [String]
    package let help: String
    package let from: Source
    /// Among the event entity's types.
    package let homeAssistant: Bool

    init(_ event: EventName, _ fields: [String], sometimes: [String] = [], help: String, from: Source = .run, homeAssistant: Bool = false) {
        self.event = event
        self.fields = fields
        self.sometimes = sometimes
        self.help = help
        self.from = from
        self.homeAssistant = homeAssistant
    }

    /// Whether `keys` (a line's keys in order) is this event's shape: its fields, then some of
    /// `sometimes` in their order.
    package func admits(_ keys: [String]) -> Bool {
        guard keys.count >= fields.count, Array(keys.prefix(fields.count)) == fields else { return false }
        var rest = sometimes[...]
        for key in keys.dropFirst(fields.count) {
            guard let at = rest.firstIndex(of: key) else { return false }
            rest = rest[(at + 1)...]
        }
        return true
    }
}
