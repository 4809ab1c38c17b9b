import DialCore

/// A command a control-socket client sends, one per line.
package enum ControlCommand: Sendable, Equatable {
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
    /// An icon blob a taken bundle waits for (`<topic>/blob/<sha256>`), undecoded, of `length`
    /// bytes; nil: over its bound, never copied.
    case configBlob(sha256: String, payload: [UInt8]?, length: Int)
    /// `set <path> text|available|value ...`: an item's live state (ControlCommand+Live.swift).
    case setItem(path: MenuPath, change: ItemChange)
    /// `turn <n>`: n detents of an open value dial, or n items of the ring (negative: anticlockwise).
    case turn(Int)
    /// Show and speak every text in this language (a code of the configuration's `languages:`).
    case language(String)
    /// A PNG of what the panel shows, for the asking client (`remote.screenshots: true` only).
    case screenshot
}

/// `screen on|off|dim|auto` (`auto`: back to the opening hours and the idle timers).
package enum ScreenRequest: String, Sendable, Equatable, CaseIterable {
    case on, off, dim, auto
}

/// What one received line means.
package enum ControlLine: Sendable, Equatable {
    case command(ControlCommand)
    /// Empty or a `#` comment: ignored, no reply.
    case blank
    /// Not a command; the message is sent back to the client.
    case invalid(String)

    /// The usage line: every socket verb of the vocabulary with its arguments.
    package static let usage = "commands: " + ControlVocabulary.verbs.compactMap { $0.socket?.usage }.joined(separator: ", ")

    /// Parses one line (without its newline; a trailing CR from telnet-like clients is ignored).
    package static func parse<S: StringProtocol>(_ line: S) -> ControlLine {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard let verb = words.first, !verb.hasPrefix("#") else { return .blank }
        guard let socket = ControlVocabulary.socketVerb(String(verb)) else {
            return .invalid("unknown command '\(verb)'; " + usage)
        }
        let arguments = ControlArguments(line: Substring(line), verb: String(verb), words: words.dropFirst().map { String($0) })
        switch socket.grammar {
        case .none(let command):
            guard arguments.words.isEmpty else { return .invalid("\(verb) takes no arguments") }
            return .command(command)
        case .integer(let argument):
            guard arguments.words.count == 1, let n = argument.value(arguments.words[0]) else {
                return .invalid(argument.refusal(verb: String(verb), got: arguments.words.joined(separator: " ")))
            }
            return .command(argument.command(n))
        case .parsed(let parse):
            return parse(arguments)
        }
    }
}

/// One control-socket line split for a verb's parser: the verb, the words after it, and the
/// line itself (for verbs that keep the rest of it, spaces inside, as `set <path> text` does).
package struct ControlArguments {
    package let line: Substring
    package let verb: String
    package let words: [String]
}
