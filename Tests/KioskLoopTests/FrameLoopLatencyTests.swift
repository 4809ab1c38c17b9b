import Testing
import Glibc
import DialCore
@testable import KioskSeams
@testable import KioskLoop
import KioskTestSupport

/// A dial that needs a frame while `moving` and records the input it was fed.
private final class MovingDial: StandInDial {
    var moving = true
    var handled: [Double] = []
    func handle(_ event: InputEvent) -> [DialEvent] {
        handled.append(event.time)
        return []
    }
    var needsFrame: Bool { moving }
}

/// Input-to-flip latency and render late through the loop, on a fake clock: 50 Hz (20 ms
/// periods), paints of 3 ms, the 2 ms margin, so a frame after a flip at T starts at T + 15 ms.
@Suite struct FrameLoopLatencyTests {
    let period = 0.020
    let paint = 0.003

    /// The loop with its pipes and fake clock, started at 1.000 (the first frame goes out at
    /// once; its paint is the render-late history).
    private final class Rig {
        let display = PipeDisplay(), dial = MovingDial(), input = PipeInput(), clock = FakeClock()
        let signals = PipeSignals()
        var lines: [String] = []
        var loop: FrameLoop!

        init(renderLate: Bool, period: Double, paint: Double) throws {
            let clock = self.clock
            let scene = Scene(dial: dial) { _, _ in
                clock.now += paint
                return nil
            }
            loop = FrameLoop(output: LoopOutput(presenter: display),
                             sources: FrameLoop.sources(signals: signals, displays: [display], inputs: [input]),
                             scene: scene, now: { clock.now },
                             pacing: LoopPacing(schedule: FrameSchedule(refreshPeriod: period),
                                                renderLate: renderLate ? RenderLateSchedule() : nil,
                                                stats: FrameStats(refreshPeriod: period)),
                             log: { [unowned self] in self.lines.append($0) })
            clock.now = 1.0
            try loop.start(at: 1.0)
        }
    }

    private func rig(renderLate: Bool) throws -> Rig {
        try Rig(renderLate: renderLate, period: period, paint: paint)
    }

    /// Start at 1.000 (the first frame is queued at once), flips every 20 ms from 1.020, one
    /// touch sample at 1.030 (10 ms after a flip), the dial rests after the flip at `restAfter`.
    private func drive(renderLate: Bool) throws -> (lines: [String], presents: [Double]) {
        let r = try rig(renderLate: renderLate)
        let (display, dial, input, clock, loop) = (r.display, r.dial, r.input, r.clock, r.loop!)
        var presents = [1.000]
        var flip = 1.020
        var sent = false
        // Walk the clock in 1 ms turns, as poll's timeouts would.
        while clock.now < 1.100 {
            clock.now = (clock.now * 1000 + 1).rounded() / 1000
            let before = display.presents, turn = clock.now
            if abs(clock.now - flip) < 1e-9, loop.awaitsFlip {
                dial.moving = flip < 1.075
                display.report(.frameShown(time: flip))
                flip += period
            } else if abs(clock.now - flip) < 1e-9 {
                flip += period
            }
            if !sent && clock.now >= 1.030 - 1e-9 {
                input.send([.touch(TouchEvent(phase: .motion, x: 1, y: 1, time: 1.030))])
                sent = true
            }
            _ = try loop.step(timeoutMS: 0)
            if display.presents > before { presents.append(turn) }
        }
        #expect(dial.handled == [1.030])
        return (r.lines, presents)
    }

    /// Times on the loop's 1 ms turns: within one turn of `want` (sums of binary fractions).
    private func near(_ got: [Double], _ want: [Double]) -> Bool {
        got.count == want.count && zip(got, want).allSatisfy { abs($0 - $1) < 0.0011 }
    }

    @Test func paintingAtOnceShowsASampleAfterAFlipOneAndAHalfPeriodsLater() throws {
        let (lines, presents) = try drive(renderLate: false)
        // Each frame is queued in the turn of the previous flip.
        #expect(near(presents, [1.000, 1.020, 1.040, 1.060]))
        // The sample at 1.030 is in the frame queued at 1.040, shown at 1.060.
        #expect(lines.last == "stats: idle at 1.080 s after 4 flips, 0 flips/s until input, "
                + "latency p50=30.00 p95=30.00 max=30.00 ms (1.50/1.50/1.50 periods, 1 frames)")
    }

    @Test func renderLateShowsItAtTheNextFlip() throws {
        let (lines, presents) = try drive(renderLate: true)
        // The first frame at once; after each flip at T, the paint starts at T + 15 ms.
        #expect(near(presents, [1.000, 1.035, 1.055, 1.075]))
        #expect(lines.last == "stats: idle at 1.080 s after 4 flips, 0 flips/s until input, "
                + "latency p50=10.00 p95=10.00 max=10.00 ms (0.50/0.50/0.50 periods, 1 frames)")
    }

    @Test func theFirstFrameAfterRestGoesOutAtOnce() throws {
        let r = try rig(renderLate: true)
        let (display, dial, input, clock, loop) = (r.display, r.dial, r.input, r.clock, r.loop!)
        dial.moving = false
        clock.now = 1.020
        display.report(.frameShown(time: 1.020))
        _ = try loop.step(timeoutMS: 0)
        #expect(loop.schedule.state == .idle)
        dial.moving = true
        clock.now = 1.500
        input.send([.touch(TouchEvent(phase: .down, x: 1, y: 1, time: 1.500))])
        _ = try loop.step(timeoutMS: 0)
        #expect(display.presents == 2)
        #expect(loop.awaitsFlip)
    }

    @Test func theWaitIsAPollTimeout() throws {
        let r = try rig(renderLate: true)
        let (display, clock, loop) = (r.display, r.clock, r.loop!)
        clock.now = 1.021
        display.report(.frameShown(time: 1.020))
        _ = try loop.step(timeoutMS: 0)
        #expect(display.presents == 1)
        // Paint at 1.035: poll may sleep 14 ms, not forever and not the 2 s flip timeout.
        #expect((14...15).contains(loop.pollTimeout(now: 1.021)))
    }

    @Test func theEndOfTheRunSaysTheLatencySinceStart() throws {
        let r = try rig(renderLate: false)
        let (display, input, loop) = (r.display, r.input, r.loop!)
        input.send([.touch(TouchEvent(phase: .down, x: 1, y: 1, time: 1.005))])
        _ = try loop.step(timeoutMS: 0)
        display.report(.frameShown(time: 1.020))
        _ = try loop.step(timeoutMS: 0)
        display.report(.frameShown(time: 1.040))
        _ = try loop.step(timeoutMS: 0)
        r.signals.send([.terminate])
        #expect(try loop.run() == .signal)
        // The rig's paints take time on its clock: the turns' length is the rig's, the gap is the flips'.
        let last = try #require(r.lines.last)
        #expect(last.hasPrefix("stats: since start 2 flips, longest turn "))
        #expect(last.hasSuffix("longest flip gap 20.00 ms, latency p50=35.00 p95=35.00 max=35.00 ms (1.75/1.75/1.75 periods, 1 frames)"))
    }

    @Test func aLateWakeUpCountsAsPaintTimeForTheNextPlan() throws {
        let r = try rig(renderLate: true)  // paints take 3 ms
        let (display, clock, loop) = (r.display, r.clock, r.loop!)
        clock.now = 1.020
        display.report(.frameShown(time: 1.020))
        _ = try loop.step(timeoutMS: 0)
        // Planned for 1.035; the loop wakes 3 ms late. From the plan to the queued flip: 6 ms.
        clock.now = 1.038
        _ = try loop.step(timeoutMS: 0)
        #expect(display.presents == 2)
        clock.now = 1.041
        display.report(.frameShown(time: 1.040))
        _ = try loop.step(timeoutMS: 0)
        guard case .paintingAt(let at) = loop.schedule.state else {
            Issue.record("no planned paint: \(loop.schedule.state)")
            return
        }
        // 1.040 + 20 ms - 6 ms - 2 ms margin.
        #expect(abs(at - 1.052) < 1e-9)
    }
}
