import DialCore

/// Keys that turn the dial, by evdev code (linux/input-event-codes.h). Left and Up turn back
/// one item, Right and Down forward one, as a list read top to bottom would.
public enum KeyMap {
    public static let keyEnter: UInt32 = 28
    public static let keySpace: UInt32 = 57
    public static let keyKeypadEnter: UInt32 = 96
    public static let keyHome: UInt32 = 102
    public static let keyUp: UInt32 = 103
    public static let keyLeft: UInt32 = 105
    public static let keyRight: UInt32 = 106
    public static let keyDown: UInt32 = 108

    /// The command for a key press; releases and other keys do nothing.
    public static func command(code: UInt32, pressed: Bool) -> StepCommand? {
        guard pressed else { return nil }
        switch code {
        case keyLeft, keyUp: return .step(-1)
        case keyRight, keyDown: return .step(1)
        case keyEnter, keyKeypadEnter, keySpace: return .activate
        case keyHome: return .first
        default: return nil
        }
    }
}

/// Whole wheel detents out of v120 values: high-resolution wheels send fractions of 120
/// (e.g. four times 30), plain wheels and rotary encoders send 120 per click. A change of
/// direction drops the unfinished part so a reversal never needs more than one detent.
public struct WheelAccumulator: Sendable, Equatable {
    public static let detent = 120.0
    private(set) var pending = 0.0

    public init() {}

    /// Adds `v120` and returns the whole steps it completed (positive: wheel down, forward).
    public mutating func add(_ v120: Double) -> Int {
        guard v120.isFinite, v120 != 0 else { return 0 }
        if pending != 0, (pending < 0) != (v120 < 0) { pending = 0 }
        pending += v120
        let steps = Int((pending / Self.detent).rounded(.towardZero))
        pending -= Double(steps) * Self.detent
        return steps
    }
}
