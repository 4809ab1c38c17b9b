import DialCore
import Testing
@testable import DialKioskApp
@testable import KioskRuntime
@testable import KioskConfiguration
import KioskTestSupport

/// `languages:` and texts by language: plain strings still work, a map falls back to the
/// default language with one warning per missing translation, and bad maps are located errors.
@Suite struct LanguageConfigTests {
    static let three = """
        languages:
          - {code: en, voice: en, name: English}
          - {code: de, voice: de, name: Deutsch}
          - {code: ar, voice: ar, name: العربية}
        text:
          title: {en: Welcome, de: Willkommen, ar: أهلا}
          hint: Turn the ring
        items:
          - id: coffee
            label: {en: Coffee, de: Kaffee, ar: قهوة}
            description: {en: "Freshly ground, 2.50", de: "Frisch gemahlen, 2,50"}
          - id: tea
            label: Tea
          - id: language
            label: {en: Language, de: Sprache, ar: اللغة}
            languages: true
        behaviour:
          language_return_after_seconds: 60
        """

    private func message(_ text: String) -> String { configErrorMessage(text, file: "lang.yaml") }

    @Test func mapsAndPlainStringsGiveEveryLanguage() throws {
        let config = try ConfigParser.parse(Self.three, file: "lang.yaml")
        #expect(config.languages.map(\.code) == ["en", "de", "ar"])
        #expect(config.behaviour.languageReturnAfter == 60)
        let coffee = config.items[0]
        #expect(coffee.label == "Coffee")
        #expect(coffee.translated(to: "de").label == "Kaffee")
        #expect(coffee.translated(to: "ar").label == "قهوة")
        #expect(coffee.translated(to: "de").description == "Frisch gemahlen, 2,50")
        // No Arabic description: the default's.
        #expect(coffee.translated(to: "ar").description == "Freshly ground, 2.50")
        #expect(config.items[1].translated(to: "de").label == "Tea")
        #expect(config.texts.title?.text(in: "de") == "Willkommen")
        #expect(config.texts.hint?.text(in: "ar") == "Turn the ring")
        // The languages ring: one item per language, named in its own language.
        let ring = config.menu.items(ofRing: ["language"]) ?? []
        #expect(ring.map(\.item.label) == ["English", "Deutsch", "العربية"])
        #expect(ring.map(\.item.languageCode) == ["en", "de", "ar"])
        // The whole tree in German.
        #expect(config.menu.translated(to: "de").top.map(\.item.label) == ["Kaffee", "Tea", "Sprache"])
    }

    @Test func oneWarningPerMissingTranslation() throws {
        let config = try ConfigParser.parse(Self.three, file: "lang.yaml")
        #expect(config.warnings == ["lang.yaml:11: items[0].description: no 'ar' text; the 'en' one is shown and spoken in العربية"])
    }

    @Test func unknownCodeIsLocated() {
        let text = Self.three.replacingOccurrences(of: "de: Kaffee", with: "fr: Café")
        #expect(message(text) == "lang.yaml:10: items[0].label.fr: unknown language code 'fr'; the languages are en, de, ar")
    }

    @Test func mapWithoutTheDefaultIsLocated() {
        let text = Self.three.replacingOccurrences(of: "{en: Coffee, de: Kaffee, ar: قهوة}", with: "{de: Kaffee}")
        #expect(message(text).hasPrefix("lang.yaml:10: items[0].label: no text in the default language 'en'"))
    }

    @Test func duplicateCodeIsLocated() {
        let text = Self.three.replacingOccurrences(of: "{code: ar, voice: ar", with: "{code: de, voice: ar")
        #expect(message(text) == "lang.yaml:4: languages[2].code: duplicate language code 'de' (first on line 3)")
    }

    @Test func mapWithoutLanguagesIsLocated() {
        let text = "items:\n  - id: a\n    label: {en: A}\n"
        #expect(message(text).hasPrefix("lang.yaml:3: items[0].label: a text by language needs a 'languages:' list"))
    }

    @Test func longDescriptionIsLocated() {
        let long = String(repeating: "a", count: 2_000)
        let text = "items:\n  - id: a\n    description: \(long)\n"
        #expect(message(text) == "lang.yaml:3: items[0].description: at most 300 characters, got 2000")
    }

    @Test func languageRingWithOneLanguageWarns() throws {
        let text = "languages:\n  - {code: en}\nitems:\n  - id: l\n    languages: true\n  - id: b\n"
        let config = try ConfigParser.parse(text, file: "lang.yaml")
        #expect(config.warnings == ["lang.yaml:5: items[0].languages: only one language is configured, so this ring offers no choice"])
        #expect(message("items:\n  - id: l\n    languages: true\n").contains("the file has no 'languages:' list"))
    }

    @Test func badCodeAndShape() throws {
        #expect(message("languages:\n  - {code: 'e n'}\n") == "lang.yaml:2: languages[0].code: expected a language code of letters, digits and '-' (en, pt-BR), got 'e n'")
        let round = try ConfigParser.parse("display:\n  shape: round\n", file: "x")
        #expect(round.display.shape == .round)
        #expect(message("display:\n  shape: oval\n") == "lang.yaml:2: display.shape: expected one of rectangle, round, got 'oval'")
    }

    @Test func speechWordsByLanguage() throws {
        let text = "languages:\n  - {code: en}\n  - {code: de}\naccessibility:\n  speech: off\n  items_speech: {en: items, de: Einträge}\n"
            + "  back_speech: Return\n"
        let a = try #require(try ConfigParser.parse(text, file: "x").accessibility)
        #expect(a.words(in: "de").items == "Einträge")
        #expect(a.words(in: "de").back == "Return")
        #expect(a.words(in: nil).items == "items")
    }
}

/// What check-config says of the words around the dial.
@Suite struct TextCheckTests {
    @Test func noRoomOnALandscapePanelAndCutDescriptions() throws {
        let text = LanguageConfigTests.three.replacingOccurrences(of: "description: {en: \"Freshly ground, 2.50\", de: \"Frisch gemahlen, 2,50\"}",
                                                                  with: "description: \(String(repeating: "Freshly ground arabica ", count: 12))")
        let config = try ConfigParser.parse(text, file: "lang.yaml")
        let landscape = try TextChecks.warnings(DialSetup(config: config, width: 800, height: 480))
        #expect(landscape.contains("text.title: no room above the dial on a 800x480 frame (the free band is under one and a half lines); it is not shown"))
        #expect(landscape.contains("text.hint: no room below the dial on a 800x480 frame (the free band is under one and a half lines); it is not shown"))
        // The same description in every language: one warning, not one per language.
        #expect(landscape.filter { $0.hasPrefix("items[0].description") }.count == 1, "\(landscape)")
        let portrait = try TextChecks.warnings(DialSetup(config: config, width: 720, height: 1280))
        #expect(!portrait.contains { $0.hasPrefix("text.") }, "\(portrait)")
    }
}
