/// A device as TouchInput numbers it: an ordinal handed out when libinput announces the device,
/// never reused while the program runs (so a replugged panel is a new device).
package struct InputDeviceID: Hashable, Sendable, Comparable, CustomStringConvertible {
    package var ordinal: Int
    package init(_ ordinal: Int) { self.ordinal = ordinal }
    package static func < (a: InputDeviceID, b: InputDeviceID) -> Bool { a.ordinal < b.ordinal }
    package var description: String { "device \(ordinal)" }
}

/// What a device can do, as libinput reports it (libinput_device_has_capability).
package struct InputCapabilities: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    package static let touch = InputCapabilities(rawValue: 1 << 0)
    package static let pointer = InputCapabilities(rawValue: 1 << 1)
    package static let keyboard = InputCapabilities(rawValue: 1 << 2)

    /// "touch,pointer,keyboard" style, in that order; "none" when empty.
    package var names: String {
        var parts: [String] = []
        if contains(.touch) { parts.append("touch") }
        if contains(.pointer) { parts.append("pointer") }
        if contains(.keyboard) { parts.append("keyboard") }
        return parts.isEmpty ? "none" : parts.joined(separator: ",")
    }
}

/// A device's description, copied out of libinput when it is added.
package struct InputDeviceInfo: Sendable, Equatable {
    package var name: String
    /// The kernel name, e.g. "event3" (libinput_device_get_sysname).
    package var sysname: String
    /// The physical and logical seat, e.g. "seat0" / "default".
    package var seat: String
    package var capabilities: InputCapabilities
    /// Width and height in millimetres when the device knows them (libinput_device_get_size).
    package var sizeMillimetres: (width: Double, height: Double)?
    /// True when libinput accepts a calibration matrix for this device.
    package var acceptsCalibration: Bool

    package init(name: String, sysname: String, seat: String, capabilities: InputCapabilities,
                sizeMillimetres: (width: Double, height: Double)? = nil, acceptsCalibration: Bool = false) {
        self.name = name
        self.sysname = sysname
        self.seat = seat
        self.capabilities = capabilities
        self.sizeMillimetres = sizeMillimetres
        self.acceptsCalibration = acceptsCalibration
    }

    package static func == (a: InputDeviceInfo, b: InputDeviceInfo) -> Bool {
        a.name == b.name && a.sysname == b.sysname && a.seat == b.seat && a.capabilities == b.capabilities
            && a.sizeMillimetres?.width == b.sizeMillimetres?.width
            && a.sizeMillimetres?.height == b.sizeMillimetres?.height
            && a.acceptsCalibration == b.acceptsCalibration
    }
}
