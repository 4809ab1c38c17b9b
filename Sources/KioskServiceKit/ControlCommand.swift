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
    /// Speak the last utterance again.
    case repeatSpeech
    /// Speech on or off until the kiosk has been idle for a while (then the configured default).
    case speech(Bool)
    /// Confirm the pushed configuration with this serial (`confirm N`; `<base>/set/config_confirm`);
    /// nil: whichever waits (Home Assistant's confirm button, which can only send a fixed payload).
    case confirmConfig(serial: UInt64?)
    /// A signed configuration bundle, undecoded (`<base>/set/config` or the fleet topic only).
    case configBundle([UInt8])
    /// A bundle over the bound, never copied: refused by its size (`bytes`).
    case oversizedBundle(bytes: Int)
    /// `set <path> text|available|value ...`: an item's live state (ControlCommand+Live.swift).
    case setItem(path: MenuPath, change: ItemChange)
    /// `turn <n>`: n detents of an open value dial, or n items of the ring (negative: anticlockwise).
    case turn(Int)
    /// Show and speak every text in this language (a code of the configuration's `languages:`).
    case language(String)
    /// A PNG of what the panel shows (`remote.screenshots: true` only).
    case screenshot
}

/// `screen on|off|dim|auto` (`auto`: back to the opening hours and the idle timers).
public enum ScreenRequest: String, Sendable, Equatable, CaseIterable {
    case on, off, dim, auto
}

/// What one received line means.
public enum ControlLine: Sendable, Equatable {
    case command(ControlCommand)
    /// Empty or a `#` comment: ignored, no reply.
    case blank
    /// Not a command; the message is sent back to the client.
    case invalid(String)

    package static let usage = "commands: select <id or path>, activate, back, show, hide, reload, screen on|off|dim|auto, brightness 0-100, "
        + "repeat, speech on|off, set <path> text|available|value ..., turn <n>, language <code>, confirm <serial>, screenshot"

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
                return .invalid("screen needs one of on, off, dim, auto")
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
        case "confirm":
            guard arguments.count == 1, let text = arguments.first, let serial = UInt64(text), serial > 0 else {
                return .invalid("confirm needs the serial of the pushed configuration, a whole number from 1")
            }
            return .command(.confirmConfig(serial: serial))
        case "language":
            // Whether the code is configured is the service's to say (it replies if not).
            guard arguments.count == 1, let code = arguments.first, LanguageTable.isValidCode(String(code)) else {
                return .invalid("language needs one language code, such as language de")
            }
            return .command(.language(String(code)))
        case "repeat":
            guard arguments.isEmpty else { return .invalid("repeat takes no arguments") }
            return .command(.repeatSpeech)
        case "set", "turn":
            return parseLive(line, verb: String(verb), arguments: arguments.map { String($0) })
        case "activate", "back", "show", "hide", "reload", "screenshot":
            guard arguments.isEmpty else { return .invalid("\(verb) takes no arguments") }
            switch verb {
            case "activate": return .command(.activate)
            case "back": return .command(.back)
            case "show": return .command(.show)
            case "hide": return .command(.hide)
            case "screenshot": return .command(.screenshot)
            default: return .command(.reload)
            }
        default:
            return .invalid("unknown command '\(verb)'; " + usage)
        }
    }
}
