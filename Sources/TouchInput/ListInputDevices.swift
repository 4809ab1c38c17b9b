/// Every input device on `seat` as libinput sees it right now (for `list-inputs`). Throws the
/// first open failure when nothing could be opened (e.g. not in group input).
package func listInputDevices(seat: String = "seat0", log: @escaping InputLog) throws(InputSystemError) -> [InputDeviceInfo] {
    let context = try LibinputContext(seat: seat, log: log)
    defer { context.close() }
    try context.dispatch()
    var copier = LibinputEventCopier(panelWidth: 1, panelHeight: 1)
    var devices: [InputDeviceInfo] = []
    context.forEachEvent { event in
        if case let .added(_, info)? = copier.copy(event) { devices.append(info) }
    }
    if devices.isEmpty, let failure = context.openFailures.first { throw failure }
    return devices
}

/// The evdev nodes that turn on REL_DIAL, on every seat, as udev describes them now (for
/// `list-inputs`): libinput opens none of them; DialKiosk reads those `DialAxisPolicy` gives
/// `.read` for the seat it runs on.
package func listDialAxisDevices() throws(InputSystemError) -> [EvdevNode] {
    let udev = try EvdevUdev(monitoring: false)
    defer { udev.close() }
    return udev.present().filter { DialAxisPolicy.turnsOnDial($0.relativeAxes) }
}
