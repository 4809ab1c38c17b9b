import DialCore
import KioskSeams

/// Kernel event codes a touch replay reads (linux/input-event-codes.h).
enum EvdevCode {
    static let evSyn = 0, evKey = 1, evAbs = 3
    static let synReport = 0
    static let absX = 0, absY = 1
    static let absMTSlot = 0x2f, absMTPositionX = 0x35, absMTPositionY = 0x36, absMTTrackingID = 0x39
    static let btnTouch = 0x14a
}

/// Replays evdev touch frames the way the kernel's multitouch protocol B defines them: slots
/// keep their values between frames, a tracking id starts a contact and -1 ends it, and each
/// SYN_REPORT publishes the frame. Single-touch screens (ABS_X/ABS_Y with BTN_TOUCH) become slot 0.
/// Positions map onto the screen as libinput's *_transformed calls do: (v - min) * size / (max - min + 1).
package struct EvdevTouchReplay {
    package static let maximumSlots = 64

    private struct Slot {
        var active = false
        var trackingID = -1
        var x = 0
        var y = 0
        /// Downs and ups of this frame in the order they happened.
        var transitions: [TouchPhase] = []
        var moved = false

        mutating func begin() { active = true; transitions.append(.down) }
        mutating func end() { active = false; transitions.append(.up) }
    }

    private let xRange: AbsRange
    private let yRange: AbsRange
    private let multitouch: Bool
    private let width: Double
    private let height: Double
    private var slots = Array(repeating: Slot(), count: maximumSlots)
    private var current = 0

    /// A replay for `device`, or an error when it has no touch axes.
    package init(device: RecordedDevice, screenWidth: Int, screenHeight: Int) throws {
        if let x = device.absinfo[EvdevCode.absMTPositionX], let y = device.absinfo[EvdevCode.absMTPositionY] {
            (xRange, yRange, multitouch) = (x, y, true)
        } else if let x = device.absinfo[EvdevCode.absX], let y = device.absinfo[EvdevCode.absY] {
            (xRange, yRange, multitouch) = (x, y, false)
        } else {
            throw LibinputRecordError(line: nil, path: "evdev.absinfo",
                                      problem: "device \"\(device.name)\" has no ABS_MT_POSITION_X/Y (53/54) or ABS_X/Y (0/1) range")
        }
        width = Double(screenWidth)
        height = Double(screenHeight)
    }

    /// Replays one evdev event; a SYN_REPORT appends the frame's touch events to `out`, each
    /// frame closing with a `.frame`.
    mutating func apply(_ e: EvdevEvent, into out: inout [TouchEvent]) throws {
        switch (e.type, e.code) {
        case (EvdevCode.evAbs, EvdevCode.absMTSlot) where multitouch:
            guard (0..<Self.maximumSlots).contains(e.value) else {
                throw LibinputRecordError(line: e.line, path: "ABS_MT_SLOT",
                                          problem: "slot \(e.value) is outside 0...\(Self.maximumSlots - 1)")
            }
            current = e.value
        case (EvdevCode.evAbs, EvdevCode.absMTTrackingID) where multitouch:
            // A new id on an active slot replaces the contact: the old one lifted.
            if e.value >= 0 {
                if slots[current].active, slots[current].trackingID != e.value { slots[current].end() }
                if !slots[current].active { slots[current].begin() }
            } else if slots[current].active {
                slots[current].end()
            }
            slots[current].trackingID = e.value
        case (EvdevCode.evAbs, EvdevCode.absMTPositionX) where multitouch,
             (EvdevCode.evAbs, EvdevCode.absX) where !multitouch:
            slots[current].x = e.value
            slots[current].moved = true
        case (EvdevCode.evAbs, EvdevCode.absMTPositionY) where multitouch,
             (EvdevCode.evAbs, EvdevCode.absY) where !multitouch:
            slots[current].y = e.value
            slots[current].moved = true
        case (EvdevCode.evKey, EvdevCode.btnTouch) where !multitouch:
            if e.value != 0, !slots[0].active {
                slots[0].begin()
            } else if e.value == 0, slots[0].active {
                slots[0].end()
            }
        case (EvdevCode.evSyn, EvdevCode.synReport):
            publish(time: e.time, into: &out)
        default:
            break
        }
    }

    private mutating func publish(time: Double, into out: inout [TouchEvent]) {
        var any = false
        for index in slots.indices {
            var s = slots[index]
            let p = (x: scale(s.x, xRange, width), y: scale(s.y, yRange, height))
            // A contact that begins and ends within one frame still taps: down, then up.
            for phase in s.transitions {
                out.append(TouchEvent(slot: index, phase: phase, x: p.x, y: p.y, time: time))
                any = true
            }
            if s.transitions.isEmpty, s.moved, s.active {
                out.append(TouchEvent(slot: index, phase: .motion, x: p.x, y: p.y, time: time))
                any = true
            }
            s.transitions.removeAll()
            s.moved = false
            slots[index] = s
        }
        if any { out.append(TouchEvent(slot: -1, phase: .frame, x: 0, y: 0, time: time)) }
    }

    /// In Double: the reader keeps ranges and values to the kernel's 32 bits, but a difference
    /// of two Ints must never be able to trap here.
    private func scale(_ value: Int, _ range: AbsRange, _ size: Double) -> Double {
        (Double(value) - Double(range.minimum)) * size / (Double(range.maximum) - Double(range.minimum) + 1)
    }
}

/// The touch events of the first touch device in a `libinput record` YAML file, mapped onto a
/// `screenWidth` x `screenHeight` screen. Throws `LibinputRecordError` (with the line and key)
/// for malformed files and files without a touch device. For a file on disk,
/// `LibinputRecordFile` streams the same events without holding them.
package func parseLibinputRecord(yaml: String, screenWidth: Int, screenHeight: Int) throws -> [TouchEvent] {
    var stream = try LibinputRecordFile(bytes: Array(yaml.utf8)).touchEvents(screenWidth: screenWidth, screenHeight: screenHeight)
    var events: [TouchEvent] = []
    while let event = try stream.next() { events.append(event) }
    return events
}
