import DialCore

/// `--stats`: counts flips and paint time on the frame clock and says, once a second while
/// frames flow, how many flips there were and how long painting took; and when frames stop.
struct FrameStats {
    private var windowStart: Double?
    private var flips = 0
    private var paintTotal = 0.0
    private var paintMax = 0.0
    /// Flip events since start.
    private(set) var totalFlips = 0
    /// Flip events since the loop last went idle (0 while resting means idle is idle).
    private(set) var flipsSinceIdle = 0

    /// One frame shown at `time` whose paint took `paintSeconds`. Returns a line at the end of
    /// each one-second window.
    mutating func frameShown(at time: Double, paintSeconds: Double) -> String? {
        totalFlips += 1
        flipsSinceIdle += 1
        guard let start = windowStart else {
            windowStart = time
            record(paintSeconds)
            return nil
        }
        if time - start >= 1 {
            let line = summary(over: time - start)
            windowStart = time
            flips = 0
            paintTotal = 0
            paintMax = 0
            record(paintSeconds)
            return line
        }
        record(paintSeconds)
        return nil
    }

    /// The loop stopped queueing frames at `time`.
    mutating func wentIdle(at time: Double) -> String {
        var line = "stats: idle at \(fixed(time, 3)) s after \(flipsSinceIdle) flips, 0 flips/s until input"
        if let start = windowStart, flips > 0, time > start {
            line = summary(over: time - start) + "\n" + line
        }
        windowStart = nil
        flips = 0
        paintTotal = 0
        paintMax = 0
        flipsSinceIdle = 0
        return line
    }

    private mutating func record(_ paint: Double) {
        flips += 1
        paintTotal += paint
        paintMax = max(paintMax, paint)
    }

    private func summary(over seconds: Double) -> String {
        let rate = Double(flips) / seconds
        let avg = flips > 0 ? paintTotal / Double(flips) * 1000 : 0
        return "stats: \(fixed(rate, 1)) flips/s, paint \(fixed(avg, 2)) ms avg, \(fixed(paintMax * 1000, 2)) ms max"
    }
}
