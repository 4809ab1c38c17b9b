import Glibc
import Testing
@testable import KioskSeams
@testable import DialCore

/// The value dial is `MenuDial`'s own mode: activating a value item opens it, keys and touches
/// then turn, commit and close it, a pause commits it, and the ring gets nothing meanwhile.
@Suite struct ValueDialModeTests {
    static func tree() throws -> MenuTree {
        var volume = MenuItem(id: "volume", label: "Volume", color: RGBColor(hex: 0x336699))
        volume.value = ValueSettings(minimum: 0, maximum: 100, step: 5, unit: "%", commitAfter: 1)
        let tea = MenuItem(id: "tea", label: "Tea", color: RGBColor(hex: 0x993366))
        return try MenuTree(flat: [volume, tea])
    }

    static func dial() throws -> MenuDial {
        let tree = try tree()
        let g = DialGeometry.fitting(width: 800, height: 480, count: tree.largestRing)
        let dial = MenuDial(tree: tree, geometry: { _ in g })
        // The items fly out of the hub at start: at rest before the test begins.
        var t = 0.0
        while dial.needsFrame && t < 5 {
            t += 1.0 / 60
            _ = dial.advance(to: t)
        }
        return dial
    }

    private func values(_ events: [DialEvent]) -> [ValueDialEvent] {
        events.compactMap { if case .value(let v) = $0 { v } else { nil } }
    }

    @Test func enterOpensAStepTurnsAPauseCommitsBackCloses() throws {
        let dial = try Self.dial()
        let opened = dial.handle(.command(.activate, time: 1))
        #expect(values(opened) == [.opened(path: ["volume"], id: "volume", label: "Volume", value: 0, time: 1)])
        #expect(!opened.contains { if case .activated = $0 { true } else { false } }, "no activation: the dial opened instead")
        #expect(dial.values.open == ["volume"])
        #expect(dial.pose.valueDial?.shown == 0)

        let turned = dial.handle(.command(.step(1), time: 1.5))
        #expect(values(turned) == [.output(.changing(5), path: ["volume"], id: "volume", time: 1.5)])
        #expect(dial.selectedPath == ["volume"] && !dial.needsFrame, "the ring did not move")
        #expect(dial.valueDeadline == 1.5 + ValueSetpoint.restSeconds)

        #expect(values(dial.advanceValues(to: 1.9)) == [.output(.rest(5), path: ["volume"], id: "volume", time: 1.9)])
        #expect(values(dial.advanceValues(to: 2.5)) == [.output(.committed(5), path: ["volume"], id: "volume", time: 2.5)])
        #expect(dial.valueDeadline == nil, "optimistic: nothing waits after the commit")

        #expect(values(dial.handle(.command(.back, time: 3))) == [.closed(path: ["volume"], id: "volume", label: "Volume", time: 3)])
        #expect(dial.values.open == nil && dial.pose.valueDial == nil)
        _ = dial.handle(.command(.step(1), time: 3.5))
        #expect(dial.needsFrame, "closed, a step turns the ring again")
    }

    @Test func anUnavailableValueItemIsActivatedNotOpened() throws {
        let dial = try Self.dial()
        var live = LiveItems()
        _ = live.apply(.available(false), to: ["volume"], at: 0)
        dial.liveItems = live
        let events = dial.handle(.command(.activate, time: 1))
        #expect(events.contains { if case .activated(_, ["volume"], _) = $0 { true } else { false } }, "\(events)")
        #expect(dial.values.open == nil)
    }

    @Test func aHubTapCommitsALongPressClosesATurnAroundTheHubChangesIt() throws {
        let dial = try Self.dial()
        _ = dial.handle(.command(.activate, time: 1))
        let c = dial.geometry.center
        func touch(_ phase: TouchPhase, _ x: Double, _ y: Double, _ t: Double) -> [ValueDialEvent] {
            values(dial.handle(.touch(TouchEvent(phase: phase, x: x, y: y, time: t))))
        }
        // A quarter turn clockwise at a radius of 150 px: six detents of 15 degrees.
        let r = 150.0
        var turned: [ValueDialEvent] = touch(.down, c.x + r, c.y, 2)
        for k in 1...18 {
            let a = Double(k) * 5 * .pi / 180
            turned += touch(.motion, c.x + r * Glibc.cos(a), c.y + r * Glibc.sin(a), 2 + Double(k) * 0.02)
        }
        turned += touch(.up, c.x, c.y + r, 2.4)
        #expect(dial.values.setpoints[["volume"]]?.shown == 30, "\(turned)")
        // Moved 11 px and lifted quickly: within the ring's own tap slop, so a tap (commit).
        _ = touch(.down, c.x, c.y, 3)
        _ = touch(.motion, c.x + 11, c.y, 3.05)
        #expect(touch(.up, c.x + 11, c.y, 3.1) == [.output(.committed(30), path: ["volume"], id: "volume", time: 3.1)])
        let held = 4 + GestureSettings().longPressDuration + 0.05
        _ = touch(.down, c.x, c.y, 4)
        #expect(touch(.up, c.x, c.y, held) == [.closed(path: ["volume"], id: "volume", label: "Volume", time: held)])
    }

    @Test func theFirstKeyStillReachesTheRing() throws {
        let dial = try Self.dial()
        _ = dial.handle(.command(.activate, time: 1))
        #expect(values(dial.handle(.command(.first, time: 2))).isEmpty)
        #expect(dial.values.open == ["volume"], "`first` is the ring's; the value dial stays open")
    }

    @Test func aReloadKeepsTheSetpointsOfItemsWhoseValueDidNotChange() throws {
        let old = try Self.dial()
        _ = old.handle(.command(.activate, time: 1))
        _ = old.handle(.command(.step(2), time: 1.1))
        let kept = try Self.dial()
        kept.keepValues(of: old)
        #expect(kept.values.open == ["volume"] && kept.values.setpoints[["volume"]]?.shown == 10)

        var changed = try Self.tree()
        var items = changed.top.map(\.item)
        items[0].value?.maximum = 50
        changed = try MenuTree(flat: items)
        let g = DialGeometry.fitting(width: 800, height: 480, count: changed.largestRing)
        let other = MenuDial(tree: changed, geometry: { _ in g })
        other.keepValues(of: old)
        #expect(other.values.open == nil && other.values.setpoints.isEmpty)
    }
}
