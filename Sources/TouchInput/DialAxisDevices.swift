import CLinux
import KioskSeams
import Glibc
import LinuxSystem

/// Input devices that turn on `REL_DIAL` (a GPIO rotary encoder with `linux,axis = <7>`, a
/// Griffin PowerMate), read straight from evdev: libinput passes `REL_DIAL` to no client, and
/// does not even open a device that has nothing else ("not tagged as supported input device").
/// One unit is one detent; positive (clockwise) is the next item. The devices present when the
/// seat opens are read; one plugged in later is not (libinput's hotplug does not cover it).
final class DialAxisDevices {
    /// The evdev ioctls, as linux/input.h builds them with _IOC(direction, 'E', number, size)
    /// (function-like macros do not reach Swift): EVIOCGBIT(type, size) reads a type's code
    /// bitmap, EVIOCSCLOCKID sets the clock of the event timestamps.
    static func eviocgbit(type: UInt, size: Int) -> UInt { 2 << 30 | UInt(size) << 16 | 0x45 << 8 | (0x20 + type) }
    static let eviocsclockid: UInt = 1 << 30 | 4 << 16 | 0x45 << 8 | 0xA0
    static let evRel: UInt = 0x02
    static let relDial: UInt16 = 0x07

    private(set) var devices: [(fd: FileDescriptor, path: String)] = []
    private let log: InputLog

    /// Opens every `eventN` in `directory` whose relative axes include REL_DIAL.
    init(directory: String = "/dev/input", log: @escaping InputLog) {
        self.log = log
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("event") { names.append(name) }
        }
        for name in names.sorted() {
            let path = directory + "/" + name
            guard case .success(let fd) = FileDescriptor.open(path, flags: O_RDONLY | O_NONBLOCK | O_CLOEXEC) else { continue }
            var bits = [UInt8](repeating: 0, count: 2)  // REL_CNT is 16 codes
            let got = bits.withUnsafeMutableBytes {
                clinux_ioctl_pointer(fd.rawValue, Self.eviocgbit(type: Self.evRel, size: 2), $0.baseAddress)
            }
            guard got >= 1, bits[0] & (1 << Self.relDial) != 0 else { continue }
            // Timestamps on CLOCK_MONOTONIC, as libinput asks for its devices and the dial expects.
            var clock = Int32(CLOCK_MONOTONIC)
            _ = clinux_ioctl_pointer(fd.rawValue, Self.eviocsclockid, &clock)
            devices.append((fd, path))
            log(.info, "input: \(path) turns on REL_DIAL, which libinput does not pass on: read directly")
        }
    }

    var descriptors: [Int32] { devices.map(\.fd.rawValue) }

    /// Everything the devices have queued, as step commands; a device that is gone (ENODEV) is
    /// closed and dropped, with one log line.
    func drain() -> [InputEvent] {
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
                    log(.error, "input: \(device.path): \(e); no longer read")
                    device.fd.close()
                    return true
                }
            }
        }
        return out
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
