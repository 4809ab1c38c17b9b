import Audio
import KioskVocabulary
import DialCore
import YAMLTree

/// The `languages:` list and the texts that may be maps by language. A text key holds either a
/// plain string (the same in every language) or a mapping from language codes to strings; the
/// mapping must have the default (first) language's text, may lack others (they fall back to
/// the default's, with one warning each) and may name no code outside `languages:`.
package struct LanguageTable: Sendable {
    package var languages: [Language]
    package var defaultCode: String? { languages.first?.code }
    package var codes: [String] { languages.map(\.code) }

    package init(_ languages: [Language] = []) { self.languages = languages }

    /// A language code: letters, digits and '-' (`en`, `pt-BR`, `zh-Hans`), 1 to 16 of them.
    package static func isValidCode(_ text: String) -> Bool { VocabularyWords.isLanguageCode(text) }

    /// The `languages:` list of `document`; an empty table when it is absent.
    package static func read(_ document: ConfigSection) throws -> LanguageTable {
        guard let node = document.value("languages") else { return LanguageTable() }
        guard case .sequence(let sequence) = node else {
            throw document.error("languages", node, "expected a list of languages ({code: en, voice: en, name: English}; "
                                 + "the first is the default), got \(ConfigSection.describe(node))")
        }
        guard !sequence.isEmpty else { throw document.error("languages", node, "the list is empty; leave out 'languages' for one language") }
        guard sequence.count <= ConfigLimits.languages else {
            throw document.error("languages", sequence[ConfigLimits.languages], "at most \(ConfigLimits.languages) languages, got \(sequence.count)")
        }
        var table = LanguageTable()
        var firstLine: [String: Int?] = [:]
        for (i, element) in sequence.enumerated() {
            let entry = try ConfigSection(file: document.file, path: "languages[\(i)]", node: element, known: ConfigParser.languageEntryKeys)
            guard let code = try entry.string("code") else {
                throw ConfigError(file: document.file, line: element.line, key: entry.keyPath("code"), message: "every language needs a code")
            }
            guard isValidCode(code) else {
                throw entry.error("code", entry.value("code"), "expected a language code of letters, digits and '-' (en, pt-BR), got '\(code)'")
            }
            if let first = firstLine[code] {
                throw entry.error("code", entry.value("code"), "duplicate language code '\(code)'" + (first.map { " (first on line \($0))" } ?? ""))
            }
            firstLine[code] = entry.value("code")?.line
            let voice = try entry.name("voice", maximumBytes: 64)
            let name = try entry.name("name", maximumBytes: ConfigLimits.labelCharacters * 4)
            table.languages.append(Language(code: code, voice: voice, name: name))
        }
        return table
    }
}

/// Warnings a parse collects (a missing translation, text that cannot fit): the file is valid,
/// `check-config` prints them.
package final class ConfigWarnings {
    package private(set) var lines: [String] = []
    package init() {}
    package func add(file: String, line: Int?, key: String, _ message: String) {
        lines.append("\(file)\(line.map { ":\($0)" } ?? ""): \(key): \(message)")
    }
}

extension ConfigSection {
    /// A text that is a plain single-line string or a map by language (`{en: Coffee, de: Kaffee}`),
    /// each part checked as `name` checks a string, at most `maximumCharacters` code points.
    package func localized(_ key: String, languages: LanguageTable, warnings: ConfigWarnings,
                           maximumCharacters: Int = ConfigLimits.labelCharacters) throws -> LocalizedText? {
        guard let node = value(key) else { return nil }
        func checked(_ section: ConfigSection, _ k: String) throws -> String? {
            guard let text = try section.name(k, maximumBytes: .max) else { return nil }
            let count = text.unicodeScalars.count
            guard count <= maximumCharacters else {
                throw section.error(k, section.value(k), "at most \(maximumCharacters) characters, got \(count)")
            }
            return text
        }
        guard case .mapping(let mapping) = node else { return try checked(self, key).map { LocalizedText($0) } }
        guard let defaultCode = languages.defaultCode else {
            throw error(key, node, "a text by language needs a 'languages:' list naming them; or give one plain text")
        }
        for (keyNode, _) in mapping {
            let code = keyNode.string ?? ""
            guard languages.codes.contains(code) else {
                throw ConfigError(file: file, line: keyNode.line, key: keyPath(key) + "." + code,
                                  message: "unknown language code '\(code)'; the languages are " + languages.codes.joined(separator: ", "))
            }
        }
        let map = try ConfigSection(file: file, path: keyPath(key), node: node, known: languages.codes)
        guard let base = try checked(map, defaultCode) else {
            throw error(key, node, "no text in the default language '\(defaultCode)' (the first of 'languages:'), "
                        + "which every other language falls back to")
        }
        var text = LocalizedText(base)
        for language in languages.languages.dropFirst() {
            if let translation = try checked(map, language.code) {
                text.translations[language.code] = translation
            } else {
                warnings.add(file: file, line: node.line, key: keyPath(key),
                             "no '\(language.code)' text; the '\(defaultCode)' one is shown and spoken in \(language.name)")
            }
        }
        return text
    }
}

extension ConfigLimits {
    /// Languages of one kiosk: each is a ring slot of a languages item and a voice to load.
    package static let languages = 32
    /// Code points of an item's description: a few lines in the hub (a price, opening hours).
    package static let descriptionCharacters = 300
    /// Code points of the title and the hint: one line each above and below the dial.
    package static let bandCharacters = 200
}

/// `text:`: the title above the dial and the hint below it.
package struct DialTexts: Sendable, Equatable {
    package var title: LocalizedText?
    package var hint: LocalizedText?
    package init(title: LocalizedText? = nil, hint: LocalizedText? = nil) {
        self.title = title
        self.hint = hint
    }
}

extension ConfigParser {
    package static let textKeys = ["title", "hint"]
    /// The keys of one entry of `languages:`.
    package static let languageEntryKeys = ["code", "voice", "name"]

    package static func parseTexts(_ section: ConfigSection, languages: LanguageTable, warnings: ConfigWarnings) throws -> DialTexts {
        DialTexts(title: try section.localized("title", languages: languages, warnings: warnings, maximumCharacters: ConfigLimits.bandCharacters),
                  hint: try section.localized("hint", languages: languages, warnings: warnings, maximumCharacters: ConfigLimits.bandCharacters))
    }
}

extension ConfigParser {
    /// With speech on, every language's voice must be one espeak-ng has (when it can start here).
    package static func checkVoices(_ document: ConfigSection, _ languages: LanguageTable,
                                    voices: () -> VoiceCatalog? = { try? Espeak.shared.get().voices }) throws {
        guard !languages.languages.isEmpty, let catalog = voices(), case .sequence(let list)? = document.value("languages") else { return }
        for (i, language) in languages.languages.enumerated() where !catalog.contains(language.voice) {
            let entry = try ConfigSection(file: document.file, path: "languages[\(i)]", node: list[i], known: ConfigParser.languageEntryKeys)
            throw entry.error("voice", entry.value("voice") ?? entry.value("code"),
                              "espeak-ng has no voice '\(language.voice)'; `espeak-ng --voices` lists the installed ones")
        }
    }
}
