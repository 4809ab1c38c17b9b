import Audio
import DialCore
import YAMLTree

/// The `accessibility:` section's speech and sound. Absent: the kiosk is silent
/// and starts no audio thread. Present: speech on unless `speech: off`; sound cues only with
/// `sound_cues: on`.
package struct AccessibilitySettings: Sendable, Equatable {
    package var speech: Bool
    /// An espeak-ng voice name or language (`en`, `de`, `fr-fr`, `en+f3`).
    package var voice: String
    /// Words per minute, 80-450.
    package var rate: Int
    /// Speech loudness 0-200 (espeak-ng's scale, 100 normal).
    package var volume: Int
    package var soundCues: Bool
    /// Cue loudness in percent of full scale, 0-100.
    package var cueVolume: Int
    /// The ALSA PCM to play to.
    package var device: String
    /// The words around names: the top ring's name, "items", "activated", "Back".
    package var words: SpeechWords
    /// The words in the languages other than the default, by code.
    package var wordsByLanguage: [String: SpeechWords] = [:]

    package init(speech: Bool = true, voice: String = "en", rate: Int = 175, volume: Int = 100, soundCues: Bool = false,
                cueVolume: Int = 50, device: String = "default", words: SpeechWords = SpeechWords()) {
        self.speech = speech
        self.voice = voice
        self.rate = rate
        self.volume = volume
        self.soundCues = soundCues
        self.cueVolume = cueVolume
        self.device = device
        self.words = words
    }

    /// What would keep the kiosk silent, for check-config: espeak-ng that cannot start, a sound
    /// card that is not there. The device is never opened here (an ALSA plugin may write or
    /// run something when opened): its name is read, and a card looked up in /proc.
    package func audioProblems() -> [String] {
        guard speech || soundCues else { return [] }
        var problems: [String] = []
        if speech, case .failure(let error) = Espeak.shared {
            problems.append("accessibility.speech: \(error); the kiosk will be silent")
        }
        if let note = PCMName.note(device) { problems.append("accessibility.device: \(note)") }
        return problems
    }

    /// The words in `language` (the default's when it has none).
    package func words(in language: String?) -> SpeechWords { language.flatMap { wordsByLanguage[$0] } ?? words }

    /// The voice as the worker takes it.
    package var espeakVoice: Espeak.Voice { Espeak.Voice(name: voice, rate: rate, volume: volume) }
}

extension ConfigParser {
    package static let accessibilityKeys = ["speech", "voice", "rate", "volume", "sound_cues", "cue_volume", "device",
                                    "menu_speech", "items_speech", "activated_speech", "back_speech"]

    /// `pushed`: the section came in a fleet bundle (no device that writes a file).
    /// `voices`: the installed espeak-ng voices to check `voice` against (nil: espeak-ng
    /// cannot start here, and the voice is left to the worker, which logs it). Asked only when
    /// the section names a voice, so a section without one (cues only) does not load espeak-ng.
    package static func parseAccessibility(_ section: ConfigSection,
                                   languages: LanguageTable = LanguageTable(), warnings: ConfigWarnings = ConfigWarnings(),
                                   voices: () -> VoiceCatalog? = { try? Espeak.shared.get().voices },
                                   pushed: Bool = false) throws -> AccessibilitySettings {
        var settings = AccessibilitySettings()
        if let on = try section.bool("speech") { settings.speech = on }
        if let voice = try section.name("voice", maximumBytes: VoiceCatalog.nameLimit) {
            if let voices = voices(), !voices.contains(voice) {
                throw section.error("voice", section.value("voice"),
                                    "espeak-ng has no voice '\(voice)'; `espeak-ng --voices` lists the installed ones "
                                        + "(a language such as en, de, fr-fr, or a voice name) and "
                                        + "`espeak-ng --voices=variant` the variants after '+' (en+f3)")
            }
            settings.voice = voice
        }
        if let rate = try section.number("rate", where: { $0 >= 80 && $0 <= 450 && $0 == $0.rounded() },
                                         "of words per minute, a whole number between 80 and 450") {
            settings.rate = Int(rate)
        }
        if let volume = try section.number("volume", where: { $0 >= 0 && $0 <= 200 && $0 == $0.rounded() },
                                           "a whole number between 0 and 200 (100 is normal)") {
            settings.volume = Int(volume)
        }
        if let on = try section.bool("sound_cues") { settings.soundCues = on }
        if let volume = try section.number("cue_volume", where: { $0 >= 0 && $0 <= 100 && $0 == $0.rounded() },
                                           "a whole number of percent between 0 and 100") {
            settings.cueVolume = Int(volume)
        }
        if let device = try section.name("device", maximumBytes: 256) {
            if let refusal = PCMName.refusal(device, filePlugin: !pushed) { throw section.error("device", section.value("device"), refusal) }
            settings.device = device
        }
        let keys: [(String, WritableKeyPath<SpeechWords, String>)] = [
            ("menu_speech", \.topRing), ("items_speech", \.items), ("activated_speech", \.activated), ("back_speech", \.back)]
        var translated: [(code: String, field: WritableKeyPath<SpeechWords, String>, text: String)] = []
        for (key, field) in keys {
            guard let text = try section.localized(key, languages: languages, warnings: warnings) else { continue }
            settings.words[keyPath: field] = text.base
            translated += text.translations.map { ($0.key, field, $0.value) }
        }
        // A language without its own word for one of them says the default's.
        for (code, field, text) in translated { settings.wordsByLanguage[code, default: settings.words][keyPath: field] = text }
        return settings
    }
}
