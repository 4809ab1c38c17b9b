import KioskSeams

/// One touch report as libinput gave it, in panel pixels (before the display rotation).
package struct TouchRecord: Sendable, Equatable {
    package var device: InputDeviceID
    /// The device's own slot; -1 for a frame, or a cancel that covers every slot.
    package var slot: Int
    package var phase: TouchPhase
    /// Panel pixels from libinput_event_touch_get_{x,y}_transformed; 0 for up, cancel and frame.
    package var x: Double
    package var y: Double
    /// CLOCK_MONOTONIC microseconds (libinput_event_touch_get_time_usec).
    package var timeUsec: UInt64

    package init(device: InputDeviceID, slot: Int, phase: TouchPhase, x: Double = 0, y: Double = 0, timeUsec: UInt64) {
        self.device = device
        self.slot = slot
        self.phase = phase
        self.x = x
        self.y = y
        self.timeUsec = timeUsec
    }
}

/// Every libinput event TouchInput cares about, copied into plain values the moment it is read,
/// so that the translation into DialCore's events is a pure function tested without a device.
package enum DeviceRecord: Sendable, Equatable {
    case added(InputDeviceID, InputDeviceInfo)
    case removed(InputDeviceID)
    case touch(TouchRecord)
    /// Relative pointer motion in libinput's (accelerated) units, roughly pixels.
    case pointerMotion(InputDeviceID, dx: Double, dy: Double, timeUsec: UInt64)
    /// Absolute pointer position in panel pixels (tablets, QEMU's usb-tablet).
    case pointerAbsolute(InputDeviceID, x: Double, y: Double, timeUsec: UInt64)
    /// A pointer button by its evdev code (BTN_LEFT is 0x110).
    case pointerButton(InputDeviceID, button: UInt32, pressed: Bool, timeUsec: UInt64)
    /// A wheel's vertical movement in v120 units: 120 is one detent, positive turns down/towards.
    case wheel(InputDeviceID, v120: Double, timeUsec: UInt64)
    /// A key by its evdev code (KEY_LEFT is 105).
    case key(InputDeviceID, code: UInt32, pressed: Bool, timeUsec: UInt64)

    /// Seconds from microseconds, the unit DialCore uses.
    static func seconds(_ usec: UInt64) -> Double { Double(usec) / 1_000_000 }
}
