import DialCore
import KioskSeams

/// `--stats`: counts flips and paint time on the frame clock and says, once a second while
/// frames flow, how many flips there were, how long painting took and the input-to-flip
/// latency; and when frames stop, with the latency of the whole stretch since the last rest;
/// and when the run ends, the latency since start. Each line also gives the longest loop turn
/// (from poll's return to the next wait, once the first frame is shown) and the longest gap between two flips of one
/// animation, so a stall shows as a number rather than as a slightly lower rate.
package struct FrameStats {
    /// The mode's refresh period: latencies are also given in periods.
    package var refreshPeriod: Double
    private var windowStart: Double?
    private var flips = 0
    private var paintTotal = 0.0
    private var paintMax = 0.0
    /// The longest loop turn and gap between flips of this window and since start; the last
    /// flip of the running animation (nil at rest: the gap across a rest is no stall).
    private var turnMax = 0.0, totalTurnMax = 0.0
    private var gapMax = 0.0, totalGapMax = 0.0
    private var lastFlip: Double?
    /// Latencies of this one-second window, of every frame since the loop last went idle, and
    /// since start (percentiles over the newest 4096 frames, the maximum over all).
    private var windowLatency = LatencyStats(capacity: 1024)
    private var stretchLatency = LatencyStats()
    private var totalLatency = LatencyStats()
    /// Flip events since start.
    package private(set) var totalFlips = 0
    /// Input-to-flip latency since start (MQTT's metrics), nil before any.
    package var latencySummary: LatencyStats.Summary? { totalLatency.summary }
    /// Flip events since the loop last went idle (0 while resting means idle is idle).
    package private(set) var flipsSinceIdle = 0

    /// The process's memory as one line's tail (`run` reads /proc; nil: no memory figures).
    package var memory: (() -> String?)?

    package init(refreshPeriod: Double = 1.0 / 60, memory: (() -> String?)? = nil) {
        self.refreshPeriod = refreshPeriod
        self.memory = memory
    }

    /// `run`'s figures: what the process allocated apart from the scanout buffers the kernel
    /// owns and it maps (`ProcessMemory`).
    package static func processMemory() -> String? {
        ProcessMemory.current(scanout: true).map { "memory " + $0.text(scanout: true) }
    }

    /// One frame shown at `time` whose paint took `paintSeconds`; `inputTime` is the kernel
    /// time of the newest input sample it was the first frame to reflect (nil: it shows no new
    /// input, e.g. a fling coasting, and counts for no latency). Returns a line at the end of
    /// each one-second window.
    package mutating func frameShown(at time: Double, paintSeconds: Double, inputTime: Double? = nil) -> String? {
        totalFlips += 1
        flipsSinceIdle += 1
        var line: String?
        if let start = windowStart {
            if time - start >= 1 {
                line = summary(over: time - start)
                windowStart = time
                flips = 0
                paintTotal = 0
                paintMax = 0
                turnMax = 0
                gapMax = 0
                windowLatency.reset()
            }
        } else {
            windowStart = time
        }
        record(paintSeconds)
        if let last = lastFlip, time > last {
            gapMax = max(gapMax, time - last)
            totalGapMax = max(totalGapMax, time - last)
        }
        lastFlip = time
        if let inputTime {
            windowLatency.record(time - inputTime)
            stretchLatency.record(time - inputTime)
            totalLatency.record(time - inputTime)
        }
        return line
    }

    /// The loop stopped queueing frames at `time`.
    package mutating func wentIdle(at time: Double) -> String {
        var line = "stats: idle at \(fixed(time, 3)) s after \(flipsSinceIdle) flips, 0 flips/s until input, "
            + latencyText(stretchLatency)
        if let figures = memory?() {
            line = "stats: \(figures)\n" + line
        }
        if let start = windowStart, flips > 0, let last = lastFlip {
            line = summary(over: Self.span(from: start, lastFlip: last, period: refreshPeriod)) + "\n" + line
        }
        windowStart = nil
        flips = 0
        paintTotal = 0
        paintMax = 0
        turnMax = 0
        gapMax = 0
        lastFlip = nil
        flipsSinceIdle = 0
        windowLatency.reset()
        stretchLatency.reset()
        return line
    }

    /// One loop turn took `seconds` (the loop's work between two waits).
    package mutating func turnTook(_ seconds: Double) {
        turnMax = max(turnMax, seconds)
        totalTurnMax = max(totalTurnMax, seconds)
    }

    /// The longest turn and flip gap since start (`stallsSinceStart`).
    package var longestTurn: Double { totalTurnMax }
    package var longestFlipGap: Double { totalGapMax }

    /// The run ends: `stats: since start 96 flips, longest turn 3.10 ms, longest flip gap 16.90 ms, latency ...`.
    package var sinceStart: String {
        "stats: since start \(totalFlips) flips, " + stallText(turn: totalTurnMax, gap: totalGapMax)
            + latencyText(totalLatency) + (memory?().map { ", " + $0 } ?? "")
    }

    /// `longest turn 3.10 ms, longest flip gap 16.90 ms, `.
    private func stallText(turn: Double, gap: Double) -> String {
        "longest turn \(fixed(turn * 1000, 2)) ms, longest flip gap \(fixed(gap * 1000, 2)) ms, "
    }

    private mutating func record(_ paint: Double) {
        flips += 1
        paintTotal += paint
        paintMax = max(paintMax, paint)
    }

    /// The time a window's flips stood for when it ends at rest: from its first flip to its last
    /// one, plus the last frame's own period. Its flips are counted from the first, so measuring
    /// to the idle time instead gave N flips over N-1 periods (two flips just before a rest read
    /// as 120 flips/s on a 60 Hz display). A full window ends at the flip that starts the next
    /// one, which closes its last period.
    static func span(from start: Double, lastFlip: Double, period: Double) -> Double {
        max(lastFlip - start, 0) + max(period, 1e-6)
    }

    private func summary(over seconds: Double) -> String {
        let rate = Double(flips) / seconds
        let avg = flips > 0 ? paintTotal / Double(flips) * 1000 : 0
        return "stats: \(fixed(rate, 1)) flips/s, paint \(fixed(avg, 2)) ms avg, \(fixed(paintMax * 1000, 2)) ms max, "
            + stallText(turn: turnMax, gap: gapMax) + latencyText(windowLatency)
    }

    /// `latency p50=12.10 p95=20.40 max=25.00 ms (0.73/1.22/1.50 periods, 57 frames)`, or
    /// `latency none` when no frame showed new input.
    private func latencyText(_ stats: LatencyStats) -> String {
        guard let s = stats.summary else { return "latency none" }
        let ms = "p50=\(fixed(s.p50 * 1000, 2)) p95=\(fixed(s.p95 * 1000, 2)) max=\(fixed(s.max * 1000, 2)) ms"
        guard refreshPeriod > 0 else { return "latency \(ms) (\(s.count) frames)" }
        let periods = [s.p50, s.p95, s.max].map { fixed($0 / refreshPeriod, 2) }.joined(separator: "/")
        return "latency \(ms) (\(periods) periods, \(s.count) frames)"
    }
}
