import DialCore
@testable import DialRender
import KioskSeams
import Testing

/// The words around the dial (title, hint, description) fitted to their boxes, digits inside
/// right-to-left text, and a round panel: nothing but background outside its inscribed circle.
@Suite struct WordsAndRoundTests {
    let catalog: FontCatalog
    let text: TextRenderer

    init() throws {
        catalog = try FontCatalog()
        text = try TextRenderer(catalog: catalog, fontName: "DejaVu Sans")
    }

    @Test func digitsInArabicReadLeftToRight() throws {
        let shaper = TextShaper(catalog: catalog, primary: try catalog.face(named: "DejaVu Sans"))
        let line = shaper.shape("طازجة 2.50", px64: 20 * 64)
        // Clusters are scalar offsets: '2' is scalar 6, '5' scalar 8, '0' scalar 9.
        func x(_ cluster: Int) throws -> Int { try #require(line.glyphs.first { $0.cluster == cluster }).x64 }
        let two = try x(6), five = try x(8), zero = try x(9), word = try x(0)
        #expect(two < five)
        #expect(five < zero)
        // And the number stands left of the Arabic word it follows.
        #expect(zero < word)
    }

    @Test func bandLineShrinksThenEllipsisesAtACharacter() throws {
        let short = text.bandLine("Turn the ring", nominalPx: 30, minPx: 12, width: 400)
        #expect(!short.ellipsised)
        let shortMask = try #require(short.mask)
        #expect(shortMask.width <= 400)
        let long = String(repeating: "Turn the ring, tap the centre. ", count: 80)
        let cut = text.bandLine(long, nominalPx: 30, minPx: 12, width: 400)
        #expect(cut.ellipsised)
        let cutMask = try #require(cut.mask)
        #expect(cutMask.width <= 400)
    }

    @Test func longDescriptionIsCutInsideTheHub() throws {
        let g = DialGeometry.fitting(width: 800, height: 480, count: 6)
        let long = String(repeating: "Freshly ground arabica, ", count: 80)
        let fitted = HubWords.fitDescription(text, long, theme: Theme(), geometry: g)
        #expect(fitted.ellipsised)
        let mask = try #require(fitted.mask)
        // The description's circle sits inside the hub.
        let reach = Double(max(mask.width, mask.height)) / 2
        #expect(HubWords.description.dy * g.hubRadius + reach <= g.hubRadius)
        #expect(!HubWords.fitDescription(text, "2.50", theme: Theme(), geometry: g).ellipsised)
    }

    /// Every frame of a spin and of the show and hide animations on a round panel: no pixel
    /// whose centre is outside the inscribed circle differs from the plain background, and the
    /// discs keep 4% of the radius from the edge.
    @Test(arguments: [(480, 480, 6), (1080, 1080, 12), (600, 480, 3)])
    func roundPanelPaintsOnlyBackgroundOutsideItsCircle(width: Int, height: Int, count: Int) throws {
        let items = DemoMenu.numbered(count)
        let g = DialGeometry.fittingRound(width: width, height: height, count: count)
        let painter = try DialPainter(items: items, width: width, height: height)
        painter.words = try DialWords(theme: Theme(), shape: .round, title: LocalizedText("Title"), hint: LocalizedText("Hint"))
        var plain = PixelBuffer(width: width, height: height)
        plain.fillVerticalGradient(top: Theme().backgroundTop, bottom: Theme().backgroundBottom)
        let round = RoundFrame(width: width, height: height)
        let builder = PoseBuilder(layout: DialLayout(count: count), geometry: g)
        var poses: [DialPose] = []
        for k in 0..<16 { poses.append(builder.pose(rotation: Double(k) * 0.41, visibility: .shown, time: 0)) }
        let total = builder.reveal.totalDuration
        for k in 0...10 {
            let t = Double(k) / 10 * total
            poses.append(builder.pose(rotation: 0.1, visibility: .showing(since: 0), time: t))
            poses.append(builder.pose(rotation: -0.4, visibility: .hiding(since: 0), time: t))
        }
        // Outside the circle: the plain background. In the margin (the outer 4% of the
        // radius): what the painter draws with no item shown (its glow).
        var outsidePixels: [(Int, Int)] = [], marginPixels: [(Int, Int)] = []
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x) + 0.5 - round.center.x, dy = Double(y) + 0.5 - round.center.y
                let d2 = dx * dx + dy * dy
                if d2 > round.radius * round.radius {
                    outsidePixels.append((x, y))
                } else if d2 > round.radius * round.radius * 0.96 * 0.96 {
                    marginPixels.append((x, y))
                }
            }
        }
        painter.paint(builder.pose(rotation: 0, visibility: .hidden, time: 0))
        let empty = painter.frame
        for pose in poses {
            for item in pose.items where item.alpha > 0 {
                let dx = item.center.x - round.center.x, dy = item.center.y - round.center.y
                let edge = (dx * dx + dy * dy).squareRoot() + g.itemRadius * item.scale
                #expect(edge <= round.radius * 0.96, "a disc reaches \(edge) of \(round.radius)")
            }
            painter.paint(pose)
            let outside = outsidePixels.filter { painter.frame[$0.0, $0.1] != plain[$0.0, $0.1] }.count
            #expect(outside == 0, "\(outside) pixels outside the circle differ from the background")
            let inMargin = marginPixels.filter { painter.frame[$0.0, $0.1] != empty[$0.0, $0.1] }.count
            #expect(inMargin == 0, "\(inMargin) pixels drawn in the outer 4% of the circle")
        }
    }
}
