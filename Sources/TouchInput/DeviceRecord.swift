import DialCore

/// A device as TouchInput numbers it: an ordinal handed out when libinput announces the device,
/// never reused while the program runs (so a replugged panel is a new device).
public struct InputDeviceID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var ordinal: Int
    public init(_ ordinal: Int) { self.ordinal = ordinal }
    public static func < (a: InputDeviceID, b: InputDeviceID) -> Bool { a.ordinal < b.ordinal }
    public var description: String { "device \(ordinal)" }
}

/// What a device can do, as libinput reports it (libinput_device_has_capability).
public struct InputCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let touch = InputCapabilities(rawValue: 1 << 0)
    public static let pointer = InputCapabilities(rawValue: 1 << 1)
    public static let keyboard = InputCapabilities(rawValue: 1 << 2)

    /// "touch,pointer,keyboard" style, in that order; "none" when empty.
    public var names: String {
        var parts: [String] = []
        if contains(.touch) { parts.append("touch") }
        if contains(.pointer) { parts.append("pointer") }
        if contains(.keyboard) { parts.append("keyboard") }
        return parts.isEmpty ? "none" : parts.joined(separator: ",")
    }
}

/// A device's description, copied out of libinput when it is added.
public struct InputDeviceInfo: Sendable, Equatable {
    public var name: String
    /// The kernel name, e.g. "event3" (libinput_device_get_sysname).
    public var sysname: String
    /// The physical and logical seat, e.g. "seat0" / "default".
    public var seat: String
    public var capabilities: InputCapabilities
    /// Width and height in millimetres when the device knows them (libinput_device_get_size).
    public var sizeMillimetres: (width: Double, height: Double)?
    /// True when libinput accepts a calibration matrix for this device.
    public var acceptsCalibration: Bool

    public init(name: String, sysname: String, seat: String, capabilities: InputCapabilities,
                sizeMillimetres: (width: Double, height: Double)? = nil, acceptsCalibration: Bool = false) {
        self.name = name
        self.sysname = sysname
        self.seat = seat
        self.capabilities = capabilities
        self.sizeMillimetres = sizeMillimetres
        self.acceptsCalibration = acceptsCalibration
    }

    public static func == (a: InputDeviceInfo, b: InputDeviceInfo) -> Bool {
        a.name == b.name && a.sysname == b.sysname && a.seat == b.seat && a.capabilities == b.capabilities
            && a.sizeMillimetres?.width == b.sizeMillimetres?.width
            && a.sizeMillimetres?.height == b.sizeMillimetres?.height
            && a.acceptsCalibration == b.acceptsCalibration
    }
}

/// One touch report as libinput gave it, in panel pixels (before the display rotation).
public struct TouchRecord: Sendable, Equatable {
    public var device: InputDeviceID
    /// The device's own slot; -1 for a frame, or a cancel that covers every slot.
    public var slot: Int
    public var phase: TouchPhase
    /// Panel pixels from libinput_event_touch_get_{x,y}_transformed; 0 for up, cancel and frame.
    public var x: Double
    public var y: Double
    /// CLOCK_MONOTONIC microseconds (libinput_event_touch_get_time_usec).
    public var timeUsec: UInt64

    public init(device: InputDeviceID, slot: Int, phase: TouchPhase, x: Double = 0, y: Double = 0, timeUsec: UInt64) {
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
public enum DeviceRecord: Sendable, Equatable {
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
