import DialCore
import KioskSeams
import Glibc
import Testing

/// A round panel's glass: touches that begin outside the inscribed circle do nothing, with all
/// their motion; the same drag from inside turns the ring. And the description is spoken after
/// the name it explains.
@Suite struct RoundPanelTests {
    static func drag(from start: Double, x0: Double, y0: Double, g: DialGeometry) -> [InputEvent] {
        var events: [InputEvent] = [.touch(TouchEvent(phase: .down, x: x0, y: y0, time: start))]
        for k in 1...10 {
            let a = -Double.pi / 2 + Double(k) * 0.12
            events.append(.touch(TouchEvent(phase: .motion, x: g.center.x + g.ringRadius * cos(a),
                                            y: g.center.y + g.ringRadius * sin(a), time: start + Double(k) * 0.016)))
        }
        events.append(.touch(TouchEvent(phase: .up, x: g.center.x + g.ringRadius, y: g.center.y, time: start + 0.2)))
        return events
    }

    @Test func touchesOutsideTheCircleAreIgnored() throws {
        let tree = try MenuTree(flat: DemoMenu.numbered(6))
        let g = DialGeometry.fittingRound(width: 480, height: 480, count: 6)
        let dial = MenuDial(tree: tree, geometry: { _ in g })
        dial.glass = RoundFrame(width: 480, height: 480)
        // From a corner (outside the circle): nothing turns.
        for e in Self.drag(from: 1, x0: 470, y0: 10, g: g) { _ = dial.handle(e) }
        _ = dial.advance(to: 3)
        #expect(abs(dial.rotation) < 1e-9)
        // From the ring at 12 o'clock (inside): it turns.
        for e in Self.drag(from: 4, x0: g.center.x, y0: g.center.y - g.ringRadius, g: g) { _ = dial.handle(e) }
        _ = dial.advance(to: 6)
        #expect(abs(dial.rotation) > 0.1)
    }

    @Test func theDescriptionIsSpokenAfterTheName() throws {
        var coffee = MenuItem(id: "coffee", label: "Coffee", color: RGBColor(hex: 0))
        coffee.description = "Freshly ground"
        coffee.translations["de"] = ItemTexts(label: "Kaffee", description: "Frisch gemahlen")
        let tree = try MenuTree(flat: [coffee, MenuItem(id: "tea", label: "Tea", color: RGBColor(hex: 0))])
        let event = DialEvent.selected(index: 0, path: ["coffee"], time: 1)
        #expect(SpeechScript.utterance(for: [event], menu: tree) == "Coffee. Freshly ground")
        #expect(SpeechScript.utterance(for: [event], menu: tree.translated(to: "de")) == "Kaffee. Frisch gemahlen")
        #expect(SpeechScript.utterance(for: [.selected(index: 1, path: ["tea"], time: 1)], menu: tree) == "Tea")
    }
}
