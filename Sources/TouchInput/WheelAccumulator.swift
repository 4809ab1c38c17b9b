/// Whole wheel detents out of v120 values: high-resolution wheels send fractions of 120
/// (e.g. four times 30), plain wheels and rotary encoders send 120 per click. A change of
/// direction drops the unfinished part so a reversal never needs more than one detent.
package struct WheelAccumulator: Sendable, Equatable {
    package static let detent = 120.0
    private(set) var pending = 0.0

    package init() {}

    /// Adds `v120` and returns the whole steps it completed (positive: wheel down, forward).
    package mutating func add(_ v120: Double) -> Int {
        guard v120.isFinite, v120 != 0 else { return 0 }
        if pending != 0, (pending < 0) != (v120 < 0) { pending = 0 }
        pending += v120
        let steps = Int((pending / Self.detent).rounded(.towardZero))
        pending -= Double(steps) * Self.detent
        return steps
    }
}
