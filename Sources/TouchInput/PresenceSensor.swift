import CLinux
import Glibc
import LinuxSystem

/// A presence sensor seen as an input device (a PIR sensor wired as gpio-keys, a USB sensor):
/// read directly with evdev, for one key's presses only. It is never a touch and never reaches
/// the dial. A device that is missing or goes away (unplugged) is looked for again every
/// `retrySeconds`, said once per outage; `wakeUp` gives that time, so nothing polls while the
/// device is there.
package final class PresenceSensor {
    /// What `device` names: a path (`/dev/input/by-id/...`) or a device name as EVIOCGNAME
    /// reports it (`"gpio-keys"`), looked for among /dev/input/event*.
    package let device: String
    /// The key code (KEY_WAKEUP is 143).
    package let key: UInt16
    package static let retrySeconds = 5.0
    private var fd: FileDescriptor?
    private var path: String?
    private var retryAt: Double?
    /// The outage was said (logged once until the device is back).
    private var missingSaid = false
    private let log: (String) -> Void
    private let inputDirectory: String

    /// Told of each outage once (why) and of the device back (nil): the kiosk's problem list.
    private let status: (String?) -> Void

    package init(device: String, key: UInt16, inputDirectory: String = "/dev/input", log: @escaping (String) -> Void,
                status: @escaping (String?) -> Void = { _ in }) {
        self.device = device
        self.key = key
        self.inputDirectory = inputDirectory
        self.log = log
        self.status = status
    }

    deinit { fd?.close() }

    /// The descriptor to poll while the device is open (-1: none).
    package var pollDescriptor: Int32 { fd?.rawValue ?? -1 }

    /// When the missing device is looked for again (nil: it is open).
    package func wakeUp(now: Double) -> Double? { fd == nil ? (retryAt ?? now) : nil }

    /// Opens the device if it is missing and its retry time came; reads the presses waiting.
    /// Returns how many presses of `key` came.
    package func serve(now: Double) -> Int {
        if fd == nil {
            guard now >= (retryAt ?? now) else { return 0 }
            open(now: now)
            return 0
        }
        return readPresses(now: now)
    }

    private func open(now: Double) {
        guard let found = resolve() else { return missing("presence: no input device \"\(device)\"", now: now) }
        switch FileDescriptor.open(found, flags: O_RDONLY | O_NONBLOCK | O_CLOEXEC) {
        case .failure(let e):
            missing("presence: " + InputSystemError(.open, operation: found, errno: e.rawValue).description, now: now)
        case .success(let opened):
            fd = opened
            path = found
            retryAt = nil
            if missingSaid { status(nil) }
            missingSaid = false
            log("presence: reading key \(key) of \(found)")
        }
    }

    private func missing(_ why: String, now: Double) {
        if !missingSaid {
            log("\(why); trying again every \(Int(Self.retrySeconds)) s")
            status(why)
        }
        missingSaid = true
        retryAt = now + Self.retrySeconds
    }

    private func readPresses(now: Double) -> Int {
        guard let fd else { return 0 }
        var presses = 0
        var buffer = [UInt8](repeating: 0, count: 24 * 64)
        while true {
            let result = buffer.withUnsafeMutableBytes { fd.read(into: $0) }
            switch result {
            case .success(let n) where n > 0:
                presses += buffer.withUnsafeBytes { Self.presses(of: key, in: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                continue
            case .success:
                // End of file: a FIFO's writer went away; the device is gone.
                lost("closed", now: now)
            case .failure(let e) where e.rawValue == EAGAIN:
                break
            case .failure(let e):
                // ENODEV: unplugged.
                lost("\(e)", now: now)
            }
            return presses
        }
    }

    private func lost(_ why: String, now: Double) {
        fd?.close()
        fd = nil
        missing("presence: \(path ?? device) went away (\(why))", now: now)
    }

    /// A path as given, or the event node whose EVIOCGNAME is `device`.
    private func resolve() -> String? {
        if device.hasPrefix("/") { return access(device, F_OK) == 0 ? device : nil }
        guard let dir = opendir(inputDirectory) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("event") { names.append(name) }
        }
        for name in names.sorted() {
            let path = inputDirectory + "/" + name
            guard case .success(let probe) = FileDescriptor.open(path, flags: O_RDONLY | O_NONBLOCK | O_CLOEXEC) else { continue }
            defer { probe.close() }
            var text = [UInt8](repeating: 0, count: 256)
            // EVIOCGNAME(256): _IOC(_IOC_READ, 'E', 0x06, 256).
            let request: UInt = 2 << 30 | 256 << 16 | 0x45 << 8 | 0x06
            guard clinux_ioctl_pointer(probe.rawValue, request, &text) > 0 else { continue }
            if String(decoding: text.prefix { $0 != 0 }, as: UTF8.self) == device { return path }
        }
        return nil
    }

    /// Presses (EV_KEY, `key`, value 1) among the whole `struct input_event`s in `bytes` (64-bit
    /// layout: two 64-bit time words, type and code 16 bits, value 32 bits; 24 bytes).
    static func presses(of key: UInt16, in bytes: UnsafeRawBufferPointer) -> Int {
        var count = 0
        var offset = 0
        while offset + 24 <= bytes.count {
            let type = bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt16.self)
            let code = bytes.loadUnaligned(fromByteOffset: offset + 18, as: UInt16.self)
            let value = bytes.loadUnaligned(fromByteOffset: offset + 20, as: Int32.self)
            if type == 0x01, code == key, value == 1 { count += 1 }
            offset += 24
        }
        return count
    }
}
