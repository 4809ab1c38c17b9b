import KioskSeams

/// Turns copied libinput records into DialCore's input events: the display rotation, slot
/// numbering across devices, mouse-as-finger, wheel detents and clicks, the key map, and hotplug.
///
/// Works on whole batches (everything one libinput_dispatch produced) because libinput reports
/// an unplugged touchscreen by first lifting its fingers (TOUCH_UP) and then DEVICE_REMOVED: an
/// up that only precedes its device's removal was never lifted by a person, so it becomes a
/// cancel and the dial settles instead of flinging.
package struct EventTranslator: Sendable {
    package private(set) var transform: ScreenTransform
    /// What the wheel's click does (`input.wheel_click`).
    package var wheelClick = WheelClick.back
    package private(set) var devices: [InputDeviceID: InputDeviceInfo] = [:]

    private var slots = SlotAllocator()
    private var lastPosition: [SlotAllocator.Key: Point] = [:]
    private var mice: [InputDeviceID: MouseFinger] = [:]
    private var wheels: [InputDeviceID: WheelAccumulator] = [:]
    private var lastTimeUsec: UInt64 = 0

    /// The slot a device uses for its mouse-as-finger (device slots are never negative).
    static let mouseSlot = -2

    package init(transform: ScreenTransform) {
        self.transform = transform
    }

    /// Maps later touches onto a new panel size (a hotplug re-modeset); mice start again
    /// from the new panel's centre.
    package mutating func retarget(_ transform: ScreenTransform) {
        self.transform = transform
        mice.removeAll()
    }

    /// Translates one batch in order.
    package mutating func translate(_ records: [DeviceRecord]) -> [InputEvent] {
        let releasedByRemoval = Self.releasesCausedByRemoval(records)
        var out: [InputEvent] = []
        for (index, record) in records.enumerated() {
            translate(record, cancelInstead: releasedByRemoval.contains(index), into: &out)
        }
        return out
    }

    /// Indices of touch ups and button releases that libinput sent only because their device
    /// was removed later in the same batch (nothing but releases and frames in between).
    static func releasesCausedByRemoval(_ records: [DeviceRecord]) -> Set<Int> {
        var result = Set<Int>()
        for (removalIndex, record) in records.enumerated() {
            guard case let .removed(device) = record else { continue }
            var index = removalIndex - 1
            scan: while index >= 0 {
                switch records[index] {
                case let .touch(t) where t.device == device:
                    if t.phase == .up { result.insert(index) } else if t.phase != .frame { break scan }
                case let .pointerButton(d, _, pressed, _) where d == device:
                    if pressed { break scan }
                    result.insert(index)
                case let .key(d, _, pressed, _) where d == device:
                    if pressed { break scan }
                case let .added(d, _) where d == device:
                    break scan
                case let .pointerMotion(d, _, _, _) where d == device, let .pointerAbsolute(d, _, _, _) where d == device,
                     let .wheel(d, _, _) where d == device:
                    break scan
                default:
                    break
                }
                index -= 1
            }
        }
        return result
    }

    private mutating func translate(_ record: DeviceRecord, cancelInstead: Bool, into out: inout [InputEvent]) {
        switch record {
        case let .added(device, info):
            devices[device] = info
        case let .removed(device):
            cancelAll(of: device, into: &out)
            devices[device] = nil
            mice[device] = nil
            wheels[device] = nil
        case let .touch(t):
            lastTimeUsec = t.timeUsec
            touch(t, cancelInstead: cancelInstead, into: &out)
        case let .pointerMotion(device, dx, dy, time):
            lastTimeUsec = time
            emit(updateMouse(device) { $0.move(dx: dx, dy: dy) }, device: device, time: time, into: &out)
        case let .pointerAbsolute(device, x, y, time):
            lastTimeUsec = time
            emit(updateMouse(device) { $0.moveAbsolute(panelX: x, panelY: y) }, device: device, time: time, into: &out)
        case let .pointerButton(device, button, pressed, time):
            lastTimeUsec = time
            // The wheel's click (the middle button) is a command, never part of a drag.
            if let command = KeyMap.command(code: button, pressed: pressed, wheelClick: wheelClick) {
                out.append(.command(command, time: DeviceRecord.seconds(time)))
                return
            }
            let action = updateMouse(device) { $0.button(button, pressed: pressed) }
            if cancelInstead, case .up = action {
                cancel(SlotAllocator.Key(device: device, slot: Self.mouseSlot), time: time, into: &out)
            } else {
                emit(action, device: device, time: time, into: &out)
            }
        case let .wheel(device, v120, time):
            lastTimeUsec = time
            var wheel = wheels[device] ?? WheelAccumulator()
            let steps = wheel.add(v120)
            wheels[device] = wheel
            // One command per detent, so a fast spin of n detents moves exactly n items.
            for _ in 0..<abs(steps) {
                out.append(.command(.step(steps > 0 ? 1 : -1), time: DeviceRecord.seconds(time)))
            }
        case let .key(_, code, pressed, time):
            lastTimeUsec = time
            if let command = KeyMap.command(code: code, pressed: pressed, wheelClick: wheelClick) {
                out.append(.command(command, time: DeviceRecord.seconds(time)))
            }
        }
    }

    private mutating func touch(_ t: TouchRecord, cancelInstead: Bool, into out: inout [InputEvent]) {
        let seconds = DeviceRecord.seconds(t.timeUsec)
        let key = SlotAllocator.Key(device: t.device, slot: t.slot)
        switch t.phase {
        case .down:
            let p = transform.logical(x: t.x, y: t.y)
            let slot = slots.acquire(key)
            lastPosition[key] = p
            out.append(.touch(TouchEvent(slot: slot, phase: .down, x: p.x, y: p.y, time: seconds)))
        case .motion:
            guard let slot = slots.lookup(key) else { return }
            let p = transform.logical(x: t.x, y: t.y)
            lastPosition[key] = p
            out.append(.touch(TouchEvent(slot: slot, phase: .motion, x: p.x, y: p.y, time: seconds)))
        case .up:
            if cancelInstead { cancel(key, time: t.timeUsec, into: &out); return }
            guard let slot = slots.release(key) else { return }
            let p = lastPosition.removeValue(forKey: key) ?? Point(x: 0, y: 0)
            out.append(.touch(TouchEvent(slot: slot, phase: .up, x: p.x, y: p.y, time: seconds)))
        case .cancel:
            if t.slot < 0 {
                for held in slots.held(by: t.device) where held.key.slot >= 0 {
                    cancel(held.key, time: t.timeUsec, into: &out)
                }
            } else {
                cancel(key, time: t.timeUsec, into: &out)
            }
        case .frame:
            out.append(.touch(TouchEvent(slot: -1, phase: .frame, x: 0, y: 0, time: seconds)))
        }
    }

    private mutating func cancel(_ key: SlotAllocator.Key, time: UInt64, into out: inout [InputEvent]) {
        guard let slot = slots.release(key) else { return }
        let p = lastPosition.removeValue(forKey: key) ?? Point(x: 0, y: 0)
        out.append(.touch(TouchEvent(slot: slot, phase: .cancel, x: p.x, y: p.y, time: DeviceRecord.seconds(time))))
    }

    /// Ends every touch and the mouse drag of a device that went away.
    private mutating func cancelAll(of device: InputDeviceID, into out: inout [InputEvent]) {
        let held = slots.held(by: device)
        for (key, _) in held {
            cancel(key, time: lastTimeUsec, into: &out)
        }
        if !held.isEmpty {
            out.append(.touch(TouchEvent(slot: -1, phase: .frame, x: 0, y: 0, time: DeviceRecord.seconds(lastTimeUsec))))
        }
        if var mouse = mice[device] { _ = mouse.reset(); mice[device] = mouse }
    }

    /// Applies `change` to the device's mouse-as-finger state (made on first use) and keeps it.
    private mutating func updateMouse(_ device: InputDeviceID,
                                      _ change: (inout MouseFinger) -> MouseFinger.Action?) -> MouseFinger.Action? {
        var mouse = mice[device] ?? MouseFinger(transform: transform)
        let action = change(&mouse)
        mice[device] = mouse
        return action
    }

    /// A mouse action as one touch report (the sample and its frame).
    private mutating func emit(_ action: MouseFinger.Action?, device: InputDeviceID, time: UInt64, into out: inout [InputEvent]) {
        guard let action else { return }
        let key = SlotAllocator.Key(device: device, slot: Self.mouseSlot)
        let seconds = DeviceRecord.seconds(time)
        let event: TouchEvent
        switch action {
        case let .down(p):
            event = TouchEvent(slot: slots.acquire(key), phase: .down, x: p.x, y: p.y, time: seconds)
            lastPosition[key] = p
        case let .motion(p):
            guard let slot = slots.lookup(key) else { return }
            event = TouchEvent(slot: slot, phase: .motion, x: p.x, y: p.y, time: seconds)
            lastPosition[key] = p
        case let .up(p):
            guard let slot = slots.release(key) else { return }
            lastPosition[key] = nil
            event = TouchEvent(slot: slot, phase: .up, x: p.x, y: p.y, time: seconds)
        }
        out.append(.touch(event))
        out.append(.touch(TouchEvent(slot: -1, phase: .frame, x: 0, y: 0, time: seconds)))
    }
}
