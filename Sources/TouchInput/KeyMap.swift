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
