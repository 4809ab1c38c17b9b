/// Input-to-flip latencies (flip time minus the kernel time of the newest input sample the
/// flipped frame reflects) of one stretch of frames, in bounded memory: the percentiles come
/// from the newest `capacity` samples, the count and the maximum from all of them. A kiosk
/// runs for months; the window keeps a long drag from growing the process.
public struct LatencyStats: Sendable, Equatable {
    /// p50, p95 and max of a stretch, in seconds.
    public struct Summary: Sendable, Equatable {
        public var p50: Double
        public var p95: Double
        public var max: Double
        /// Samples recorded (also those older than the window).
        public var count: Int
    }

    /// The newest samples, which the percentiles are taken over.
    private var window: RecentValues
    private var largest = -Double.infinity
    /// Samples recorded since the last reset.
    public private(set) var count = 0

    /// - Parameter capacity: how many of the newest samples the percentiles are taken over.
    public init(capacity: Int = 4096) {
        window = RecentValues(capacity: capacity)
    }

    /// Adds one latency in seconds; a value that is not finite (a broken clock) is dropped.
    public mutating func record(_ latency: Double) {
        guard latency.isFinite else { return }
        count += 1
        largest = Swift.max(largest, latency)
        window.append(latency)
    }

    /// Forgets every sample (keeps the window's memory).
    public mutating func reset() {
        window.removeAll()
        largest = -Double.infinity
        count = 0
    }

    /// The figures, or nil before the first sample. Percentiles by nearest rank: the smallest
    /// sample with at least p of the window at or below it (a sample that really happened).
    public var summary: Summary? {
        guard !window.values.isEmpty else { return nil }
        let sorted = window.values.sorted()
        func rank(_ p: Double) -> Double {
            let k = Int((p * Double(sorted.count)).rounded(.up))
            return sorted[Swift.min(sorted.count, Swift.max(1, k)) - 1]
        }
        return Summary(p50: rank(0.5), p95: rank(0.95), max: largest, count: count)
    }
}

/// Which frame first shows which input, for the input-to-flip latency. The loop says when an
/// input sample is fed to the dial (its kernel time), when a frame is queued (it shows every
/// sample fed so far) and when that frame's flip event comes; the answer is the kernel time of
/// the newest sample the shown frame was the first to show, or nil for a frame that shows no
/// new input (a fling coasting, a snap, a repaint): those have no input latency.
public struct InputFrameTracker: Sendable, Equatable {
    /// The newest sample fed to the dial.
    private var newestFed: Double?
    /// The newest sample in a frame queued so far.
    private var newestQueued: Double?
    /// The queued frame's newest new sample, until its flip event.
    private var inQueuedFrame: Double?

    public init() {}

    /// An input sample with kernel time `time` went to the dial.
    public mutating func fed(inputAt time: Double) {
        guard time.isFinite else { return }
        newestFed = Swift.max(newestFed ?? time, time)
    }

    /// A frame was queued: it shows every sample fed so far. A frame queued again before any
    /// flip event (an overdue flip) keeps the input of the one it replaces, never shown.
    public mutating func queued() {
        guard let fed = newestFed, fed > (newestQueued ?? -.infinity) else { return }
        inQueuedFrame = fed
        newestQueued = fed
    }

    /// The output went away (VT switch, unplug): the queued frame will never be shown, and
    /// its input, shown after the output comes back, would count the time away as latency.
    public mutating func outputLost() {
        inQueuedFrame = nil
    }

    /// The queued frame is on the glass: the time of the newest sample it was the first to
    /// show, or nil.
    public mutating func shown() -> Double? {
        defer { inQueuedFrame = nil }
        return inQueuedFrame
    }
}
