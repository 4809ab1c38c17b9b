import DialCore
import DialRender
import Glibc
import KioskSeams
import Testing
@testable import DialKioskApp
@testable import KioskRuntime
@testable import KioskConfiguration
import KioskTestSupport

/// Whole frames of `render` with languages, words around the dial and round panels, compared
/// with PNGs under Tests/DialRenderTests/Golden as GoldenTests compares its own (a channel may
/// differ by 3). Regenerate after an intended change of the look, and look at every picture:
///
///     DIALKIOSK_REGENERATE_GOLDEN=1 swift test --filter DialKioskAppTests.LanguageGoldenTests
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

    static let directory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/DialRenderTests/Golden"
    }()

    @Test(arguments: LanguageGoldenTests.scenes)
    func frameMatchesGolden(scene: Scene) throws {
        var config = try ConfigParser.parse(Self.config, file: "golden.yaml")
        if scene.round { config.display.shape = .round }
        let frame = try RenderCommand.picture(config: config, size: FrameSize(width: scene.width, height: scene.height),
                                              rotation: .none, angle: scene.angle, language: scene.language)
        let path = "\(Self.directory)/\(scene.name).png"
        if getenv("DIALKIOSK_REGENERATE_GOLDEN") != nil {
            try PNGWriter.write(frame, to: path)
            return
        }
        let golden = try PNGReader.readPixels(path)
        try #require(golden.width == frame.width && golden.height == frame.height)
        var over = 0, worst: UInt32 = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let a = frame[x, y], b = golden[x, y]
                var d: UInt32 = 0
                for shift in stride(from: UInt32(0), through: 16, by: 8) {
                    let ca = (a >> shift) & 0xFF, cb = (b >> shift) & 0xFF
                    d = max(d, ca > cb ? ca - cb : cb - ca)
                }
                worst = max(worst, d)
                if d > 3 { over += 1 }
            }
        }
        #expect(over == 0, "\(over) pixels differ by more than 3 (worst \(worst))")
    }
}
