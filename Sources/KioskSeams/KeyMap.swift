/// Keys that turn the dial, by evdev code (linux/input-event-codes.h). Left and Up turn back
/// one item, Right and Down forward one, as a list read top to bottom would. Escape and
/// Backspace go back to the parent ring, as does the wheel's click by default: a mouse's wheel
/// is its middle button, and rotary encoders with a push switch commonly report that button too
/// (`WheelClick.activate` makes it activate, for an encoder used alone).
public enum KeyMap {
    public static let keyEscape: UInt32 = 1
    public static let keyBackspace: UInt32 = 14
    public static let keyEnter: UInt32 = 28
    public static let keySpace: UInt32 = 57
    public static let keyKeypadEnter: UInt32 = 96
    public static let keyHome: UInt32 = 102
    public static let keyUp: UInt32 = 103
    public static let keyLeft: UInt32 = 105
    public static let keyRight: UInt32 = 106
    public static let keyDown: UInt32 = 108
    /// BTN_MIDDLE: libinput reports it as a pointer button, a key-only device as a key.
    public static let buttonMiddle: UInt32 = 274
    /// Speech: R and the keypad's 0 repeat the last utterance, S and the keypad's
    /// '.' turn speech on or off (a keypad is the usual extra keys beside an encoder).
    public static let keyR: UInt32 = 19
    public static let keyS: UInt32 = 31
    public static let keyKeypad0: UInt32 = 82
    public static let keyKeypadDot: UInt32 = 83
    /// The digit keys KEY_1 ... KEY_9, KEY_0 (codes 2-11) and the keypad's 1-9, for the PIN
    /// ring. The keypad's 0 stays the speech key above: a PIN pad's 0 is the top row's here.
    public static let keyDigit1: UInt32 = 2
    public static let keyDigit0: UInt32 = 11
    /// The keypad's digits 1-9 by code (7 8 9 / 4 5 6 / 1 2 3 rows).
    public static let keypadDigits: [UInt32: Int] = [79: 1, 80: 2, 81: 3, 75: 4, 76: 5, 77: 6, 71: 7, 72: 8, 73: 9]

    /// The command for a key or button press; releases and other keys do nothing. `wheelClick`:
    /// what `BTN_MIDDLE` does (the configuration's `input.wheel_click`).
    public static func command(code: UInt32, pressed: Bool, wheelClick: WheelClick = .back) -> StepCommand? {
        guard pressed else { return nil }
        switch code {
        case buttonMiddle: return wheelClick == .activate ? .activate : .back
        case keyLeft, keyUp: return .step(-1)
        case keyRight, keyDown: return .step(1)
        case keyEnter, keyKeypadEnter, keySpace: return .activate
        case keyHome: return .first
        case keyEscape, keyBackspace: return .back
        case keyR, keyKeypad0: return .speech(.repeatLast)
        case keyS, keyKeypadDot: return .speech(.toggle)
        case keyDigit1..<keyDigit0: return .digit(Int(code - keyDigit1) + 1)
        case keyDigit0: return .digit(0)
        default: return keypadDigits[code].map { .digit($0) }
        }
    }
}
