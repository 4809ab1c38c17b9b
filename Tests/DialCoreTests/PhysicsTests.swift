import Testing
@testable import DialCore

@Suite struct PhysicsTests {
    @Test func tauMatchesTheSeedsDecayTable() {
        #expect(abs(PhysicsSettings(decayPerFrame60: 0.92).tau - 0.1999) < 1e-4)
        #expect(abs(PhysicsSettings(decayPerFrame60: 0.98).tau - 0.825) < 1e-3)
        #expect(abs(PhysicsSettings(decayPerFrame60: 0.95).tau - 0.325) < 1e-3)
        #expect(abs(PhysicsSettings(decayPerFrame60: 0.85).tau - 0.103) < 1e-3)
    }

    @Test func coastMatchesThePerFrameDecayAt60Hz() {
        // The seed multiplies velocity by 0.92 every 60 Hz frame: the exact law agrees.
        var c = Coast(rotation: 0, velocity: 5, tau: PhysicsSettings().tau)
        for _ in 0..<30 { c.step(1.0 / 60) }
        #expect(abs(c.velocity - 5 * Double.pow(0.92, 30)) < 1e-9)
    }

    @Test func coastIsTheSameAtAnyStepSize() {
        let tau = PhysicsSettings().tau
        var positions: [Double] = []
        for hz in [30.0, 60, 90, 120, 144, 1000] {
            var c = Coast(rotation: 1, velocity: 7, tau: tau)
            let n = Int(hz * 0.5)
            for _ in 0..<n { c.step(0.5 / Double(n)) }
            positions.append(c.rotation)
        }
        for p in positions { #expect(abs(p - positions[0]) < 1e-12) }
        #expect(abs(positions[0] - (1 + 7 * tau * (1 - Double.exp(-0.5 / tau)))) < 1e-12)
    }

    @Test func flingLandsOnTheSlotNearestTheFreeLanding() {
        let layout = DialLayout(count: 10)
        let physics = PhysicsSettings()
        let plan = planLanding(rotation: 0.1, velocity: 8, layout: layout, physics: physics)!
        guard case .coast(let target, let v, let index) = plan else {
            Issue.record("expected a coast, got \(plan)")
            return
        }
        let free = 0.1 + 8 * physics.tau
        #expect(layout.nearestSlot(to: free)!.rotation == target)
        #expect(abs(0.1 + v * physics.tau - target) < 1e-12)
        #expect(index == layout.nearestSlot(to: free)!.index)
        #expect(v > 0)
    }

    @Test func slowReleaseEasesWithinBounds() {
        let layout = DialLayout(count: 10)
        let plan = planLanding(rotation: 0.2, velocity: 0.5, layout: layout, physics: PhysicsSettings())!
        guard case .snap(let target, let duration, _) = plan else {
            Issue.record("expected an ease, got \(plan)")
            return
        }
        #expect(abs(target) < 1e-12)  // 0.2 rad is nearer slot 0 than slot 1 (0.628 rad)
        #expect(duration >= 0.2 && duration <= 0.4)
    }

    @Test func weakFlingDoesNotReverse() {
        // 3 items: slots 2.09 rad apart. A fling that would stop short of half way eases back
        // rather than coasting backwards.
        let layout = DialLayout(count: 3)
        let plan = planLanding(rotation: 0.1, velocity: 1.6, layout: layout, physics: PhysicsSettings())!
        if case .coast = plan { Issue.record("a coast that reverses: \(plan)") }
    }

    @Test func snapEndsExactlyOnTarget() {
        var s = Snap(from: 0.3, to: 1.2, duration: 0.3)
        var last = 0.3
        for _ in 0..<7 {
            s.step(0.05)
            #expect(s.rotation >= last)
            last = s.rotation
        }
        #expect(s.isFinished && s.rotation == 1.2)
    }
}

@Suite struct AppearanceTests {
    @Test func inflateRange() {
        let inflate = Inflate()
        #expect(abs(inflate.scale(atAngle: Angle.top) - 1.33) < 1e-12)
        #expect(abs(inflate.scale(atAngle: Double.pi / 2) - 0.66) < 1e-12)
        var last = 2.0
        for k in 0...20 {
            let s = inflate.scale(atAngle: Angle.top + Double(k) * 0.1)
            #expect(s <= last + 1e-12 && s >= 0.66 && s <= 1.33)
            last = s
        }
        // Symmetric either side of the top.
        #expect(abs(inflate.scale(atAngle: Angle.top + 0.4) - inflate.scale(atAngle: Angle.top - 0.4)) < 1e-12)
    }

    @Test func revealStaggersOvershootsAndFades() {
        let reveal = RevealAnimation()
        let n = 10
        // At the start nothing is visible; later items start later.
        #expect(reveal.progress(item: 0, count: n, elapsed: 0, showing: true) == 0)
        let early = reveal.progress(item: 0, count: n, elapsed: 0.1, showing: true)
        let late = reveal.progress(item: 9, count: n, elapsed: 0.1, showing: true)
        #expect(early > late)
        // Some item travels past its place on the way out (overshoot), and all end in place.
        var overshot = false
        for k in 0...100 {
            let (radial, alpha) = reveal.pose(progress: Double(k) / 100)
            if radial > 1.0001 { overshot = true }
            #expect(alpha >= 0 && alpha <= 1)
        }
        #expect(overshot)
        for i in 0..<n {
            #expect(reveal.progress(item: i, count: n, elapsed: reveal.totalDuration, showing: true) == 1)
            #expect(reveal.progress(item: i, count: n, elapsed: reveal.totalDuration, showing: false) == 0)
        }
        // Hiding runs in reverse order: the last item leaves first.
        #expect(reveal.progress(item: 9, count: n, elapsed: 0.1, showing: false)
                < reveal.progress(item: 0, count: n, elapsed: 0.1, showing: false))
    }

    @Test func poseBuilderPlacesTheSelectedItemLargestAtTheTop() {
        let builder = PoseBuilder(layout: DialLayout(count: 10), geometry: .fitting(width: 800, height: 480, count: 10))
        let pose = builder.pose(rotation: -2 * 2 * Double.pi / 10, visibility: .shown, time: 0)
        #expect(pose.selected == 2)
        let largest = pose.items.indices.max { pose.items[$0].scale < pose.items[$1].scale }
        #expect(largest == 2)
        #expect(abs(pose.items[2].center.x - 400) < 1e-9)
        #expect(pose.items[2].center.y < 240)
    }
}
