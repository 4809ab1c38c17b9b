import DialCore
@testable import DialRender
import Testing

@Suite struct TextTests {
    // One catalog per test: FreeType faces must not be shared between the threads tests run on.
    let catalog: FontCatalog
    let text: TextRenderer
    let shaper: TextShaper

    init() throws {
        catalog = try FontCatalog()
        text = try TextRenderer(catalog: catalog, fontName: "DejaVu Sans")
        shaper = TextShaper(catalog: catalog, primary: try catalog.face(named: "DejaVu Sans"))
    }

    /// Every inked pixel of `mask` anchored at the origin, as distances from the anchor.
    private func inkDistances(_ mask: TextMask) -> [Double] {
        var out: [Double] = []
        for y in 0..<mask.height {
            for x in 0..<mask.width where mask.coverage[y * mask.width + x] > 0 {
                let dx = Double(x + mask.originX) + 0.5, dy = Double(y + mask.originY) + 0.5
                out.append((dx * dx + dy * dy).squareRoot())
            }
        }
        return out
    }

    @Test(arguments: ["Pale lager", "English Bitter", "قهوة عربية", "שלום עולם", "चाय मसाला", "क्षत्रिय"])
    func labelInksInsideItsDisc(label: String) throws {
        let radius = 40.0
        let mask = try #require(text.fittedMask(label, nominalPx: 15, minPx: 9, radius: radius * 0.84))
        let ink = inkDistances(mask)
        #expect(ink.count > 40, "too little ink for \(label)")
        // Inside the disc; the fit uses the metric box, so allow a pixel for antialiasing.
        #expect((ink.max() ?? .infinity) <= radius + 1)
        // Roughly centred on the anchor: the ink's middle is near the disc's centre.
        let midX = Double(mask.originX) + Double(mask.width) / 2, midY = Double(mask.originY) + Double(mask.height) / 2
        #expect(abs(midX) < 3 && abs(midY) < 6)
    }

    @Test(arguments: ["قهوة", "שלום", "नमस्ते", "Witbier"])
    func everyScriptFindsRealGlyphs(label: String) {
        let line = shaper.shape(label, px64: 16 * 64)
        #expect(!line.glyphs.isEmpty)
        #expect(line.glyphs.allSatisfy { $0.glyph != 0 }, "a .notdef box in \(label)")
    }

    @Test func devanagariUsesAFallbackFontAndFormsConjuncts() {
        let line = shaper.shape("क्ष", px64: 16 * 64)
        #expect(line.glyphs.allSatisfy { $0.face !== shaper.primary })
        // KA + VIRAMA + SSA shape to fewer glyphs than characters when the conjunct forms.
        #expect(line.glyphs.count < 3)
    }

    @Test func hebrewComesOutRightToLeft() {
        // Visually the leftmost glyph of "שלום" is its last letter, final mem.
        let word = shaper.shape("שלום", px64: 16 * 64)
        let finalMem = shaper.shape("ם", px64: 16 * 64)
        #expect(word.glyphs.first?.glyph == finalMem.glyphs.first?.glyph)
        #expect(word.glyphs.last?.glyph == shaper.shape("ש", px64: 16 * 64).glyphs.first?.glyph)
    }

    @Test func arabicLettersJoin() {
        // Joined (initial/medial/final) forms differ from the isolated letters.
        let word = shaper.shape("سلم", px64: 16 * 64).glyphs.map(\.glyph)
        let isolated = ["م", "ل", "س"].map { shaper.shape($0, px64: 16 * 64).glyphs[0].glyph }
        #expect(word.count == 3)
        #expect(word != isolated)
    }

    @Test func kerningTightensAV() {
        let pair = text.width("AV", px: 40)
        let apart = text.width("A", px: 40) + text.width("V", px: 40)
        #expect(pair < apart - 1)
    }

    @Test func longLabelsShrinkThenEllipsize() throws {
        let radius = 30.0
        let long = "Extraordinarily long label that cannot possibly fit"
        let mask = try #require(text.fittedMask(long, nominalPx: 14, minPx: 9, radius: radius))
        #expect(Double(mask.width) <= 2 * radius + 2)
        let shortMask = try #require(text.fittedMask("IPA", nominalPx: 14, minPx: 9, radius: radius))
        #expect(shortMask.height < mask.height + 12)
    }

    @Test func missingFontIsAnErrorNamingIt() {
        #expect {
            _ = try TextRenderer(catalog: catalog, fontName: "No Such Family Sans")
        } throws: { error in
            guard let e = error as? RenderError else { return false }
            return e.kind == .fontNotFound && e.description.contains("No Such Family Sans")
        }
        #expect {
            _ = try TextRenderer(catalog: catalog, fontName: "/nonexistent/Font.ttf")
        } throws: { error in
            (error as? RenderError)?.description.contains("/nonexistent/Font.ttf") == true
        }
    }
}
