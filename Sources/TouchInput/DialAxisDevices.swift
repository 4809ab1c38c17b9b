import CLinux
import KioskSeams
import Glibc
import LinuxSystem

/// Input devices that turn on `REL_DIAL` (a GPIO rotary encoder with `linux,axis = <7>`, a
/// Griffin PowerMate), read straight from evdev: libinput passes `REL_DIAL` to no client, and
/// does not even open a device that has nothing else ("not tagged as supported input device").
/// One unit is one detent; positive (clockwise) is the next item. Which devices: udev's, on the
/// configured seat (`DialAxisPolicy`), those present when the seat opens and those udev's
/// monitor reports later (a USB knob, an overlay loaded late); one that goes away is closed with
/// one log line. `pollDescriptor` (an epoll set of the monitor and the devices) is readable when
/// either has something.
final class DialAxisDevices {
    /// EVIOCSCLOCKID as linux/input.h builds it with _IOW('E', 0xa0, int) (function-like macros
    /// do not reach Swift): sets the clock of the event timestamps.
    static let eviocsclockid: UInt = 1 << 30 | 4 << 16 | 0x45 << 8 | 0xA0
    static let evRel: UInt = 0x02
    static let relDial: UInt16 = 0x07

    let seat: String
    private(set) var devices: [(fd: FileDescriptor, path: String)] = []
    private let log: InputLog
    private var udev: EvdevUdev?
    private let set: FileDescriptor

    /// Opens the REL_DIAL devices on `seat` and starts watching udev for more. Without udev
    /// (no context or monitor: logged) or without an epoll set, no REL_DIAL device is read.
    init(seat: String = DialAxisPolicy.defaultSeat, log: @escaping InputLog) {
        self.seat = seat
        self.log = log
        set = FileDescriptor(adopting: epoll_create1(Int32(EPOLL_CLOEXEC)))
        guard set.isOpen else {
            log(.error, "Failed to create an epoll set for the REL_DIAL devices (epoll_create1): \(Errno.current); they are not read")
            return
        }
        do {
            let udev = try EvdevUdev()
            self.udev = udev
            watch(udev.fileDescriptor, what: "the udev monitor")
            for node in udev.present() { consider(node) }
        } catch {
            log(.error, "\(error); REL_DIAL devices are not read")
        }
    }

    deinit { close() }

    /// Readable while udev has news or a device has events; -1 when nothing can be read.
    var pollDescriptor: Int32 { udev == nil ? -1 : set.rawValue }

    /// Everything the devices have queued, as step commands, after udev's news (devices opened
    /// and closed). A device that is gone (ENODEV) is closed and dropped with one log line.
    func drain() -> [InputEvent] {
        for news in udev?.news() ?? [] {
            switch news {
            case .present(let node): consider(node)
            case .removed(let path): drop(path, because: "removed")
            }
        }
        var out: [InputEvent] = []
        var buffer = [UInt8](repeating: 0, count: 64 * DialAxisDecoder.eventSize)
        devices.removeAll { device in
            while true {
                let result = buffer.withUnsafeMutableBytes { device.fd.read(into: $0) }
                switch result {
                case .success(let n) where n > 0:
                    buffer.withUnsafeBytes { out += DialAxisDecoder.commands(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
                    continue
                case .failure(let e) where e == .wouldBlock:
                    return false
                case .success:
                    return false
                case .failure(let e):
                    // Unplugged: read says ENODEV before (or after) udev's remove; either way once.
                    if e.rawValue == ENODEV {
                        log(.info, "input: \(device.path): gone; no longer read")
                    } else {
                        log(.error, "input: \(device.path): \(e); no longer read")
                    }
                    device.fd.close()
                    return true
                }
            }
        }
        return out
    }

    /// Opens `node` when the policy says to read it and it is not open; closes it when it is
    /// open and no longer to be read (its seat changed).
    private func consider(_ node: EvdevNode) {
        let open = devices.contains { $0.path == node.devnode }
        switch DialAxisPolicy.verdict(node, seat: seat) {
        case .read:
            if !open { self.open(node) }
        case .notADial:
            break
        case .otherSeat(let other):
            if open { drop(node.devnode, because: "moved to seat \(other)") }
            log(.info, "input: \(node.devnode) \"\(node.name)\" turns on REL_DIAL but udev puts it on \(other), not \(seat): not read")
        case .ignored:
            if open { drop(node.devnode, because: "now LIBINPUT_IGNORE_DEVICE") }
            log(.info, "input: \(node.devnode) \"\(node.name)\" turns on REL_DIAL but is marked LIBINPUT_IGNORE_DEVICE: not read")
        }
    }

    private func open(_ node: EvdevNode) {
        switch FileDescriptor.open(node.devnode, flags: O_RDONLY | O_NONBLOCK | O_CLOEXEC) {
        case .failure(let e):
            log(.error, InputSystemError(InputCall(.open, operation: node.devnode), errno: e).description)
        case .success(let fd):
            // Timestamps on CLOCK_MONOTONIC, as libinput asks for its devices and the dial expects.
            var clock = Int32(CLOCK_MONOTONIC)
            _ = clinux_ioctl_pointer(fd.rawValue, Self.eviocsclockid, &clock)
            guard watch(fd.rawValue, what: node.devnode) else { return }
            devices.append((fd, node.devnode))
            log(.info, "input: \(node.devnode) \"\(node.name)\" turns on REL_DIAL, which libinput does not pass on: read directly")
        }
    }

    /// Closes the device at `path` if it is open (closing takes it out of the epoll set).
    private func drop(_ path: String, because reason: String) {
        devices.removeAll { device in
            guard device.path == path else { return false }
            log(.info, "input: \(path): \(reason); no longer read")
            device.fd.close()
            return true
        }
    }

    /// Adds `fd` to the epoll set (epoll_ctl EPOLL_CTL_ADD); false, logged, when that fails.
    @discardableResult
    private func watch(_ fd: Int32, what: String) -> Bool {
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: fd))
        guard epoll_ctl(set.rawValue, EPOLL_CTL_ADD, fd, &event) != 0 else { return true }
        log(.error, "Failed to add \(what) to the epoll set (epoll_ctl): \(Errno.current); not read")
        return false
    }

    /// Closes the devices, then udev, then the epoll set; safe to call twice.
    func close() {
        for device in devices { device.fd.close() }
        devices = []
        udev?.close()
        udev = nil
        set.close()
    }
}

/// `struct input_event` as a 64-bit Linux (amd64, arm64: little-endian) writes it: seconds and
/// microseconds (two 64-bit words), type and code (16 bits each), value (32 bits): 24 bytes.
enum DialAxisDecoder {
    static let eventSize = 24

    /// One `.step(±1)` per REL_DIAL unit in `bytes` (whole events only), at the event's time.
    static func commands(_ bytes: UnsafeRawBufferPointer) -> [InputEvent] {
        var out: [InputEvent] = []
        var offset = 0
        while offset + eventSize <= bytes.count {
            let seconds = bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self)
            let micros = bytes.loadUnaligned(fromByteOffset: offset + 8, as: Int64.self)
            let type = bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt16.self)
            let code = bytes.loadUnaligned(fromByteOffset: offset + 18, as: UInt16.self)
            let value = bytes.loadUnaligned(fromByteOffset: offset + 20, as: Int32.self)
            offset += eventSize
            guard UInt(type) == DialAxisDevices.evRel, code == DialAxisDevices.relDial, value != 0 else { continue }
            let time = Double(seconds) + Double(micros) / 1_000_000
            // A fast spin reports several units at once: one command each, as for wheel detents.
            for _ in 0..<min(Int(value.magnitude), 64) { out.append(.command(.step(value > 0 ? 1 : -1), time: time)) }
        }
        return out
    }
}
