import DialCore
@testable import DialRender
import Testing

/// Long labels: fitting used to reshape the whole remaining text once per
/// removed character (a 2,000-character label took 12.8 s for one frame). The work is counted in
/// shaped Unicode scalars, not timed.
@Suite struct LongLabelTests {
    let catalog: FontCatalog
    let text: TextRenderer

    init() throws {
        catalog = try FontCatalog()
        text = try TextRenderer(catalog: catalog, fontName: "DejaVu Sans")
    }

    static func words(_ count: Int) -> String {
        let words = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit"]
        var s = ""
        var i = 0
        while s.count < count {
            s += words[i % words.count] + " "
            i += 1
        }
        return String(s.prefix(count)).trimmingSpaces
    }

    /// The fit as it was before (every split shaped, the ellipsis found by removing one
    /// character at a time), as the specification the fast fit must agree with.
    func referenceFit(_ label: String, nominalPx: Double, minPx: Double, radius: Double) -> FittedText? {
        guard !label.isEmpty, nominalPx >= 1 else { return nil }
        func fits(_ lines: [String], _ px64: Int, _ px: Double) -> Bool {
            let w = Double(lines.map { text.shaper.shape($0, px64: px64).width64 }.max() ?? 0) / 64
            let h = px * (TextRenderer.fitHeight + TextRenderer.lineAdvance * Double(lines.count - 1))
            return (w / 2) * (w / 2) + (h / 2) * (h / 2) <= radius * radius
        }
        let chars = Array(label)
        var splits: [(Int, [String])] = []
        for (i, c) in chars.enumerated() where c == " " {
            let a = String(chars[..<i]).trimmingSpaces, b = String(chars[(i + 1)...]).trimmingSpaces
            if !a.isEmpty && !b.isEmpty { splits.append((abs(a.count - b.count), [a, b])) }
        }
        let candidates = [[label]] + splits.sorted { $0.0 < $1.0 }.map(\.1)
        var px = nominalPx
        while true {
            let px64 = Int((px * 64).rounded())
            var best: ([String], Int)?
            for lines in candidates where fits(lines, px64, px) {
                let widest = lines.map { text.shaper.shape($0, px64: px64).width64 }.max()!
                if lines.count == 1 { best = (lines, widest); break }
                if best == nil || widest < best!.1 { best = (lines, widest) }
            }
            if let best { return FittedText(lines: best.0, px64: px64) }
            if px <= minPx { break }
            px = max(minPx, px * 0.94)
        }
        let px64 = Int((minPx * 64).rounded())
        var cut = chars
        while !cut.isEmpty {
            cut.removeLast()
            while cut.last == " " { cut.removeLast() }
            if fits([String(cut) + "\u{2026}"], px64, minPx) { return FittedText(lines: [String(cut) + "\u{2026}"], px64: px64) }
        }
        return FittedText(lines: ["\u{2026}"], px64: px64)
    }

    @Test(arguments: ["IPA", "Pale lager", "English Bitter", "Extraordinarily long label", "Call the staff please",
                      "قهوة عربية مع هيل", "चाय मसाला", "a b c d e f g h i j k", LongLabelTests.words(60),
                      LongLabelTests.words(120), "Supercalifragilisticexpialidocious"])
    func fastFitAgreesWithTheOneCharacterAtATimeFit(label: String) {
        for radius in [18.0, 30, 47.5, 80] {
            for nominal in [9.0, 15, 28] {
                let fast = text.fit(label, nominalPx: nominal, minPx: min(nominal, 9), radius: radius)
                let reference = referenceFit(label, nominalPx: nominal, minPx: min(nominal, 9), radius: radius)
                #expect(fast == reference, "radius \(radius), nominal \(nominal)")
            }
        }
    }

    @Test(arguments: [2_000, 100_000])
    func longLabelFitShapesBoundedText(length: Int) throws {
        let label = Self.words(length)
        let fitted = try #require(text.fit(label, nominalPx: 15, minPx: 9, radius: 40))
        #expect(fitted.lines.count == 1 && fitted.lines[0].hasSuffix("\u{2026}") && fitted.lines[0].count > 5)
        // One shaping of the (capped) whole text and a binary search of ellipsized starts: a few
        // times the cap. Removing one character at a time shaped about length^2/2 scalars
        // (2 million for 2,000 characters).
        #expect(text.shapedScalars < 6 * TextRenderer.maximumFittedScalars, "\(text.shapedScalars) scalars shaped")
    }

    @Test(arguments: ["a" + String(repeating: "\u{301}", count: 5_000) + " end",
                      String(repeating: "a\u{301}\u{301}\u{301} ", count: 2_000)])
    func labelBeyondTheCapIsCutAndEndsInAnEllipsis(label: String) throws {
        // Combining marks have no advance, and one character may carry thousands of them: the
        // cap counts Unicode scalars, and a label cut by it always shows the ellipsis.
        let fitted = try #require(text.fit(label, nominalPx: 15, minPx: 9, radius: 60))
        #expect(fitted.lines.last?.hasSuffix("\u{2026}") == true)
        #expect(text.shapedScalars < 6 * TextRenderer.maximumFittedScalars, "\(text.shapedScalars) scalars shaped")
        #expect(text.fittedMask(label, nominalPx: 15, minPx: 9, radius: 60) != nil)
    }

    @Test func framesAfterThePainterIsBuiltDoNotReshapeLongLabels() throws {
        // Ten 2,000-character labels on a dial turning through many item sizes: each frame fits
        // labels at radii not seen before, and must not reshape the whole text for them.
        let items = (0..<10).map { MenuItem(id: "i\($0)", label: Self.words(2_000), color: RGBColor(hex: 0x3060C0)) }
        let geometry = DialGeometry.fitting(width: 800, height: 480, count: 10)
        let builder = PoseBuilder(layout: DialLayout(count: 10), geometry: geometry)
        let painter = try DialPainter(items: items, width: 800, height: 480)
        painter.prepare(for: geometry)
        var worst = 0
        for frame in 0..<90 {
            let before = painter.shapedScalars
            painter.paint(builder.pose(rotation: Double(frame) * 0.013, visibility: .shown, time: 0))
            worst = max(worst, painter.shapedScalars - before)
        }
        // A label at a new size shapes only starts near its cut (tens of characters); shaping the
        // whole text once would be 2,000 (capped at 1,024).
        #expect(worst < 10 * 200, "a frame shaped \(worst) scalars")
    }
}
