import Testing
@testable import KioskSeams
@testable import DialCore
@testable import DialKioskApp
@testable import KioskRuntime
import KioskTestSupport

/// The frame loop on the virtual display and clock, as `simulate` runs it: how a run ends.
@Suite struct VirtualRunTests {
    func touch(_ phase: TouchPhase, _ t: Double, x: Double = 400, y: Double = 90) -> InputEvent {
        .touch(TouchEvent(slot: 0, phase: phase, x: x, y: y, time: t))
    }

    /// A sample at t=2e17 with a horizon of 1e18 s trapped converting the
    /// vblank number to an Int (status 132). The run now stops at `maximumSeconds`, saying why.
    @Test func farFutureSamplesStopTheRunAtTheHorizonWithoutATrap() throws {
        let run = try VirtualRun(hz: 60).run(tenItemDial(), inputs: [touch(.down, 0.1), touch(.motion, 2e17), touch(.up, 2e17)],
                                             until: 1e18)
        #expect(run.ending == .timerExpired)
        #expect(run.endTime == VirtualTime.maximumSeconds)
        #expect(run.fingersDown == [0])
    }

    /// Just inside the horizon, at the highest refresh `simulate` accepts, the vblank arithmetic
    /// still runs: the sample is delivered and the ring settles.
    @Test func samplesJustInsideTheHorizonAreDelivered() throws {
        let dial = tenItemDial()
        let t = VirtualTime.maximumSeconds - 1
        let run = try VirtualRun(hz: 1000).run(dial, inputs: [touch(.down, t), touch(.up, t + 0.05)])
        #expect(run.ending == .quiet)
        #expect(run.fingersDown.isEmpty && dial.motion == .resting)
        #expect(run.frames > 0)
    }

    @Test func aFingerLeftDownEndsTheRunNotAtRest() throws {
        let run = try VirtualRun(hz: 60).run(tenItemDial(), inputs: [touch(.down, 0.1), touch(.motion, 0.2, x: 450)])
        #expect(run.ending == .quiet)
        #expect(run.fingersDown == [0])
        #expect(run.endTime >= 0.2 && run.endTime < 0.3)
    }

    @Test func maxFramesAndMaxSecondsAreReported() throws {
        let fling = [touch(.down, 0.1, x: 600, y: 240), touch(.motion, 0.12, x: 600, y: 300), touch(.up, 0.13, x: 600, y: 320)]
        let short = try VirtualRun(hz: 60).run(tenItemDial(), inputs: fling, until: 0.2)
        #expect(short.ending == .timerExpired && short.endTime == 0.2)
        let few = try VirtualRun(hz: 60, maxFrames: 3).run(tenItemDial(), inputs: fling)
        #expect(few.ending == .timerExpired && few.frames == 3)
        let dial = tenItemDial()
        let whole = try VirtualRun(hz: 60).run(dial, inputs: fling)
        #expect(whole.ending == .quiet && dial.motion == .resting && !dial.isAnimating)
    }

    /// An input without a finite time is handed over at once instead of waiting forever (an
    /// up at t=+inf used to end the run with the finger still down).
    @Test func anInputWithoutAFiniteTimeIsDeliveredAtTheClock() throws {
        let dial = tenItemDial()
        let run = try VirtualRun(hz: 60).run(dial, inputs: [touch(.down, 0.1), touch(.up, .infinity)])
        #expect(run.fingersDown.isEmpty)
        #expect(dial.motion == .resting)
    }

    /// A throwing input source stops the run at once with its error.
    @Test func aThrowingSourceStopsTheRun() {
        struct Bad: Error {}
        var inputs = [touch(.down, 0.1), touch(.motion, 0.2, x: 500)].makeIterator()
        #expect(throws: Bad.self) {
            try VirtualRun(hz: 60).run(tenItemDial(), until: 100) {
                guard let input = inputs.next() else { throw Bad() }
                return input
            }
        }
    }
}
