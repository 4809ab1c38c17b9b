/// A command a control-socket client sends, one per line.
public enum ControlCommand: Sendable, Equatable {
    /// Turn the ring to the item with this id.
    case select(id: String)
    /// Activate the selected item (as a hub tap does).
    case activate
    case show
    case hide
    /// Re-read the configuration file (as SIGHUP does).
    case reload
}

/// What one received line means.
public enum ControlLine: Sendable, Equatable {
    case command(ControlCommand)
    /// Empty or a `#` comment: ignored, no reply.
    case blank
    /// Not a command; the message is sent back to the client.
    case invalid(String)

    static let usage = "commands: select <id>, activate, show, hide, reload"

    /// Parses one line (without its newline; a trailing CR from telnet-like clients is ignored).
    public static func parse<S: StringProtocol>(_ line: S) -> ControlLine {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard let verb = words.first, !verb.hasPrefix("#") else { return .blank }
        let arguments = words.dropFirst()
        switch verb {
        case "select":
            guard arguments.count == 1, let id = arguments.first else {
                return .invalid("select needs exactly one item id: select <id>")
            }
            guard ConfigValues.isValidID(String(id)) else { return .invalid("'\(id)' is not an item id") }
            return .command(.select(id: String(id)))
        case "activate", "show", "hide", "reload":
            guard arguments.isEmpty else { return .invalid("\(verb) takes no arguments") }
            switch verb {
            case "activate": return .command(.activate)
            case "show": return .command(.show)
            case "hide": return .command(.hide)
            default: return .command(.reload)
            }
        default:
            return .invalid("unknown command '\(verb)'; " + usage)
        }
    }
}
