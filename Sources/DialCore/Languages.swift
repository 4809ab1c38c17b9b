/// The languages a kiosk speaks and the texts it shows in each: plain data, chosen from by the
/// menu's current language (`MenuDial.language`). A configuration's first language is its
/// default: every text exists in it, and a text missing in another language is the default's.

/// One configured language.
public struct Language: Sendable, Equatable, Hashable {
    /// The code texts are keyed by (`en`, `de`, `pt-BR`).
    public var code: String
    /// The espeak-ng voice that speaks it.
    public var voice: String
    /// Its own name, as the languages ring shows it (`Deutsch`).
    public var name: String

    public init(code: String, voice: String? = nil, name: String? = nil) {
        self.code = code
        self.voice = voice ?? code
        self.name = name ?? code
    }
}

/// The texts of one item in one language other than the default (each already falls back to
/// the default language's where the configuration gives none).
public struct ItemTexts: Sendable, Equatable {
    public var label: String
    public var description: String?
    public var speech: String?
    public var ringSpeech: String?

    public init(label: String, description: String? = nil, speech: String? = nil, ringSpeech: String? = nil) {
        self.label = label
        self.description = description
        self.speech = speech
        self.ringSpeech = ringSpeech
    }
}

/// A text that may differ per language: the default language's text and the others'.
public struct LocalizedText: Sendable, Equatable {
    /// The text in the default language (and in any language without its own).
    public var base: String
    /// By language code, for languages other than the default.
    public var translations: [String: String]

    public init(_ base: String, translations: [String: String] = [:]) {
        self.base = base
        self.translations = translations
    }

    /// The text in `language` (nil or unknown: the default's).
    public func text(in language: String?) -> String {
        language.flatMap { translations[$0] } ?? base
    }
}

extension MenuItem {
    /// The item with its texts in `language`: the default's when it has none there (or
    /// `language` is nil or the default).
    public func translated(to language: String?) -> MenuItem {
        guard let language, let texts = translations[language] else { return self }
        var item = self
        item.label = texts.label
        item.description = texts.description
        item.speech = texts.speech
        item.ringSpeech = texts.ringSpeech
        return item
    }
}

extension SpeechWords {
    /// The words in `language`, from per-language words (the default's when it has none).
    public static func localized(_ words: [String: SpeechWords], default base: SpeechWords, language: String?) -> SpeechWords {
        language.flatMap { words[$0] } ?? base
    }
}

/// A panel's shape. A round panel shows only its inscribed circle, so the dial stays inside it
/// and nothing but background is painted outside. A 1:1 panel is not assumed round.
public enum DisplayShape: String, Sendable, Equatable, CaseIterable {
    case rectangle, round
}
