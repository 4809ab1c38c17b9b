/// What the dial reports to the outside. `index` is the item's place among its ring's
/// configured items (nil for a ring's back item); `path` names it from the top ring down.
public enum DialEvent: Sendable, Equatable {
    /// The ring came to rest on a different item than before.
    case selected(index: Int?, path: MenuPath, time: Double)
    /// The hub was tapped (or Enter pressed, or `activate` sent) with `index` selected.
    case activated(index: Int?, path: MenuPath, time: Double)
    /// The ring came to rest (after every movement): total rotation and the item at the top.
    case rest(time: Double, rotation: Double, index: Int?)
    /// Ring `path` (of the item at `path`) came on screen.
    case opened(path: MenuPath, time: Double)
    /// Ring `path` went away.
    case closed(path: MenuPath, time: Double)
    /// An open value dial's news (`ValueDials`): its opening and closing, its setpoint's steps.
    case value(ValueDialEvent)
}

/// What the value dials report: one opening or closing, a setpoint's step, a report held back.
/// Items are named by path and id (and the label on opening and closing), as the event lines
/// print them.
public enum ValueDialEvent: Sendable, Equatable {
    /// A value item's dial opened over the ring, showing `value`.
    case opened(path: MenuPath, id: String, label: String, value: Double, time: Double)
    /// It closed (Back, a long press on the hub, a `select` elsewhere).
    case closed(path: MenuPath, id: String, label: String, time: Double)
    /// A step of the item's setpoint (`ValueSetpoint.Output`).
    case output(ValueSetpoint.Output, path: MenuPath, id: String, time: Double)
    /// A report inside a commit's guard was held back (counted, never shown).
    case heldBack(path: MenuPath, time: Double)

    public var time: Double {
        switch self {
        case .opened(_, _, _, _, let t), .closed(_, _, _, let t), .output(_, _, _, let t), .heldBack(_, let t): t
        }
    }

    /// Whether the event has an event line (`opened`, `closed`, a `value` phase); the others
    /// (stops, rests, clamps, held-back reports) are for speech, the log and the metrics.
    public var hasLine: Bool {
        switch self {
        case .opened, .closed: true
        case .output(let output, _, _, _):
            switch output {
            case .changing, .committed, .confirmed, .external: true
            case .stop, .rest, .clamped: false
            }
        case .heldBack: false
        }
    }
}

extension DialEvent {
    /// Whether the event has an event line (every event but a value dial's silent ones).
    public var hasLine: Bool {
        if case .value(let v) = self { return v.hasLine }
        return true
    }
}
