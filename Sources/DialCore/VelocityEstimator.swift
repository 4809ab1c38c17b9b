/// Angular velocity of the ring from timestamped samples, not per event: a least-squares slope
/// over the last `window` seconds, history cut at gaps longer than `maxGap`, and zero when the
/// finger rested more than `restTimeout` before lifting (the numbers Flutter's and Android's
/// velocity trackers use: 100 ms, 40 ms, 50 ms).
public struct VelocityEstimator: Sendable, Equatable {
    public var window: Double
    public var maxGap: Double
    public var restTimeout: Double
    /// Samples kept, oldest first; bounded so a burst of events cannot grow it without end.
    private var samples: [(t: Double, r: Double)] = []
    private static let capacity = 64

    public init(window: Double = 0.100, maxGap: Double = 0.040, restTimeout: Double = 0.050) {
        self.window = window
        self.maxGap = maxGap
        self.restTimeout = restTimeout
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.window == b.window && a.maxGap == b.maxGap && a.restTimeout == b.restTimeout
            && a.samples.elementsEqual(b.samples, by: { $0.t == $1.t && $0.r == $1.r })
    }

    public mutating func reset() { samples.removeAll(keepingCapacity: true) }

    /// Record the ring's rotation `r` at time `t` (seconds, not decreasing).
    public mutating func add(time t: Double, rotation r: Double) {
        if let last = samples.last, last.t == t {
            samples[samples.count - 1] = (t, r)
        } else {
            samples.append((t, r))
        }
        if samples.count > Self.capacity { samples.removeFirst(samples.count - Self.capacity) }
    }

    /// The velocity in rad/s at `time` (the lift): zero if the last sample is older than
    /// `restTimeout`, or fewer than two samples lie in the window.
    public func velocity(at time: Double) -> Double {
        guard let newest = samples.last, time - newest.t <= restTimeout else { return 0 }
        // Walk back from the newest sample while inside the window and without a long gap.
        var first = samples.count - 1
        while first > 0 {
            let prev = samples[first - 1]
            if newest.t - prev.t > window || samples[first].t - prev.t > maxGap { break }
            first -= 1
        }
        let n = samples.count - first
        guard n >= 2 else { return 0 }
        // Centre the data for a stable fit: slope = sum(dt*dr) / sum(dt^2).
        var mt = 0.0, mr = 0.0
        for i in first..<samples.count { mt += samples[i].t; mr += samples[i].r }
        mt /= Double(n); mr /= Double(n)
        var stt = 0.0, str = 0.0
        for i in first..<samples.count {
            let dt = samples[i].t - mt
            stt += dt * dt
            str += dt * (samples[i].r - mr)
        }
        return stt > 0 ? str / stt : 0
    }
}
