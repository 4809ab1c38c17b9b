import DialCore
import DialRender
import KioskSeams
import Testing
@testable import KioskRuntime
@testable import KioskConfiguration
import KioskTestSupport

/// Whole frames of the scene recipe (what `render` paints) with languages, words around the dial
/// and round panels, compared with PNGs under Tests/KioskRuntimeTests/Golden by KioskTestSupport's
/// `expectGolden` (a channel may differ by 3). Regenerate after an intended change of the look, and look at every picture:
///
///     DIALKIOSK_REGENERATE_GOLDEN=1 swift test --filter KioskRuntimeTests.LanguageGoldenTests
///
/// The Chinese label comes through fontconfig's fallback (fonts-droid-fallback, installed by
/// scripts/install-deps.sh); the Arabic texts are shaped right to left.
@Suite struct LanguageGoldenTests {
    static let config = """
        languages:
          - {code: en, voice: en, name: English}
          - {code: de, voice: de, name: Deutsch}
          - {code: ar, voice: ar, name: العربية}
        text:
          title: {en: Welcome, de: Willkommen, ar: أهلا وسهلا}
          hint: {en: "Turn the ring, tap the centre", de: "Ring drehen, Mitte tippen", ar: أدر الحلقة واضغط على المركز}
        items:
          - id: coffee
            label: {en: Coffee, de: Kaffee, ar: قهوة}
            description: {en: "Freshly ground, 2.50", de: "Frisch gemahlen, 2,50", ar: "طازجة، 2.50"}
          - id: matcha
            label: 抹茶
          - id: water
            label: {en: Water, de: Wasser, ar: ماء}
          - id: cake
            label: {en: Cake, de: Kuchen, ar: كعكة}
          - id: language
            label: {en: Language, de: Sprache, ar: اللغة}
            languages: true
        """

    struct Scene: CustomTestStringConvertible, Sendable {
        var name: String
        var width: Int, height: Int
        var language: String?
        var round = false
        var angle = 0.0
        var testDescription: String { name }
    }

    static let scenes: [Scene] = [
        Scene(name: "lang-en-720x1280", width: 720, height: 1280, language: "en"),
        Scene(name: "lang-de-720x1280", width: 720, height: 1280, language: "de", angle: -1.25),
        Scene(name: "lang-ar-720x1280", width: 720, height: 1280, language: "ar"),
        Scene(name: "round-480x480", width: 480, height: 480, language: nil, round: true, angle: 0.2),
        Scene(name: "round-1080x1080", width: 1080, height: 1080, language: "de", round: true),
    ]

    static let directory = goldenDirectory(beside: #filePath)

    @Test(arguments: LanguageGoldenTests.scenes)
    func frameMatchesGolden(scene: Scene) throws {
        var config = try ConfigParser.parse(Self.config, file: "golden.yaml")
        if scene.round { config.display.shape = .round }
        // What `render` paints of the top ring at `angle` from its rest (RenderCommand.picture).
        let recipe = SceneRecipe(rotation: .none)
        let setup = recipe.setup(config, panelWidth: scene.width, panelHeight: scene.height, language: scene.language)
        let frame = try recipe.picture(setup, pose: setup.pose(rotation: scene.angle, showProgress: nil, ring: .top))
        try expectGolden(frame, name: scene.name, directory: Self.directory)
    }
}
