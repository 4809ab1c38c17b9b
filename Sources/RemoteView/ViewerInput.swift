import KioskSeams

/// A viewer's pointer and keys as the dial's own input: button 1 is one finger (down, motion,
/// up) in the viewer's panel coordinates turned into the logical frame as a touch is; the
/// wheel (buttons 4 and 5) turns by detents; keys go through the kiosk's key map by the evdev
/// code their keysym stands for.
struct ViewerInput {
    /// Keys' commands by evdev code (the kiosk's key map, handed in by the app).
    typealias KeyCommand = (UInt32) -> StepCommand?

    /// Touch slot for viewers: above any touchscreen's, so a viewer's finger and a visitor's
    /// are different fingers (the first one down drives the dial).
    static let slot = 16

    private var buttons: UInt8 = 0
    private var last: (x: Int, y: Int)?

    /// The events of one PointerEvent at `time`, on a `panelWidth` x `panelHeight` frame.
    mutating func pointer(buttons now: UInt8, x: Int, y: Int, time: Double, rotation: DisplayRotation,
                          panelWidth: Int, panelHeight: Int) -> [InputEvent] {
        defer { buttons = now; last = (x, y) }
        var out: [InputEvent] = []
        let p = rotation.logicalPoint(Point(x: Double(x), y: Double(y)), panelWidth: Double(panelWidth), panelHeight: Double(panelHeight))
        func touch(_ phase: TouchPhase) {
            out.append(.touch(TouchEvent(slot: Self.slot, phase: phase, x: p.x, y: p.y, time: time)))
            out.append(.touch(TouchEvent(slot: Self.slot, phase: .frame, x: p.x, y: p.y, time: time)))
        }
        let was = buttons & 1 != 0, down = now & 1 != 0
        if !was && down { touch(.down) }
        else if was && down, let last, last.x != x || last.y != y { touch(.motion) }
        else if was && !down { touch(.up) }
        // A wheel detent is a press of button 4 (up: back one) or 5 (down: forward one).
        if now & 8 != 0 && buttons & 8 == 0 { out.append(.command(.step(-1), time: time)) }
        if now & 16 != 0 && buttons & 16 == 0 { out.append(.command(.step(1), time: time)) }
        return out
    }

    /// A finger still down when the viewer goes: lifted, as a touch whose device went away.
    mutating func release(time: Double, rotation: DisplayRotation, panelWidth: Int, panelHeight: Int) -> [InputEvent] {
        guard buttons & 1 != 0, let last else { return [] }
        return pointer(buttons: 0, x: last.x, y: last.y, time: time, rotation: rotation, panelWidth: panelWidth, panelHeight: panelHeight)
    }

    /// The evdev code of an X keysym (the keys the key map knows, by its names), nil for the rest.
    static func evdevCode(keysym: UInt32) -> UInt32? {
        switch keysym {
        case 0xFF1B: return KeyMap.keyEscape  // XK_Escape
        case 0xFF08: return KeyMap.keyBackspace  // XK_BackSpace
        case 0xFF0D: return KeyMap.keyEnter  // XK_Return
        case 0x20: return KeyMap.keySpace  // XK_space
        case 0xFF8D: return KeyMap.keyKeypadEnter  // XK_KP_Enter
        case 0xFF50: return KeyMap.keyHome  // XK_Home
        case 0xFF52: return KeyMap.keyUp  // XK_Up
        case 0xFF51: return KeyMap.keyLeft  // XK_Left
        case 0xFF53: return KeyMap.keyRight  // XK_Right
        case 0xFF54: return KeyMap.keyDown  // XK_Down
        case 0x72, 0x52: return KeyMap.keyR  // XK_r, XK_R
        case 0x73, 0x53: return KeyMap.keyS  // XK_s, XK_S
        case 0xFFB0: return KeyMap.keyKeypad0  // XK_KP_0
        case 0xFFAE: return KeyMap.keyKeypadDot  // XK_KP_Decimal
        default: return nil
        }
    }
}
