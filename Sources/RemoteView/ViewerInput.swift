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

    /// The evdev code of an X keysym (the keys the key map knows), nil for the rest.
    static func evdevCode(keysym: UInt32) -> UInt32? {
        switch keysym {
        case 0xFF1B: return 1  // Escape
        case 0xFF08: return 14  // BackSpace
        case 0xFF0D: return 28  // Return
        case 0x20: return 57  // space
        case 0xFF8D: return 96  // KP_Enter
        case 0xFF50: return 102  // Home
        case 0xFF52: return 103  // Up
        case 0xFF51: return 105  // Left
        case 0xFF53: return 106  // Right
        case 0xFF54: return 108  // Down
        case 0x72, 0x52: return 19  // r, R
        case 0x73, 0x53: return 31  // s, S
        case 0xFFB0: return 82  // KP_0
        case 0xFFAE: return 83  // KP_Decimal
        default: return nil
        }
    }
}
