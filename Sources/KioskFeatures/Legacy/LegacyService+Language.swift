import DialCore
import KioskConfiguration
import KioskLoop

/// The language the kiosk shows and speaks: a switch by the languages ring, `language <code>`
/// on the control socket or `<base>/set/language` changes every text at the next frame (the
/// loop's `.language` request), the voice, the event lines' labels and the state; after
/// `behaviour.language_return_after_seconds` without input it goes back to the default.
extension LegacyService {
    /// The accessibility settings in the current language: its voice and its words.
    package var speechSettings: AccessibilitySettings? {
        guard var settings = config.accessibility else { return nil }
        guard let language, let entry = config.languages.first(where: { $0.code == language }) else { return settings }
        settings.words = settings.words(in: language)
        settings.voice = entry.voice
        return settings
    }

    /// The default language's code (nil without `languages:`).
    package var defaultLanguage: String? { config.languages.first?.code }

    /// Switches to `code` (a configured language): the loop repaints with its texts, the line
    /// `{"event": "language", "code": ...}` goes out, then `selected` for the item at the top
    /// with its label in the new language (`dial`: what the dial shows). The same language
    /// again changes nothing. Returns the loop's `.language` request.
    package func setLanguage(_ code: String, at time: Double, dial: DialSnapshot) -> [LoopRequest] {
        let target: String? = code == defaultLanguage ? nil : code
        guard target != language else { return [] }
        language = target
        shownMenu = config.menu.translated(to: target)
        if let heldBack = remoteLog.admit(now: time) {
            logger.info("language: \(code)" + (speechSettings.map { " (voice \($0.voice))" } ?? "") + LogRateLimit.suffix(heldBack))
        }
        emit(.language(time: time, code: code))
        if let path = dial.selectedPath {
            emit(.dial(.selected(index: shownMenu.index(of: path), path: path, time: time), frames: 0))
        }
        publishState()
        // The painter and the dial take the code itself (the default's too: its texts are kept).
        return [.language(code)]
    }

    /// An item of a languages ring activated: its language.
    func chooseLanguage(from events: [DialEvent], at time: Double, dial: DialSnapshot) -> [LoopRequest] {
        var requests: [LoopRequest] = []
        for case .activated(_, let path, _) in events {
            if let code = config.menu.node(at: path)?.item.languageCode { requests += setLanguage(code, at: time, dial: dial) }
        }
        return requests
    }

    /// When the language goes back to the default: `language_return_after_seconds` after the
    /// last input; nil when it is the default already or never returns.
    package var languageReturnDeadline: Double? {
        guard language != nil, let seconds = config.behaviour.languageReturnAfter else { return nil }
        return lastInput + seconds
    }

    /// Back to the default language when its time has come.
    package func returnLanguageIfDue(at time: Double, dial: DialSnapshot) -> [LoopRequest] {
        guard let deadline = languageReturnDeadline, time >= deadline, let code = defaultLanguage else { return [] }
        return setLanguage(code, at: time, dial: dial)
    }
}
