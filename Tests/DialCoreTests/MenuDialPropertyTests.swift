import Foundation
import Testing
@testable import KioskSeams
@testable import DialCore

/// Generated input through a `MenuDial`: a flat one against today's `Dial`, and nested ones on
/// random walks. Set DIALKIOSK_PROPERTY_SEED to replay one failing seed.
@Suite struct MenuDialPropertyTests {
    func seeds(_ count: UInt64) -> [UInt64] {
        let fixed = ProcessInfo.processInfo.environment["DIALKIOSK_PROPERTY_SEED"].flatMap { UInt64($0) }
        return fixed.map { [$0] } ?? Array(1...count)
    }

    /// The same generated streams (with the field's bad samples), frames, `select`, show and
    /// hide into a `Dial` and a flat `MenuDial`: the same events and the same poses throughout.
    @Test func aFlatMenuDialIsTheDial() throws {
        let items = DemoMenu.items
        let g = DialGeometry.fitting(width: 800, height: 480, count: items.count)
        let tree = try MenuTree(flat: items)
        var failures: [String] = []
        for seed in seeds(120) {
            var gen = StreamGenerator(seed: seed)
            let inputs = gen.generate()
            var rng = SplitMix64(seed: seed &* 7919)
            let plain = Dial(items: items, geometry: g, initialIndex: 4)
            let menu = MenuDial(tree: tree, geometry: { _ in g }, defaultItem: items[4].id)
            var t = 0.0
            func compare(_ a: [DialEvent], _ b: [DialEvent], _ what: String) -> Bool {
                guard a == b, plain.pose == menu.pose, plain.needsFrame == menu.needsFrame,
                      plain.selectedIndex == menu.selectedIndex else {
                    failures.append("seed \(seed) at \(t) after \(what): \(a) vs \(b); \(plain.pose == menu.pose) "
                                    + "\(plain.needsFrame) \(menu.needsFrame) \(plain.selectedIndex == menu.selectedIndex)")
                    return false
                }
                return true
            }
            func frames(until end: Double) -> Bool {
                var n = 0
                while t + 1.0 / 60 <= end, n < 400 {
                    t += 1.0 / 60
                    n += 1
                    guard compare(plain.advance(to: t), menu.advance(to: t), "a frame") else { return false }
                }
                if end.isFinite { t = max(t, end) }
                return true
            }
            streamLoop: for input in inputs {
                guard frames(until: input.time) else { break }
                guard compare(plain.handle(input), menu.handle(input), "\(input)") else { break }
                switch Int.random(in: 0..<40, using: &rng) {
                case 0:
                    let i = Int.random(in: -1...10, using: &rng)
                    guard compare(plain.select(index: i, at: t), menu.select(index: i, at: t), "select \(i)") else { break streamLoop }
                case 1:
                    let shown = Bool.random(using: &rng)
                    plain.setShown(shown, at: t)
                    menu.setShown(shown, at: t)
                    guard compare([], [], "shown \(shown)") else { break streamLoop }
                case 2:
                    guard compare(plain.select(index: 4, at: t), menu.returnToTop(at: t), "return to top") else { break streamLoop }
                default:
                    break
                }
            }
            _ = frames(until: t + 5)
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
    }

    /// Random menus and everything a person or the socket can do, with frames between: the
    /// dial always ends at rest on a ring of the tree with a slot of it at the top, shows that
    /// ring, and its events nest (every ring closed was the innermost open one).
    @Test func randomNavigationEndsOnAValidRingAndItem() throws {
        var failures: [String] = []
        for seed in seeds(200) {
            var gen = MenuWalkGenerator(seed: seed)
            let tree = try MenuTree(gen.tree())
            let paths = tree.ringPaths.flatMap { tree.slots(ofRing: $0) ?? [] }
            let rig = MenuRig(tree)
            var open: [MenuPath] = []
            func fail(_ what: String) { failures.append("seed \(seed): \(what)") }
            func check(_ events: ArraySlice<DialEvent>) {
                for e in events {
                    switch e {
                    case .opened(let p, _):
                        if p.parent != (open.last ?? .top) { fail("opened \(p) inside \(open)") }
                        open.append(p)
                    case .closed(let p, _):
                        if open.last != p { fail("closed \(p) while \(open) are open") }
                        open.removeLast()
                    case .selected(let i, let p, _), .activated(let i, let p, _):
                        if p.parent != (open.last ?? .top) || !tree.isSlot(p) { fail("\(e) inside \(open)") }
                        if i != tree.index(of: p) { fail("\(e): index") }
                    case .rest, .value:
                        break
                    }
                }
            }
            for _ in 0..<60 {
                let before = rig.events.count
                switch gen.int(0...11) {
                case 0, 1: rig.tapHub()
                case 2:
                    _ = rig.touch(.down, at: rig.geometry.center)
                    for _ in 0..<gen.int(20...50) { rig.frame() }
                    _ = rig.touch(.up, at: rig.geometry.center)
                case 3: _ = rig.command(.step(gen.int(-3...3)))
                case 4: _ = rig.command(.activate)
                case 5: _ = rig.command(.back)
                case 6: rig.events += rig.dial.select(path: gen.chance(0.1) ? ["no", "such"] : paths[gen.int(0...paths.count - 1)], at: rig.t) ?? []
                case 7: rig.events += rig.dial.returnToTop(at: rig.t)
                case 8: rig.dial.setShown(gen.chance(0.7), at: rig.t)
                case 9:
                    // A drag on the ring.
                    let r = rig.geometry.ringRadius, c = rig.geometry.center
                    let a0 = Double(gen.int(0...628)) / 100, a1 = a0 + Double(gen.int(-300...300)) / 100
                    for k in 0...10 {
                        let a = a0 + (a1 - a0) * Double(k) / 10
                        _ = rig.touch(k == 0 ? .down : .motion, at: Point(x: c.x + r * Double.cos(a), y: c.y + r * Double.sin(a)))
                        rig.t += 0.01
                    }
                    _ = rig.touch(.up, at: Point(x: c.x + r * Double.cos(a1), y: c.y + r * Double.sin(a1)))
                default:
                    for _ in 0..<gen.int(0...40) { rig.frame() }
                }
                check(rig.events[before...])
            }
            rig.dial.setShown(true, at: rig.t)
            let before = rig.events.count
            rig.settle(10)
            check(rig.events[before...])
            let d = rig.dial
            let slots = tree.slots(ofRing: d.ring) ?? []
            if d.needsFrame { fail("still moving") }
            if slots.isEmpty { fail("on \(d.ring), not a ring of the tree") }
            if open != d.ring.prefixes { fail("events left \(open) open, the dial is on \(d.ring)") }
            if d.pose.ring != d.ring || d.pose.items.count != slots.count || d.pose.visibility != 1 {
                fail("shows \(d.pose.ring) with \(d.pose.items.count) items at \(d.pose.visibility) on \(d.ring)")
            }
            guard let selected = d.selectedPath, let slot = d.dial.selectedIndex else {
                fail("nothing selected")
                continue
            }
            if slots.firstIndex(of: selected) != slot || d.pose.selected != slot {
                fail("the dial rests on slot \(slot), the menu says \(selected)")
            }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
    }
}
