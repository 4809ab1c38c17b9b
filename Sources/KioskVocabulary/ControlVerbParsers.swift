import DialCore

/// The verbs' argument parsers, each with the refusal the client is sent.
extension ControlVocabulary {
    static func parseSelect(_ a: ControlArguments) -> ControlLine {
        guard a.words.count == 1, let text = a.words.first else {
            return .invalid("select needs exactly one item id or path: select <id> or select <id>/<id>...")
        }
        // Whether it names an item is the menu's to say (the loop replies if not); here
        // only its form: ids as the configuration allows them, joined by '/'.
        guard let path = MenuPath(parsing: text), path.ids.allSatisfy(VocabularyWords.isItemID) else {
            return .invalid("'\(text)' is not an item id or path")
        }
        return .command(.select(path: path))
    }

    static func parseScreen(_ a: ControlArguments) -> ControlLine {
        guard a.words.count == 1, let text = a.words.first, let request = ScreenRequest(rawValue: text) else {
            return .invalid("screen needs one of on, off, dim, auto")
        }
        return .command(.screen(request))
    }

    static func parseSpeech(_ a: ControlArguments) -> ControlLine {
        guard a.words.count == 1, let text = a.words.first, text == "on" || text == "off" else {
            return .invalid("speech needs on or off")
        }
        return .command(.speech(text == "on"))
    }

    static func parseConfirm(_ a: ControlArguments) -> ControlLine {
        guard a.words.count == 1, let text = a.words.first, let serial = UInt64(text), serial > 0 else {
            return .invalid("confirm needs the serial of the pushed configuration, a whole number from 1")
        }
        return .command(.confirmConfig(serial: serial))
    }

    static func parseLanguage(_ a: ControlArguments) -> ControlLine {
        // Whether the code is configured is the service's to say (it replies if not).
        guard a.words.count == 1, let code = a.words.first, VocabularyWords.isLanguageCode(code) else {
            return .invalid("language needs one language code, such as language de")
        }
        return .command(.language(code))
    }

    /// `<base>/set/config_confirm`: the serial, or `PRESS` (Home Assistant's button, which can
    /// only send a fixed payload) for whichever waits.
    static func parseConfirmPayload(_ argument: String) -> Result<ControlCommand, MQTTCommandError> {
        if argument == "PRESS" { return .success(.confirmConfig(serial: nil)) }
        guard let serial = UInt64(argument), serial > 0 else {
            return .failure(MQTTCommandError("set/config_confirm needs the serial, a whole number from 1"))
        }
        return .success(.confirmConfig(serial: serial))
    }
}
