import Testing
@testable import DialCore

@Suite struct FrameClockSimulationTests {
    func touch(_ phase: TouchPhase, _ t: Double, x: Double = 400, y: Double = 90) -> InputEvent {
        .touch(TouchEvent(slot: 0, phase: phase, x: x, y: y, time: t))
    }

    /// Issue 10, defect 10: a sample at t=2e17 with a horizon of 1e18 s trapped converting the
    /// vblank number to an Int (status 132). The run now stops at `maximumSeconds`, saying why.
    @Test func farFutureSamplesStopTheRunAtTheHorizonWithoutATrap() throws {
        let dial = tenItemDial()
        let sim = FrameClockSimulation(refresh: 60, maxSeconds: 1e18)
        let summary = try sim.run(dial, inputs: [touch(.down, 0.1), touch(.motion, 2e17), touch(.up, 2e17)])
        #expect(summary.end == .maxSeconds)
        #expect(summary.endTime == FrameClockSimulation.maximumSeconds)
        #expect(!summary.endedAtRest)
    }

    /// Just inside the horizon, at the highest refresh `simulate` accepts, the vblank arithmetic
    /// still runs: the sample is delivered and the ring settles.
    @Test func samplesJustInsideTheHorizonAreDelivered() throws {
        let dial = tenItemDial()
        let t = FrameClockSimulation.maximumSeconds - 1
        let sim = FrameClockSimulation(refresh: 1000, maxSeconds: .infinity)
        let summary = try sim.run(dial, inputs: [touch(.down, t), touch(.up, t + 0.05)])
        #expect(summary.end == .finished)
        #expect(summary.endedAtRest)
        #expect(summary.frames > 0)
    }

    @Test func aFingerLeftDownEndsTheRunNotAtRest() throws {
        let dial = tenItemDial()
        let summary = try FrameClockSimulation().run(dial, inputs: [touch(.down, 0.1), touch(.motion, 0.2, x: 450)])
        #expect(summary.end == .finished)
        #expect(!summary.endedAtRest)
        #expect(summary.endTime >= 0.2 && summary.endTime < 0.3)
    }

    @Test func maxFramesAndMaxSecondsAreReported() throws {
        let fling = [touch(.down, 0.1, x: 600, y: 240), touch(.motion, 0.12, x: 600, y: 300), touch(.up, 0.13, x: 600, y: 320)]
        let short = try FrameClockSimulation(maxSeconds: 0.2).run(tenItemDial(), inputs: fling)
        #expect(short.end == .maxSeconds && short.endTime == 0.2 && !short.endedAtRest)
        let few = try FrameClockSimulation(maxFrames: 3).run(tenItemDial(), inputs: fling)
        #expect(few.end == .maxFrames && few.frames == 3)
        let whole = try FrameClockSimulation().run(tenItemDial(), inputs: fling)
        #expect(whole.end == .finished && whole.endedAtRest)
    }

    /// An input without a finite time is handed over at once instead of waiting forever (an
    /// up at t=+inf used to end the run with the finger still down).
    @Test func anInputWithoutAFiniteTimeIsDeliveredAtTheClock() throws {
        let dial = tenItemDial()
        let summary = try FrameClockSimulation().run(dial, inputs: [touch(.down, 0.1), touch(.up, .infinity)])
        #expect(summary.endedAtRest)
        #expect(dial.motion == .resting)
    }

    /// A throwing input source stops the run at once with its error.
    @Test func aThrowingSourceStopsTheRun() {
        struct Bad: Error {}
        var inputs = [touch(.down, 0.1), touch(.motion, 0.2, x: 500)].makeIterator()
        var frames = 0
        #expect(throws: Bad.self) {
            try FrameClockSimulation().run(tenItemDial(), next: {
                guard let input = inputs.next() else { throw Bad() }
                return input
            }, onFrame: { _, _, _ in frames += 1 })
        }
        #expect(frames >= 1)
    }
}
