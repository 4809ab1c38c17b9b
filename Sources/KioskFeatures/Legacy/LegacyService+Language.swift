import DialCore
import KioskConfiguration
import KioskLoop

/// The remainder's side of the language (the switch itself is `LanguageSwitch`'s): the menu's
/// texts, the voice, the event lines and the state in the language the feature says is shown.
extension LegacyService {
    /// The accessibility settings in the current language: its voice and its words.
    package var speechSettings: AccessibilitySettings? {
        guard var settings = config.accessibility else { return nil }
        guard let language, let entry = config.languages.first(where: { $0.code == language }) else { return settings }
        settings.words = settings.words(in: language)
        settings.voice = entry.voice
        return settings
    }

    /// `LanguageSwitch` switched to `code` (`language`: nil for the default): the menu takes its
    /// texts, the line `{"event": "language", "code": ...}` goes out, then `selected` for the
    /// item at the top (`selected`) with its label in the new language, then the state.
    func languageShown(code: String, language target: String?, selected: MenuPath?, at time: Double) {
        language = target
        shownMenu = config.menu.translated(to: target)
        if let heldBack = remoteLog.admit(now: time) {
            logger.info("language: \(code)" + (speechSettings.map { " (voice \($0.voice))" } ?? "") + LogRateLimit.suffix(heldBack))
        }
        emit(.language(time: time, code: code))
        if let path = selected {
            emit(.dial(.selected(index: shownMenu.index(of: path), path: path, time: time), frames: 0))
        }
        publishState()
    }

    /// The features' news the remainder acts on.
    package func hear(_ news: FeatureNews, at time: Double) {
        guard case .languageShown(let code, let language, let selected, let at) = news else { return }
        languageShown(code: code, language: language, selected: selected, at: at)
    }
}
