import DialCore
@testable import KioskSeams
@testable import DialRender
import Testing

/// One painter for every ring of a nested menu.
@Suite struct MenuPainterTests {
    static func item(_ id: String, _ hex: UInt32, icon: String? = nil) -> MenuItem {
        MenuItem(id: id, label: id.capitalized, color: RGBColor(hex: hex), iconPath: icon)
    }

    /// top: drinks (coffee, tea), snacks
    static func tree(icon: String? = nil) throws -> MenuTree {
        try MenuTree([MenuNode(item("drinks", 0x4AA3E8), children: [MenuNode(item("coffee", 0x8E4A2A)),
                                                                   MenuNode(item("tea", 0x6BCB77, icon: icon))]),
                      MenuNode(item("snacks", 0xE05A5A))])
    }

    static let size = (w: 320, h: 240)
    static func pose(_ ring: MenuPath, slots: Int, rotation: Double = 0, visibility: Visibility = .shown) -> DialPose {
        let g = DialGeometry.fitting(width: size.w, height: size.h, count: 3)
        var pose = PoseBuilder(layout: DialLayout(count: slots), geometry: g).pose(rotation: rotation, visibility: visibility, time: 0)
        pose.ring = ring
        return pose
    }

    @Test func aRingBelowTheTopPaintsItsItemsAndTheHubShowsTheItemThatOpenedIt() throws {
        let tree = try Self.tree()
        let painter = try DialPainter(menu: tree, width: Self.size.w, height: Self.size.h)
        let drinks = Self.pose(["drinks"], slots: 3)
        painter.paint(Self.pose(.top, slots: 2))
        let top = painter.frame
        painter.paint(drinks)
        #expect(!painter.frame.samePixels(as: top))
        // The same slots painted by a painter of that one ring: the same picture but for the
        // hub's label (the selected slot's there, the item drinks's here).
        let single = try DialPainter(items: tree.slotItems(ofRing: ["drinks"])!, width: Self.size.w, height: Self.size.h)
        var flat = drinks
        flat.ring = .top
        single.paint(flat)
        let g = drinks.geometry
        var insideHub = 0
        for y in 0..<Self.size.h {
            for x in 0..<Self.size.w where painter.frame[x, y] != single.frame[x, y] {
                let d = Point(x: Double(x), y: Double(y)).distance(to: g.center)
                #expect(d < g.hubRadius, "(\(x), \(y)) differs outside the hub")
                if d >= g.hubRadius { return }
                insideHub += 1
            }
        }
        #expect(insideHub > 50, "the hub shows another label")
    }

    @Test func aBadIconOnAnyRingIsRefusedAtSetup() throws {
        let tree = try Self.tree(icon: "/nonexistent/tea.png")
        do {
            _ = try DialPainter(menu: tree, width: 64, height: 64)
            Issue.record("a missing icon on ring drinks was accepted")
        } catch let error as RenderError {
            #expect("\(error)".contains("icon of item 'drinks/tea' from /nonexistent/tea.png"), "\(error)")
        }
    }

    /// Through a whole ring change, every pixel that changed lies in the damage painted.
    @Test func damageCoversARingChange() throws {
        let tree = try Self.tree()
        let g = DialGeometry.fitting(width: Self.size.w, height: Self.size.h, count: tree.largestRing)
        let dial = MenuDial(tree: tree, geometry: { _ in g })
        let painter = try DialPainter(menu: tree, width: Self.size.w, height: Self.size.h)
        var t = 1.0
        dial.advance(to: t)
        painter.paint(dial.pose)
        _ = dial.handle(.command(.activate, time: t))
        var rings: Set<MenuPath> = []
        while dial.needsFrame && t < 5 {
            t += 1.0 / 60
            dial.advance(to: t)
            let before = painter.frame
            let damage = try #require(painter.paint(dial.pose), "one geometry: no full repaint")
            rings.insert(dial.pose.ring)
            var covered = [Bool](repeating: false, count: Self.size.w * Self.size.h)
            for r in damage {
                let c = r.clipped(width: Self.size.w, height: Self.size.h)
                guard !c.isEmpty else { continue }
                for y in c.y0..<c.y1 { for x in c.x0..<c.x1 { covered[y * Self.size.w + x] = true } }
            }
            for y in 0..<Self.size.h {
                for x in 0..<Self.size.w where painter.frame[x, y] != before[x, y] && !covered[y * Self.size.w + x] {
                    Issue.record("(\(x), \(y)) changed outside the damage at \(t)")
                    return
                }
            }
        }
        #expect(rings == [.top, ["drinks"]])
    }
}
