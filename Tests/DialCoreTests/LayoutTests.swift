import Testing
@testable import KioskSeams
@testable import DialCore

@Suite struct LayoutTests {
    /// Seed 001's table: 8 icons clockwise from 12 o'clock, centre (200, 200), radius 120.
    @Test func seed001EightIconTable() {
        let layout = DialLayout(count: 8)
        let expected: [(Double, Double)] = [(200, 80), (284.85, 115.15), (320, 200), (284.85, 284.85),
                                            (200, 320), (115.15, 284.85), (80, 200), (115.15, 115.15)]
        for (i, e) in expected.enumerated() {
            let p = layout.position(of: i, rotation: 0, center: Point(x: 200, y: 200), radius: 120)
            #expect(abs(p.x - e.0) < 0.01, "item \(i) x \(p.x)")
            #expect(abs(p.y - e.1) < 0.01, "item \(i) y \(p.y)")
        }
        let angles = [-1.5708, -0.7854, 0, 0.7854, 1.5708]
        for (i, a) in angles.enumerated() {
            #expect(abs(layout.angle(of: i, rotation: 0) - a) < 1e-4)
        }
    }

    @Test func counterclockwiseMirrorsAcrossTheVertical() {
        let cw = DialLayout(count: 6), ccw = DialLayout(count: 6, direction: .counterclockwise)
        let c = Point(x: 0, y: 0)
        for i in 0..<6 {
            let a = cw.position(of: i, rotation: 0, center: c, radius: 1)
            let b = ccw.position(of: i, rotation: 0, center: c, radius: 1)
            #expect(abs(a.x + b.x) < 1e-12 && abs(a.y - b.y) < 1e-12)
        }
    }

    @Test func customOffsetsAndStartAngle() {
        let layout = DialLayout(count: 3, startAngle: 0, customOffsets: [0, 0.5, 2])
        #expect(abs(layout.angle(of: 1, rotation: 0.25) - 0.75) < 1e-15)
        // Item 2 sits at angle 2; the top is -pi/2, so it rests at rotation -pi/2 - 2 (mod 2 pi).
        let r = layout.restRotation(of: 2)
        #expect(abs(Angle.wrap(layout.angle(of: 2, rotation: r) - Angle.top)) < 1e-12)
    }

    @Test func nearestSlotAndSelection() {
        let layout = DialLayout(count: 10)
        let spacing = 2 * Double.pi / 10
        // Turning the ring clockwise by one slot brings the last item to the top.
        #expect(layout.selectedIndex(rotation: spacing) == 9)
        #expect(layout.selectedIndex(rotation: -spacing) == 1)
        #expect(layout.selectedIndex(rotation: -spacing * 0.49) == 0)
        #expect(layout.selectedIndex(rotation: -spacing * 0.51) == 1)
        // Many turns away, the exact congruent slot is found.
        let slot = layout.nearestSlot(to: 7 * 2 * Double.pi - 3.02 * spacing)!
        #expect(slot.index == 3)
        #expect(abs(slot.rotation - (7 * 2 * Double.pi - 3 * spacing)) < 1e-9)
    }

    @Test func steppingWalksOneItemAtATime() {
        let layout = DialLayout(count: 4)
        var r = 0.0
        var seen: [Int] = []
        for _ in 0..<5 {
            let s = layout.slot(steppedBy: 1, from: r)!
            #expect(s.rotation < r)  // later items come to the top by turning counter-clockwise
            #expect(abs(abs(s.rotation - r) - Double.pi / 2) < 1e-9)
            seen.append(s.index)
            r = s.rotation
        }
        #expect(seen == [1, 2, 3, 0, 1])
        let back = layout.slot(steppedBy: -1, from: r)!
        #expect(back.index == 0 && back.rotation > r)
    }
}
