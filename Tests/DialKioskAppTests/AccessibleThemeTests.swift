import DialCore
import KioskSeams
import DialRender
import Testing
@testable import DialKioskApp
@testable import KioskRuntime
@testable import KioskConfiguration
import KioskTestSupport

/// Checked on the picture `render` paints: the high-contrast preset's labels
/// reach 7:1 (WCAG 2.x) on what is behind them, `label_scale` makes them larger, and the
/// selected item is marked by a shape (an outline) that no other item has.
@Suite struct AccessibleThemeTests {
    static let size = FrameSize(width: 1280, height: 800)

    /// The configuration `text` parsed, painted as `render` paints it at rest, and the pose.
    private func rendered(_ text: String, blankLabels: Bool = false) throws -> (frame: PixelBuffer, pose: DialPose, theme: Theme) {
        var config = try ConfigParser.parse(text, file: "a11y.yaml")
        if blankLabels { config.items = config.items.map { var item = $0; item.label = ""; return item } }
        let frame = try RenderCommand.picture(config: config, size: Self.size, rotation: .none)
        let setup = DialSetup(config: config, width: Self.size.width, height: Self.size.height)
        return (frame, setup.pose(rotation: 0), setup.theme)
    }

    /// Per label (each item's, and the hub's as index -1): the contrast ratio between the label's
    /// most covered pixel and the same pixel without any label (the disc or hub behind it), and
    /// how many pixels the label changed. Label pixels are those the labels change.
    private func labelContrasts(_ text: String) throws -> [Int: (ratio: Double, pixels: Int)] {
        let with = try rendered(text), without = try rendered(text, blankLabels: true)
        let g = with.pose.geometry
        var out: [Int: (ratio: Double, pixels: Int)] = [:]
        for y in 0..<with.frame.height {
            for x in 0..<with.frame.width where with.frame[x, y] != without.frame[x, y] {
                let p = Point(x: Double(x), y: Double(y))
                let owner: Int
                if distance(p, g.center) < g.hubRadius {
                    owner = -1
                } else {
                    owner = with.pose.items.indices.min { distance(p, with.pose.items[$0].center) < distance(p, with.pose.items[$1].center) }!
                }
                let ratio = RGBColor.contrastRatio(RGBColor(xrgb: with.frame[x, y]), RGBColor(xrgb: without.frame[x, y]))
                let old = out[owner] ?? (0, 0)
                out[owner] = (max(old.ratio, ratio), old.pixels + 1)
            }
        }
        return out
    }

    private func distance(_ a: Point, _ b: Point) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    @Test func theWCAGFormulaGivesTheKnownRatios() {
        #expect(abs(RGBColor.contrastRatio(RGBColor(hex: 0xFFFFFF), RGBColor(hex: 0)) - 21) < 1e-9)
        #expect(abs(RGBColor.contrastRatio(RGBColor(hex: 0x777777), RGBColor(hex: 0xFFFFFF)) - 4.48) < 0.01)
        #expect(RGBColor.contrastRatio(RGBColor(hex: 0x123456), RGBColor(hex: 0x123456)) == 1)
    }

    /// The demo menu's ten colours (orange, yellow, green...) are all replaced by the preset's
    /// dark disc, so every label, and the hub's, is at least 7:1 on the rendered picture.
    @Test(arguments: ["theme: high-contrast\n", "theme:\n  preset: high-contrast\n  label_scale: 1.5\n"])
    func highContrastLabelsReachSevenToOne(config: String) throws {
        let contrasts = try labelContrasts(config)
        #expect(contrasts.count == 11, "ten item labels and the hub's: \(contrasts.keys.sorted())")
        for (owner, c) in contrasts.sorted(by: { $0.key < $1.key }) {
            #expect(c.ratio >= 7, "label \(owner): \(c.ratio):1 over \(c.pixels) pixels")
            #expect(c.pixels >= 20, "label \(owner) drew \(c.pixels) pixels")
        }
    }

    /// The same measurement on the standard look, whose labels stand on the items' own colours,
    /// finds labels below 7:1: the measurement can fail.
    @Test func theStandardLookHasLabelsBelowSevenToOne() throws {
        let contrasts = try labelContrasts("theme:\n  preset: standard\n")
        #expect(contrasts.count == 11)
        #expect(contrasts.values.contains { $0.ratio < 7 }, "\(contrasts.mapValues(\.ratio))")
    }

    @Test func labelScaleMakesLabelsLarger() throws {
        let plain = try labelContrasts("theme: high-contrast\n")
        let large = try labelContrasts("theme:\n  preset: high-contrast\n  label_scale: 1.5\n")
        let before = plain.values.map(\.pixels).reduce(0, +), after = large.values.map(\.pixels).reduce(0, +)
        #expect(Double(after) > Double(before) * 1.4, "label pixels \(before) -> \(after)")
        // The hub's label has room to grow by the whole factor (about 1.5^2 in area).
        let hub = (plain[-1]?.pixels ?? 0, large[-1]?.pixels ?? 0)
        #expect(Double(hub.1) > Double(hub.0) * 1.8, "hub label pixels \(hub)")
    }

    /// Fraction of points on a circle just outside item `i`'s disc, where the selection
    /// outline is drawn, that have the selection colour.
    private func outlineCoverage(_ r: (frame: PixelBuffer, pose: DialPose, theme: Theme), item i: Int) -> Double {
        let g = r.pose.geometry, ip = r.pose.items[i]
        let radius = (g.itemRadius * ip.scale * 4).rounded() / 4
        let d = radius + 1.5 + r.theme.selectionWidth / 2
        let c = Point(x: ip.center.x.rounded(), y: ip.center.y.rounded())
        let want = r.theme.selectionColor
        var hits = 0
        let n = 90
        for k in 0..<n {
            let a = Double(k) / Double(n) * 2 * Double.pi
            let x = Int((c.x + d * Double.cos(a)).rounded()), y = Int((c.y + d * Double.sin(a)).rounded())
            let p = RGBColor(xrgb: r.frame[x, y])
            if abs(Int(p.r) - Int(want.r)) < 40 && abs(Int(p.g) - Int(want.g)) < 40 && abs(Int(p.b) - Int(want.b)) < 40 {
                hits += 1
            }
        }
        return Double(hits) / Double(n)
    }

    /// The item at 12 o'clock has a ring of the selection colour around it; no other item has
    /// one, whatever its colour.
    @Test(arguments: ["theme: high-contrast\n", "theme:\n  preset: standard\n"])
    func theSelectedItemAloneIsOutlined(config: String) throws {
        let r = try rendered(config)
        let selected = try #require(r.pose.selected)
        #expect(r.theme.selectionWidth >= 2.5)
        for i in r.pose.items.indices {
            let coverage = outlineCoverage(r, item: i)
            if i == selected {
                #expect(coverage > 0.85, "selected item \(i): outline on \(coverage) of its circle")
            } else {
                #expect(coverage < 0.15, "item \(i): outline colour on \(coverage) of its circle")
            }
        }
    }

    @Test func theHighContrastOutlineIsThickAndYellow() throws {
        let theme = Theme(preset: .highContrast)
        #expect(theme.selectionWidth >= 6)
        #expect(RGBColor.contrastRatio(theme.selectionColor, theme.backgroundBottom) >= 7)
        #expect(RGBColor.contrastRatio(theme.selectionColor, theme.itemColorOverride ?? RGBColor(hex: 0xFFFFFF)) >= 7)
    }

    @Test func theStandardThemeIsUnchanged() throws {
        for text in ["theme:\n  preset: standard\n", "theme: standard\n", "theme:\n  label: \"#FFFFFF\"\n"] {
            let theme = try ConfigParser.parse(text, file: "x").theme
            #expect(theme == Theme(), "\(text)")
        }
        #expect(Theme().labelScale == 1 && Theme().itemColorOverride == nil)
    }

    @Test func theShorthandIsThePreset() throws {
        let short = try ConfigParser.parse("theme: high-contrast\n", file: "x").theme
        #expect(short == Theme(preset: .highContrast))
        let long = try ConfigParser.parse("theme:\n  preset: high-contrast\n", file: "x").theme
        #expect(long == short)
        // Overrides on top of the preset keep the rest of it.
        let yellow = try ConfigParser.parse("theme:\n  preset: high-contrast\n  label: \"#FFFF00\"\n  label_scale: 2\n",
                                            file: "x").theme
        #expect(yellow.lightLabelColor == RGBColor(hex: 0xFFFF00) && yellow.labelScale == 2)
        #expect(yellow.itemColorOverride == ThemePreset.highContrastDisc && yellow.selectionWidth == short.selectionWidth)
    }

    @Test func badValuesAreLocatedErrors() {
        func message(_ text: String) -> String { configErrorMessage(text, file: "config.yaml") }
        #expect(message("theme: purple\n")
                == "config.yaml:1: theme: expected a mapping of keys or a preset (standard, high-contrast), got 'purple'")
        #expect(message("theme:\n  preset: neon\n")
                == "config.yaml:2: theme.preset: expected one of standard, high-contrast, got 'neon'")
        #expect(message("theme:\n  font: DejaVu Sans\n  label_scale: 4\n")
                == "config.yaml:3: theme.label_scale: expected a number between 0.5 and 3.0, got 4")
        #expect(message("theme:\n  label_scale: big\n")
                == "config.yaml:2: theme.label_scale: expected a number between 0.5 and 3.0, got 'big'")
        #expect(message("theme:\n  label_scale: 0.2\n").hasPrefix("config.yaml:2: theme.label_scale: "))
        #expect(message("theme:\n  preset: high-contrast\n  label: \"#777777\"\n")
                == "config.yaml:3: theme.label: with preset high-contrast the label on the discs must reach a contrast "
                + "of 7:1 (WCAG AAA); #777777 on #333333 is 2.8:1")
        #expect(message("theme:\n  preset: high-contrast\n  hub: \"#A0A0A0\"\n").hasPrefix("config.yaml:3: theme.hub: "))
        #expect(message("theme:\n  preset: standard\n  label: \"#777777\"\n") == "parsed without error")
    }

    @Test func checkConfigRefusesABadLabelScaleWithStatus78() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        writeFile(dir.path + "/c.yaml", "theme:\n  preset: high-contrast\n  label_scale: 9\n")
        let r = try runDialkiosk(["check-config", dir.path + "/c.yaml"])
        #expect(r.status == 78, "\(r.err)")
        #expect(r.err.contains("c.yaml:3: theme.label_scale: expected a number between 0.5 and 3.0, got 9"), "\(r.err)")
    }
}
