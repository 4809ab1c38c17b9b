import DialCore

/// What the kiosk tells the outside world, on stdout and to control-socket clients: the dial's
/// own events plus the service's life cycle. One vocabulary, one line format (`EventLine`, the
/// same as `simulate`'s), so a consumer parses one shape.
package enum KioskEvent: Sendable, Equatable {
    /// selected / activated / rest / opened / closed, as `simulate` prints them (`frames` goes on `rest`).
    case dial(DialEvent, frames: Int)
    /// The dial is on screen (after the first flip).
    case started(time: Double, items: Int)
    /// A configuration was applied by SIGHUP or `reload`.
    case reloaded(time: Double, items: Int)
    /// The process is about to exit (`reason` such as "SIGTERM").
    case stopping(time: Double, reason: String)
    /// A control command could not be carried out (sent only to the client that sent it).
    case error(time: Double, message: String)
    /// The texts are shown and spoken in another language from now on.
    case language(time: Double, code: String)
    /// The screen's power state changed (`state`: on, dim, off), and why.
    case power(time: Double, state: String, reason: String, detail: String)
}

extension EventLine {
    /// `{"t": 12.5, "event": "started", "items": 6}` and friends; dial events as `dialEvent` writes them.
    package static func kiosk(_ event: KioskEvent, menu: MenuTree) -> EventLine {
        switch event {
        case let .dial(dialEvent, frames):
            return .dialEvent(dialEvent, menu: menu, frames: frames)
        case let .started(time, count):
            return EventLine([("t", .number(time)), ("event", .event(.started)), ("items", .int(count))])
        case let .reloaded(time, count):
            return EventLine([("t", .number(time)), ("event", .event(.reloaded)), ("items", .int(count))])
        case let .stopping(time, reason):
            return EventLine([("t", .number(time)), ("event", .event(.stopping)), ("reason", .string(reason))])
        case let .language(time, code):
            return EventLine([("t", .number(time)), ("event", .event(.language)), ("code", .string(code))])
        case let .error(time, message):
            return EventLine([("t", .number(time)), ("event", .event(.error)), ("message", .string(message))])
        case let .power(time, state, reason, detail):
            return EventLine([("t", .number(time)), ("event", .event(.power)), ("state", .string(state)),
                              ("reason", .string(reason)), ("detail", .string(detail))])
        }
    }
}
