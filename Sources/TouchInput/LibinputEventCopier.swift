import CLibinput

/// Copies libinput events into `DeviceRecord`s while the event is alive (libinput_event_get_*,
/// libinput_event_touch_*, libinput_event_pointer_*, libinput_event_keyboard_*), and numbers
/// devices as they come and go. No libinput pointer leaves this type.
struct LibinputEventCopier {
    /// The panel size handed to the *_transformed calls.
    var panelWidth: UInt32
    var panelHeight: UInt32
    private var ids: [OpaquePointer: InputDeviceID] = [:]
    private var nextOrdinal = 0

    init(panelWidth: Int, panelHeight: Int) {
        self.panelWidth = UInt32(max(panelWidth, 1))
        self.panelHeight = UInt32(max(panelHeight, 1))
    }

    /// The record for `event`, or nil for kinds the dial does not use. `added` runs for a
    /// device that was just announced, while its libinput handle is valid (for configuration).
    mutating func copy(_ event: OpaquePointer, added: (OpaquePointer, InputDeviceInfo) -> Void = { _, _ in }) -> DeviceRecord? {
        let type = libinput_event_get_type(event)
        guard let device = libinput_event_get_device(event) else { return nil }
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED:
            let id = InputDeviceID(nextOrdinal)
            nextOrdinal += 1
            ids[device] = id
            let info = Self.describe(device)
            added(device, info)
            return .added(id, info)
        case LIBINPUT_EVENT_DEVICE_REMOVED:
            guard let id = ids.removeValue(forKey: device) else { return nil }
            return .removed(id)
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            let touch = libinput_event_get_touch_event(event)
            return .touch(TouchRecord(
                device: id(device), slot: Int(libinput_event_touch_get_slot(touch)),
                phase: type == LIBINPUT_EVENT_TOUCH_DOWN ? .down : .motion,
                x: libinput_event_touch_get_x_transformed(touch, panelWidth),
                y: libinput_event_touch_get_y_transformed(touch, panelHeight),
                timeUsec: libinput_event_touch_get_time_usec(touch)))
        case LIBINPUT_EVENT_TOUCH_UP, LIBINPUT_EVENT_TOUCH_CANCEL:
            let touch = libinput_event_get_touch_event(event)
            return .touch(TouchRecord(
                device: id(device), slot: Int(libinput_event_touch_get_slot(touch)),
                phase: type == LIBINPUT_EVENT_TOUCH_UP ? .up : .cancel,
                timeUsec: libinput_event_touch_get_time_usec(touch)))
        case LIBINPUT_EVENT_TOUCH_FRAME:
            let touch = libinput_event_get_touch_event(event)
            return .touch(TouchRecord(device: id(device), slot: -1, phase: .frame,
                                      timeUsec: libinput_event_touch_get_time_usec(touch)))
        case LIBINPUT_EVENT_POINTER_MOTION:
            let p = libinput_event_get_pointer_event(event)
            return .pointerMotion(id(device), dx: libinput_event_pointer_get_dx(p), dy: libinput_event_pointer_get_dy(p),
                                  timeUsec: libinput_event_pointer_get_time_usec(p))
        case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            let p = libinput_event_get_pointer_event(event)
            return .pointerAbsolute(id(device),
                                    x: libinput_event_pointer_get_absolute_x_transformed(p, panelWidth),
                                    y: libinput_event_pointer_get_absolute_y_transformed(p, panelHeight),
                                    timeUsec: libinput_event_pointer_get_time_usec(p))
        case LIBINPUT_EVENT_POINTER_BUTTON:
            let p = libinput_event_get_pointer_event(event)
            return .pointerButton(id(device), button: libinput_event_pointer_get_button(p),
                                  pressed: libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED,
                                  timeUsec: libinput_event_pointer_get_time_usec(p))
        case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
            // Only the wheel kind: LIBINPUT_EVENT_POINTER_AXIS repeats the same movement for
            // old clients, and finger/continuous scrolling is not a detent.
            let p = libinput_event_get_pointer_event(event)
            guard libinput_event_pointer_has_axis(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL) != 0 else { return nil }
            return .wheel(id(device), v120: libinput_event_pointer_get_scroll_value_v120(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL),
                          timeUsec: libinput_event_pointer_get_time_usec(p))
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            let k = libinput_event_get_keyboard_event(event)
            return .key(id(device), code: libinput_event_keyboard_get_key(k),
                        pressed: libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED,
                        timeUsec: libinput_event_keyboard_get_time_usec(k))
        default:
            return nil
        }
    }

    /// The number of a device seen before; one that never was announced gets one now.
    private mutating func id(_ device: OpaquePointer) -> InputDeviceID {
        if let id = ids[device] { return id }
        let id = InputDeviceID(nextOrdinal)
        nextOrdinal += 1
        ids[device] = id
        return id
    }

    /// A device's description (libinput_device_get_name, _get_sysname, _get_seat,
    /// _has_capability, _get_size, _config_calibration_has_matrix).
    static func describe(_ device: OpaquePointer) -> InputDeviceInfo {
        var caps: InputCapabilities = []
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0 { caps.insert(.touch) }
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_POINTER) != 0 { caps.insert(.pointer) }
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_KEYBOARD) != 0 { caps.insert(.keyboard) }
        var width = 0.0, height = 0.0
        let size: (width: Double, height: Double)? = libinput_device_get_size(device, &width, &height) == 0 ? (width, height) : nil
        var seatName = ""
        if let seat = libinput_device_get_seat(device) {
            let physical = libinput_seat_get_physical_name(seat).map { String(cString: $0) } ?? "?"
            let logical = libinput_seat_get_logical_name(seat).map { String(cString: $0) } ?? "?"
            seatName = "\(physical)/\(logical)"
        }
        return InputDeviceInfo(
            name: libinput_device_get_name(device).map { String(cString: $0) } ?? "",
            sysname: libinput_device_get_sysname(device).map { String(cString: $0) } ?? "",
            seat: seatName, capabilities: caps, sizeMillimetres: size,
            acceptsCalibration: libinput_device_config_calibration_has_matrix(device) != 0)
    }
}
