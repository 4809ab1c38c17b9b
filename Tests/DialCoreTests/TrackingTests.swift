import Testing
@testable import KioskSeams
@testable import DialCore

@Suite struct RotationTrackerTests {
    let c = Point(x: 400, y: 240)

    func at(_ angle: Double, _ r: Double = 150) -> Point {
        Point(x: c.x + r * Double.cos(angle), y: c.y + r * Double.sin(angle))
    }

    @Test func grabDoesNotJump() {
        var t = RotationTracker(center: c, deadZone: 20)
        let grabbed = t.grab(at: at(2.0), rotation: 0.7)
        #expect(grabbed)
        let still = t.move(to: at(2.0), rotation: 0.7)
        #expect(still == 0.7)
        let r = t.move(to: at(2.1), rotation: 0.7)!
        #expect(abs(r - 0.8) < 1e-12)
    }

    @Test func twoFullTurnsAreExactlyFourPi() {
        var t = RotationTracker(center: c, deadZone: 20)
        let start = 0.3
        t.grab(at: at(start), rotation: 0)
        var r = 0.0
        let steps = 97  // not a divisor of anything nice: the cut is crossed between samples
        for k in 1...(2 * steps) {
            r = t.move(to: at(start + Double(k) * 2 * Double.pi / Double(steps)), rotation: r)!
        }
        #expect(abs(r - 4 * Double.pi) < 1e-12)
        // And back again, counter-clockwise, through the cut at 9 o'clock.
        for k in stride(from: 2 * steps - 1, through: 0, by: -1) {
            r = t.move(to: at(start + Double(k) * 2 * Double.pi / Double(steps)), rotation: r)!
        }
        #expect(abs(r) < 1e-12)
    }

    @Test func crossingNineOClockIsContinuous() {
        var t = RotationTracker(center: c, deadZone: 20)
        t.grab(at: at(Double.pi - 0.2), rotation: 0)
        var previous = 0.0
        for k in 1...40 {
            let r = t.move(to: at(Double.pi - 0.2 + Double(k) * 0.01), rotation: previous)!
            #expect(abs(r - previous - 0.01) < 1e-9, "step \(k) jumped by \(r - previous)")
            previous = r
        }
    }

    @Test func deadZoneHoldsAndRegrabsWithoutJump() {
        var t = RotationTracker(center: c, deadZone: 30)
        let grabbedInside = t.grab(at: Point(x: c.x + 5, y: c.y), rotation: 1)
        #expect(!grabbedInside)
        let inside = t.move(to: Point(x: c.x + 10, y: c.y + 10), rotation: 1)
        #expect(inside == nil)
        // Leaving the dead zone anywhere grabs there: the ring stays where it is.
        let regrab = t.move(to: at(2.5), rotation: 1)
        #expect(regrab == 1)
        let next = t.move(to: at(2.6), rotation: 1)!
        #expect(abs(next - 1.1) < 1e-12)
    }
}

@Suite struct VelocityEstimatorTests {
    @Test func slopeOfUniformMotion() {
        var v = VelocityEstimator()
        for k in 0...20 { v.add(time: 1 + Double(k) * 0.008, rotation: 0.5 + 3.0 * Double(k) * 0.008) }
        #expect(abs(v.velocity(at: 1.16 + 0.004) - 3.0) < 1e-9)
    }

    @Test func onlyTheLast100msCount() {
        var v = VelocityEstimator()
        // Fast for 200 ms, then slow for the last 100 ms: only the slow part counts.
        var r = 0.0
        for k in 0..<25 { r += 10 * 0.008; v.add(time: Double(k) * 0.008, rotation: r) }
        let t0 = 24 * 0.008
        for k in 1...13 { v.add(time: t0 + Double(k) * 0.008, rotation: r + 1.0 * Double(k) * 0.008) }
        #expect(abs(v.velocity(at: t0 + 13 * 0.008) - 1.0) < 1e-9)
    }

    @Test func historyStopsAtAGap() {
        var v = VelocityEstimator()
        v.add(time: 0.00, rotation: 0)
        v.add(time: 0.01, rotation: 5)   // a different motion, then a 45 ms gap
        v.add(time: 0.055, rotation: 5)
        v.add(time: 0.065, rotation: 5.02)
        v.add(time: 0.075, rotation: 5.04)
        #expect(abs(v.velocity(at: 0.075) - 2.0) < 1e-9)
    }

    @Test func restingBeforeLiftMeansZero() {
        var v = VelocityEstimator()
        for k in 0...10 { v.add(time: Double(k) * 0.01, rotation: Double(k) * 0.05) }
        #expect(v.velocity(at: 0.10 + 0.049) > 4.9)
        #expect(v.velocity(at: 0.10 + 0.051) == 0)
    }

    @Test func oneSampleIsNoVelocity() {
        var v = VelocityEstimator()
        v.add(time: 1, rotation: 1)
        #expect(v.velocity(at: 1) == 0)
    }
}
