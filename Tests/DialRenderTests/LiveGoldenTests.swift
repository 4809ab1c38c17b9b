import DialCore
@testable import DialRender
import Glibc
import KioskSeams
import Testing

/// Live items as the painter draws them, compared with PNGs under Golden (regenerate as
/// GoldenTests says, and look at them): a ring with a badge and an unavailable item, and an open
/// value dial, each in the standard and the high-contrast look. And the damage of a frame in
/// which only one item's state changed.
@Suite struct LiveGoldenTests {
    static let heating = ValueSettings(minimum: 16, maximum: 28, step: 0.5, unit: "°C", stateTopic: "t")
    static let items = [
        MenuItem(id: "kitchen", label: "Kitchen", color: RGBColor(hex: 0xE8B84A)),
        MenuItem(id: "coffee", label: "Coffee", color: RGBColor(hex: 0x8E4A2A)),
        { var m = MenuItem(id: "heating", label: "Heating", color: RGBColor(hex: 0xE05A5A)); m.value = heating; return m }(),
        MenuItem(id: "tea", label: "Tea", color: RGBColor(hex: 0x6BCB77)),
        MenuItem(id: "fan", label: "Fan", color: RGBColor(hex: 0x4AA3E8)),
    ]

    static func pose(width: Int, height: Int, value: Bool) -> DialPose {
        let builder = PoseBuilder(layout: DialLayout(count: items.count),
                                  geometry: .fitting(width: width, height: height, count: items.count))
        var pose = builder.pose(rotation: 0, visibility: .shown, time: 0)
        pose.states = [ItemState(text: "on"), ItemState(text: "sold out", available: false), ItemState(value: 21.5),
                       nil, ItemState(available: false)]
        if value { pose.valueDial = ValueDialPose(settings: heating, shown: 22.5, current: 20.5, label: "Heating") }
        return pose
    }

    static let cases: [(String, ThemePreset, Bool)] = [
        ("live-badges-400x400", .standard, false), ("live-badges-400x400-hc", .highContrast, false),
        ("live-value-400x400", .standard, true), ("live-value-400x400-hc", .highContrast, true),
    ]

    @Test(arguments: 0..<4)
    func frameMatchesGolden(index: Int) throws {
        let (name, preset, value) = Self.cases[index]
        let painter = try DialPainter(items: Self.items, theme: Theme(preset: preset), width: 400, height: 400)
        painter.paint(Self.pose(width: 400, height: 400, value: value))
        let frame = painter.frame
        try GoldenTests.expectGolden(frame, name: name)
    }

    /// The high-contrast look keeps an unavailable item's label at full strength on its disc:
    /// its colour is the theme's label colour over the theme's disc, 7:1 or more.
    @Test func highContrastKeepsSevenToOneOnAnUnavailableItem() throws {
        let theme = Theme(preset: .highContrast)
        let painter = try DialPainter(items: Self.items, theme: theme, width: 400, height: 400)
        let off = ItemState(available: false)
        let disc = painter.liveDiscColor(theme.itemColorOverride!.xrgb, off)
        #expect(disc == theme.itemColorOverride!.xrgb)
        #expect(painter.liveLabelAlpha(255, off) == 255)
        #expect(RGBColor.contrastRatio(RGBColor(hex: disc), theme.lightLabelColor) >= 7)
        // The standard look dims it.
        let standard = try DialPainter(items: Self.items, width: 400, height: 400)
        #expect(standard.liveDiscColor(0xE8B84A, off) != 0xE8B84A)
    }

    /// A frame in which only one item's state changed is damaged in that item's rectangle (and
    /// the hub's, when the selected item's text changed), not around the whole ring; its pixels
    /// elsewhere are the same as before.
    @Test func aStateChangeDamagesOnlyItsItem() throws {
        let painter = try DialPainter(items: Self.items, width: 400, height: 400)
        var pose = Self.pose(width: 400, height: 400, value: false)
        painter.paint(pose)
        painter.paint(pose)
        let before = painter.frame
        pose.states[3] = ItemState(text: "brewing")
        let damage = try #require(painter.paint(pose))
        #expect(!damage.isEmpty)
        let tea = pose.items[3].center
        func holds(_ p: Point) -> Bool {
            damage.contains { Double($0.x0) <= p.x && p.x < Double($0.x1) && Double($0.y0) <= p.y && p.y < Double($0.y1) }
        }
        #expect(holds(tea))
        for i in [0, 1, 2, 4] { #expect(!holds(pose.items[i].center), "item \(i) damaged") }
        #expect(!holds(pose.geometry.center), "the hub shows the selected item, not tea")
        // Every pixel that changed lies inside the damage.
        var outside = 0
        for y in 0..<400 {
            for x in 0..<400 where before[x, y] != painter.frame[x, y] {
                if !damage.contains(where: { $0.x0 <= x && x < $0.x1 && $0.y0 <= y && y < $0.y1 }) { outside += 1 }
            }
        }
        #expect(outside == 0)
        // The badge changed pixels in it.
        var changed = 0
        for y in 0..<400 { for x in 0..<400 where before[x, y] != painter.frame[x, y] { changed += 1 } }
        #expect(changed > 20)
        // An unchanged frame damages nothing.
        #expect(painter.paint(pose) == [])
    }
}
