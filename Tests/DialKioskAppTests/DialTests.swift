import Testing
@testable import KioskSeams
@testable import DialCore
@testable import DialKioskApp
@testable import KioskRuntime
import KioskTestSupport

@Suite struct DialFlingTests {
    /// A quarter-turn clockwise swipe released at speed, on the right side of the dial.
    func fling(_ dial: Dial, start: Double = 0.5) -> [TouchEvent] {
        var g = Gesture(center: dial.geometry.center)
        g.arc(radius: dial.geometry.ringRadius, from: -1.2, to: -1.2 + Double.pi / 2, start: start, duration: 0.12)
        return g.events
    }

    @Test(arguments: [30.0, 60, 90, 120, 144])
    func sameFlingSamePathAtAnyRefreshRate(hz: Double) {
        let probes = stride(from: 0.7, through: 2.5, by: 0.05).map { $0 }
        let reference = tenItemDial()
        let ref = VirtualRun(hz: 1000, probes: probes).run(reference, fling(reference))
        for jitter in [0.0, 0.004] {
            let dial = tenItemDial()
            let run = VirtualRun(hz: hz, jitter: jitter, seed: 7, probes: probes).run(dial, fling(dial))
            #expect(run.samples.count == ref.samples.count)
            for (a, b) in zip(run.samples, ref.samples) {
                #expect(abs(a.rotation - b.rotation) < 1e-6, "at t=\(a.t): \(a.rotation) vs \(b.rotation)")
            }
            #expect(selectedIndices(run.events) == selectedIndices(ref.events))
            #expect(dial.rotation == reference.rotation)
        }
    }

    func selectedIndices(_ events: [DialEvent]) -> [Int] {
        events.compactMap { if case .selected(let i?, _, _) = $0 { i } else { nil } }
    }

    @Test func restAngleIsTheSlotAngle() {
        let dial = tenItemDial()
        let run = VirtualRun(hz: 60).run(dial, fling(dial))
        guard case .rest(_, let rotation, let index)? = run.events.last else {
            Issue.record("no rest event: \(run.events)")
            return
        }
        let slot = dial.layout.nearestSlot(to: rotation)!
        #expect(abs(rotation - slot.rotation) < 1e-9)
        #expect(index == slot.index)
        // A clockwise fling brings earlier (counter-clockwise) items to the top: it moved.
        #expect(rotation > 0.5)
        #expect(!dial.needsFrame)
    }

    @Test func noFramesWhileAtRest() {
        let dial = tenItemDial()
        var events = fling(dial)
        // A second gesture long after the first has come to rest.
        var g = Gesture(center: dial.geometry.center)
        g.arc(radius: dial.geometry.ringRadius, from: 0, to: 0.3, start: 10, duration: 0.3, easeOut: true)
        events += g.events
        let loop = VirtualRun(hz: 60)
        let firstOnly = loop.run(tenItemDial(), fling(dial), until: 9.9)
        let both = loop.run(dial, events, until: 30)
        // Between the first rest and t=10 no frame was produced: the count only grows with the
        // second gesture, and by no more than its own duration's worth of frames.
        let restTime = firstOnly.lastFrameTime
        #expect(restTime < 5)
        #expect(both.frames > firstOnly.frames)
        #expect(both.frames - firstOnly.frames < Int((both.lastFrameTime - 10) * 60) + 3)
    }

    @Test func dragAcrossNineOClockHasNoVelocitySpike() {
        let dial = tenItemDial()
        var g = Gesture(center: dial.geometry.center)
        // Uniform 2 rad/s through the cut at pi, with the release just after crossing it.
        g.arc(radius: dial.geometry.ringRadius, from: Double.pi - 0.3, to: Double.pi + 0.05,
              start: 1, duration: 0.175, rate: 120)
        var v = VelocityEstimator()
        var tracker = RotationTracker(center: dial.geometry.center, deadZone: 10)
        var r = 0.0
        for e in g.events where e.phase != .up {
            let p = Point(x: e.x, y: e.y)
            if e.phase == .down { tracker.grab(at: p, rotation: r) } else { r = tracker.move(to: p, rotation: r)! }
            v.add(time: e.time, rotation: r)
            if e.time > 1.03 { #expect(abs(v.velocity(at: e.time) - 2.0) < 1e-6) }
        }
        // Through the whole Dial: the release speed is 2 rad/s, so it coasts only a little.
        let run = VirtualRun(hz: 60).run(dial, g.events)
        guard case .rest(_, let rotation, _)? = run.events.last else {
            Issue.record("no rest")
            return
        }
        #expect(abs(rotation - 0.35) < 0.7)
    }
}

@Suite struct DialGestureTests {
    @Test func oneSelectedPerRestOnlyOnChange() {
        let dial = tenItemDial()
        var g = Gesture(center: dial.geometry.center)
        let spacing = 2 * Double.pi / 10
        let r = dial.geometry.ringRadius
        // A slow drag of one slot counter-clockwise brings item 1 to the top...
        g.arc(radius: r, from: 0, to: -spacing, start: 1, duration: 0.6, easeOut: true)
        // ...a tiny drag that returns to the same slot selects nothing new...
        g.arc(radius: r, from: 0.5, to: 0.53, start: 3, duration: 0.4, easeOut: true)
        // ...and one slot back selects item 0 again.
        g.arc(radius: r, from: 0, to: spacing, start: 5, duration: 0.6, easeOut: true)
        let run = VirtualRun(hz: 60).run(dial, g.events)
        let selected = run.events.compactMap { if case .selected(let i?, _, _) = $0 { i } else { nil } }
        let rests = run.events.filter(\.isRest)
        #expect(selected == [1, 0])
        #expect(rests.count == 3)
    }

    @Test func tapOnAnItemTurnsItToTheTop() {
        let dial = tenItemDial()
        let target = dial.pose.items[3].center
        var g = Gesture(center: dial.geometry.center)
        g.tap(at: target, time: 1)
        let run = VirtualRun(hz: 60).run(dial, g.events)
        #expect(selected(run.events) == [3])
        #expect(dial.selectedIndex == 3)
        #expect(abs(dial.rotation - dial.layout.nearestSlot(to: dial.rotation)!.rotation) < 1e-12)
        // The short way round: three slots counter-clockwise.
        #expect(abs(dial.rotation + 3 * 2 * Double.pi / 10) < 1e-9)
    }

    /// A finger held still on the hub of a dial that detects long presses: one long press at
    /// `longPressDuration`, however long it stays; a shorter hold fires none; neither lift taps.
    @Test(arguments: [0.5, 2.0])
    func aLongPressFiresOnceWhileHeldAndItsLiftIsNoTap(hold: Double) {
        let dial = tenItemDial()
        dial.detectsLongPress = true
        let c = dial.geometry.center
        dial.advance(to: 1)
        dial.handle(.touch(TouchEvent(phase: .down, x: c.x, y: c.y, time: 1)))
        var fired: [Double] = []
        var t = 1.0
        while t < 1 + hold {
            #expect(dial.needsFrame || !fired.isEmpty, "frames while a long press may come")
            t += 1.0 / 60
            dial.advance(to: t)
            if let f = dial.takeLongPress() { fired.append(f) }
        }
        let up = dial.handle(.touch(TouchEvent(phase: .up, x: c.x, y: c.y, time: t)))
        #expect(!up.contains { if case .activated = $0 { true } else { false } })
        if hold < 0.6 {
            #expect(fired.isEmpty)
        } else {
            #expect(fired.count == 1)
            #expect(fired.allSatisfy { $0 >= 1.6 && $0 < 1.6 + 1.5 / 60 })
        }
    }

    @Test func tapInTheHubActivates() {
        let dial = tenItemDial()
        var g = Gesture(center: dial.geometry.center)
        g.tap(at: Point(x: dial.geometry.center.x + 5, y: dial.geometry.center.y - 3), time: 1)
        let run = VirtualRun(hz: 60).run(dial, g.events)
        #expect(run.events.first == .activated(index: 0, path: ["pale-lager"], time: 1.08))
        let anySelected = run.events.contains(where: \.isSelected)
        #expect(!anySelected)
    }

    @Test func onlyTheFirstFingerTurnsTheRing() {
        let solo = tenItemDial(), duo = tenItemDial()
        var g = Gesture(center: solo.geometry.center)
        g.arc(radius: solo.geometry.ringRadius, from: 0, to: 0.9, start: 1, duration: 0.5, easeOut: true)
        var second = Gesture(center: solo.geometry.center)
        second.arc(radius: solo.geometry.ringRadius, from: 2, to: 0.5, start: 1.1, duration: 0.3, slot: 1)
        let mixed = (g.events + second.events).sorted { $0.time < $1.time }
        let a = VirtualRun(hz: 60).run(solo, g.events)
        let b = VirtualRun(hz: 60).run(duo, mixed)
        #expect(solo.rotation == duo.rotation)
        #expect(a.events.last == b.events.last || solo.rotation == duo.rotation)
    }

    @Test func cancelEndsTheDragWithoutInertia() {
        let dial = tenItemDial()
        var g = Gesture(center: dial.geometry.center)
        g.arc(radius: dial.geometry.ringRadius, from: 0, to: 0.4, start: 1, duration: 0.05, lift: false)
        let last = g.events.last!
        g.events.append(TouchEvent(slot: 0, phase: .cancel, x: last.x, y: last.y, time: last.time + 0.004))
        let run = VirtualRun(hz: 60).run(dial, g.events)
        // 8 rad/s would have flung it several slots on; a cancel eases to the nearest one.
        #expect(dial.selectedIndex == 9)
        #expect(abs(dial.rotation - 2 * Double.pi / 10) < 1e-9)
        #expect(run.lastFrameTime < last.time + 0.5)
    }

    @Test func badSamplesAreDropped() {
        let dial = tenItemDial()
        let c = dial.geometry.center, r = dial.geometry.ringRadius
        let down = TouchEvent(phase: .down, x: c.x + r, y: c.y, time: 1)
        #expect(dial.handle(.touch(down)).isEmpty)
        for bad in [TouchEvent(phase: .motion, x: .nan, y: c.y, time: 1.01),
                    TouchEvent(phase: .motion, x: c.x, y: .infinity, time: 1.02),
                    TouchEvent(phase: .motion, x: 1e9, y: c.y, time: 1.03),
                    TouchEvent(phase: .motion, x: c.x, y: c.y + r, time: .nan),
                    TouchEvent(phase: .motion, x: c.x, y: c.y + r, time: 0.99)] {
            dial.handle(.touch(bad))
            #expect(dial.rotation == 0, "\(bad) turned the ring")
            #expect(dial.rotation.isFinite)
        }
        dial.handle(.touch(TouchEvent(phase: .motion, x: c.x, y: c.y + r, time: 1.05)))
        #expect(abs(dial.rotation - Double.pi / 2) < 1e-9)
    }

    /// An up or cancel is never lost: one far off the screen (a digitizer's
    /// overshoot), not finite, or without a usable time ends the drag where the finger was last
    /// seen, exactly as an up there would.
    @Test func anUnusableEndStillEndsTheDragAtTheLastPosition() {
        let ends: [(TouchPhase, Double, Double, Double)] = [
            (.up, 1e9, 240, 0.004), (.up, 3000, -2000, 0.004), (.up, -.infinity, 10, 0.004),
            (.up, .nan, .nan, 0.004), (.up, 400, 5000, .nan), (.cancel, .nan, 0, 0.004), (.cancel, 1e12, 1e12, .infinity),
        ]
        for (phase, x, y, dt) in ends {
            func drag(_ end: (Double, Double, Double)?) -> (Dial, VirtualRun.Result) {
                let dial = tenItemDial()
                var g = Gesture(center: dial.geometry.center)
                g.arc(radius: dial.geometry.ringRadius, from: 0, to: 0.5, start: 1, duration: 0.2, lift: false)
                let last = g.events.last!
                let (ex, ey, et) = end ?? (last.x, last.y, dt.isFinite ? last.time + dt : last.time)
                g.events.append(TouchEvent(slot: 0, phase: phase, x: ex, y: ey, time: et))
                return (dial, VirtualRun(hz: 60).run(dial, g.events))
            }
            let (dial, run) = drag((x, y, dt.isFinite ? 1.2 + dt : dt))
            let (reference, referenceRun) = drag(nil)
            #expect(dial.motion == .resting, "\(phase) at (\(x), \(y)) +\(dt) left \(dial.motion)")
            #expect(!dial.needsFrame)
            #expect(run.events.last == referenceRun.events.last, "\(phase) at (\(x), \(y)) +\(dt)")
            #expect(dial.rotation == reference.rotation)
        }
    }

    @Test func commandsStepOneItemEach() {
        let dial = tenItemDial()
        dial.handle(.command(.step(1), time: 1))
        dial.handle(.command(.step(1), time: 1.01))  // a second press while easing goes one further
        var t = 1.0
        var events: [DialEvent] = []
        while dial.needsFrame { t += 1.0 / 60; events += dial.advance(to: t) }
        #expect(dial.selectedIndex == 2)
        dial.handle(.command(.step(-1), time: t + 1))
        while dial.needsFrame { t += 1.0 / 60; events += dial.advance(to: t + 1) }
        #expect(dial.selectedIndex == 1)
        dial.handle(.command(.first, time: t + 2))
        while dial.needsFrame { t += 1.0 / 60; events += dial.advance(to: t + 2) }
        #expect(dial.selectedIndex == 0)
        #expect(dial.handle(.command(.activate, time: t + 3)) == [.activated(index: 0, path: ["pale-lager"], time: t + 3)])
    }

    @Test func stallsAreClamped() {
        let dial = tenItemDial()
        var g = Gesture(center: dial.geometry.center)
        g.arc(radius: dial.geometry.ringRadius, from: 0, to: 1.2, start: 1, duration: 0.1)
        for e in g.events { dial.handle(.touch(e)) }
        let before = dial.rotation
        dial.advance(to: 1.2)
        let afterFrame = dial.rotation
        // A 10 minute stall integrates no more than one clamped step.
        dial.advance(to: 600)
        let step = dial.rotation - afterFrame
        var c = Coast(rotation: 0, velocity: 1, tau: dial.physics.tau)
        c.step(0.1)
        #expect(afterFrame > before)
        #expect(dial.isAnimating)
        #expect(step > 0 && step < (afterFrame - before) * 4)
    }

    @Test func showAndHideAnimateThenStop() {
        let dial = tenItemDial()
        dial.advance(to: 0)
        dial.setShown(false, at: 0)
        var t = 0.0
        while dial.needsFrame && t < 2 { t += 1.0 / 60; dial.advance(to: t) }
        #expect(dial.visibility == .hidden)
        #expect(dial.pose.items.allSatisfy { $0.alpha == 0 })
        dial.setShown(true, at: t)
        dial.advance(to: t + 0.1)
        let mid = dial.pose
        #expect(mid.items[0].alpha > mid.items[9].alpha)
        while dial.needsFrame && t < 4 { t += 1.0 / 60; dial.advance(to: t) }
        #expect(dial.visibility == .shown)
        #expect(dial.pose.items.allSatisfy { $0.alpha == 1 })
    }
}

extension DialEvent {
    var isRest: Bool { if case .rest = self { true } else { false } }
    var isSelected: Bool { if case .selected = self { true } else { false } }
}
