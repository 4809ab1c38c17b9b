import DialCore

/// A command a control-socket client sends, one per line.
public enum ControlCommand: Sendable, Equatable {
    /// Show the item at this path (`drinks/coffee`; a top-level item's path is its id): the
    /// ring turns to it, opening and closing rings on the way.
    case select(path: MenuPath)
    /// Activate the selected item (as a hub tap does).
    case activate
    /// To the parent ring, as the back item, a long press or Escape do.
    case back
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

    static let usage = "commands: select <id or path>, activate, back, show, hide, reload"

    /// Parses one line (without its newline; a trailing CR from telnet-like clients is ignored).
    public static func parse<S: StringProtocol>(_ line: S) -> ControlLine {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard let verb = words.first, !verb.hasPrefix("#") else { return .blank }
        let arguments = words.dropFirst()
        switch verb {
        case "select":
            guard arguments.count == 1, let text = arguments.first else {
                return .invalid("select needs exactly one item id or path: select <id> or select <id>/<id>...")
            }
            // Whether it names an item is the menu's to say (the loop replies if not); here
            // only its form: ids as the configuration allows them, joined by '/'.
            guard let path = MenuPath(parsing: String(text)), path.ids.allSatisfy(ConfigValues.isValidID) else {
                return .invalid("'\(text)' is not an item id or path")
            }
            return .command(.select(path: path))
        case "activate", "back", "show", "hide", "reload":
            guard arguments.isEmpty else { return .invalid("\(verb) takes no arguments") }
            switch verb {
            case "activate": return .command(.activate)
            case "back": return .command(.back)
            case "show": return .command(.show)
            case "hide": return .command(.hide)
            default: return .command(.reload)
            }
        default:
            return .invalid("unknown command '\(verb)'; " + usage)
        }
    }
}
