import DialCore
import KioskConfiguration

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
    /// The screen on (woken), off (blanked) or dimmed, as the idle timers would.
    case screen(ScreenRequest)
    /// The backlight's share in percent, 0-100 (0 blanks, 100 is full; painted dim without one).
    case brightness(Int)
    /// Speak the last utterance again (issue 20).
    case repeatSpeech
    /// Speech on or off until the kiosk has been idle for a while (then the configured default).
    case speech(Bool)
}

/// `screen on|off|dim`.
public enum ScreenRequest: String, Sendable, Equatable, CaseIterable {
    case on, off, dim
}

/// What one received line means.
public enum ControlLine: Sendable, Equatable {
    case command(ControlCommand)
    /// Empty or a `#` comment: ignored, no reply.
    case blank
    /// Not a command; the message is sent back to the client.
    case invalid(String)

    package static let usage = "commands: select <id or path>, activate, back, show, hide, reload, screen on|off|dim, brightness 0-100, "
        + "repeat, speech on|off"

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
        case "screen":
            guard arguments.count == 1, let text = arguments.first, let request = ScreenRequest(rawValue: String(text)) else {
                return .invalid("screen needs one of on, off, dim")
            }
            return .command(.screen(request))
        case "brightness":
            guard arguments.count == 1, let text = arguments.first, text.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let percent = Int(text), (0...100).contains(percent) else {
                return .invalid("brightness needs a whole number from 0 to 100, got '\(arguments.joined(separator: " ").prefix(64))'")
            }
            return .command(.brightness(percent))
        case "speech":
            guard arguments.count == 1, let text = arguments.first, text == "on" || text == "off" else {
                return .invalid("speech needs on or off")
            }
            return .command(.speech(text == "on"))
        case "repeat":
            guard arguments.isEmpty else { return .invalid("repeat takes no arguments") }
            return .command(.repeatSpeech)
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
