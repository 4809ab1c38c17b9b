import CLibinput
import CLinux
import Glibc
import KioskSeams
import LinuxSystem

/// DialCore's `InputSource` on a libinput seat: poll `pollDescriptor`, then `drain()` dispatches,
/// copies each event into a `DeviceRecord` and translates the batch (rotation, slots, mouse,
/// wheel, keys, hotplug). Devices added later are configured the same way as the first ones.
package final class LibinputInputSource: InputSource {
    package let context: LibinputContext
    package let calibration: CalibrationMatrix?
    private var copier: LibinputEventCopier
    private var translator: EventTranslator
    private let log: InputLog
    /// Events read before the first drain (while opening the seat).
    private var pending: [InputEvent] = []
    /// REL_DIAL encoders, which libinput does not read, present now and plugged in later.
    private let dials: DialAxisDevices
    /// One descriptor to poll for libinput's and the REL_DIAL devices' (an epoll set).
    private let joined: FileDescriptor?

    /// Opens `seat`; touches map onto the panel described by `transform`; `calibration`, when
    /// given, is set on every device that accepts one as it is added; `wheelClick`: what
    /// `BTN_MIDDLE` does.
    package init(seat: String = "seat0", transform: ScreenTransform, calibration: CalibrationMatrix? = nil,
                wheelClick: WheelClick = .back, log: @escaping InputLog) throws(InputSystemError) {
        context = try LibinputContext(seat: seat, log: log)
        self.calibration = calibration
        self.log = log
        copier = LibinputEventCopier(panelWidth: transform.panelWidth, panelHeight: transform.panelHeight)
        translator = EventTranslator(transform: transform)
        translator.wheelClick = wheelClick
        dials = DialAxisDevices(seat: seat, log: log)
        joined = Self.join([context.fileDescriptor, dials.pollDescriptor].filter { $0 >= 0 }, log: log)
        // assign_seat queued DEVICE_ADDED for every present device without making the fd
        // readable: take them now, so devices are configured (calibration) before the first touch.
        pending = try read()
    }

    package var pollDescriptor: Int32 { joined?.rawValue ?? context.fileDescriptor }

    /// An epoll set of `descriptors` (readable while any of them is), when there is more than
    /// libinput's own; nil otherwise, or when epoll fails (logged: the REL_DIAL devices and
    /// their hotplug are then read only when libinput has events).
    private static func join(_ descriptors: [Int32], log: InputLog) -> FileDescriptor? {
        guard descriptors.count > 1 else { return nil }
        let set = FileDescriptor(adopting: epoll_create1(Int32(EPOLL_CLOEXEC)))
        guard set.isOpen else {
            log(.error, "Failed to create an epoll set for the REL_DIAL devices: \(Errno.current)")
            return nil
        }
        for fd in descriptors {
            var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: fd))
            if epoll_ctl(set.rawValue, EPOLL_CTL_ADD, fd, &event) != 0 {
                log(.error, "Failed to add descriptor \(fd) to the epoll set: \(Errno.current)")
                return nil
            }
        }
        return set
    }

    /// Touches map onto `transform` from the next event on (a hotplug gave the output a new size).
    package func retarget(_ transform: ScreenTransform) {
        copier.panelWidth = UInt32(max(transform.panelWidth, 1))
        copier.panelHeight = UInt32(max(transform.panelHeight, 1))
        translator.retarget(transform)
    }

    /// Devices present now, by their TouchInput number.
    package var devices: [InputDeviceID: InputDeviceInfo] { translator.devices }

    package func drain() throws -> [InputEvent] {
        defer { pending = [] }
        return try pending + read() + dials.drain()
    }

    /// One libinput_dispatch and everything it queued, translated.
    private func read() throws(InputSystemError) -> [InputEvent] {
        try context.dispatch()
        var records: [DeviceRecord] = []
        context.forEachEvent { event in
            if let record = copier.copy(event, added: configure) { records.append(record) }
        }
        for record in records {
            switch record {
            case let .added(id, info):
                log(.info, "input \(id): \(info.sysname) \"\(info.name)\" \(info.capabilities.names)")
            case let .removed(id):
                log(.info, "input \(id): removed")
            default:
                break
            }
        }
        return translator.translate(records)
    }

    /// Sets the calibration matrix (libinput_device_config_calibration_set_matrix) on a new device.
    private func configure(_ device: OpaquePointer, _ info: InputDeviceInfo) {
        guard let calibration, info.capabilities.contains(.touch) else { return }
        guard info.acceptsCalibration else {
            log(.error, "\(info.sysname) \"\(info.name)\": the device takes no calibration matrix; touches are not calibrated")
            return
        }
        let status = calibration.values.withUnsafeBufferPointer { buffer in
            libinput_device_config_calibration_set_matrix(device, buffer.baseAddress)
        }
        if status != LIBINPUT_CONFIG_STATUS_SUCCESS {
            let reason = libinput_config_status_to_str(status).map { String(cString: $0) } ?? "unknown status"
            log(.error, "Failed to set calibration matrix \(calibration) on \(info.sysname): \(reason)")
        }
    }
}
