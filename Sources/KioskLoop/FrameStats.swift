import DialCore
import KioskSeams

/// `--stats`: counts flips and paint time on the frame clock and says, once a second while
/// frames flow, how many flips there were, how long painting took and the input-to-flip
/// latency; and when frames stop, with the latency of the whole stretch since the last rest;
/// and when the run ends, the latency since start.
package struct FrameStats {
    /// The mode's refresh period: latencies are also given in periods.
    package var refreshPeriod: Double
    private var windowStart: Double?
    private var flips = 0
    private var paintTotal = 0.0
    private var paintMax = 0.0
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
                windowLatency.reset()
            }
        } else {
            windowStart = time
        }
        record(paintSeconds)
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
        if let start = windowStart, flips > 0, time > start {
            line = summary(over: time - start) + "\n" + line
        }
        windowStart = nil
        flips = 0
        paintTotal = 0
        paintMax = 0
        flipsSinceIdle = 0
        windowLatency.reset()
        stretchLatency.reset()
        return line
    }

    /// The run ends: `stats: since start 96 flips, latency ...`.
    package var sinceStart: String {
        "stats: since start \(totalFlips) flips, " + latencyText(totalLatency) + (memory?().map { ", " + $0 } ?? "")
    }

    private mutating func record(_ paint: Double) {
        flips += 1
        paintTotal += paint
        paintMax = max(paintMax, paint)
    }

    private func summary(over seconds: Double) -> String {
        let rate = Double(flips) / seconds
        let avg = flips > 0 ? paintTotal / Double(flips) * 1000 : 0
        return "stats: \(fixed(rate, 1)) flips/s, paint \(fixed(avg, 2)) ms avg, \(fixed(paintMax * 1000, 2)) ms max, "
            + latencyText(windowLatency)
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
