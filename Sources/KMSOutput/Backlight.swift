import Glibc
import LinuxSystem

/// The panel backlight of one connector, through sysfs (`class/backlight/NAME/brightness`):
/// found, dimmed, and put back. The sysfs root is an argument so tests run it on a fake tree.
///
/// The brightness file is root's by default; the package's udev rule
/// (70-dialkiosk-backlight.rules) gives group video write access, the service user's group.
public final class Backlight {
    /// Why a connector gets no backlight: logged once, and the dim frame is painted instead.
    public enum Unavailable: Error, Equatable, CustomStringConvertible {
        /// No backlight device matches the connector.
        case none(connector: String)
        /// `max_brightness` or `brightness` is missing or not a number.
        case unreadable(path: String)
        /// `brightness` cannot be opened for writing (errno); the udev rule is missing.
        case notWritable(path: String, Errno)

        public var description: String {
            switch self {
            case .none(let connector): return "no backlight belongs to \(connector)"
            case .unreadable(let path): return "\(path) is missing or not a number"
            case .notWritable(let path, let errno):
                return "\(path) is not writable (\(errno); the package's udev rule 70-dialkiosk-backlight.rules grants group video)"
            }
        }
    }

    /// The backlight's directory (`<root>/class/backlight/NAME`).
    public let directory: String
    public let maxBrightness: Int
    /// The brightness before `dim`, put back by `restore`; nil while not dimmed.
    public private(set) var saved: Int?

    private init(directory: String, maxBrightness: Int) {
        self.directory = directory
        self.maxBrightness = maxBrightness
    }

    /// The backlight of `connector` (the kernel's name, "eDP-1") on `card` ("card0"), checked
    /// readable and writable.
    /// Matching: a backlight whose `device` link resolves to the connector's directory
    /// `class/drm/CARD-CONNECTOR` (i915's intel_backlight, most DSI panels); otherwise, when
    /// exactly one backlight exists and the connector is internal (eDP, LVDS, DSI), that one
    /// (acpi_video0, a platform PWM backlight).
    public static func open(sysfsRoot: String, card: String, connector: String) -> Result<Backlight, Unavailable> {
        let classDir = sysfsRoot + "/class/backlight"
        let names = directoryEntries(classDir).sorted()
        let connectorDir = realPath(sysfsRoot + "/class/drm/\(card)-\(connector)")
        let owned = names.first { name in
            connectorDir != nil && realPath("\(classDir)/\(name)/device") == connectorDir
        }
        guard let name = owned ?? (names.count == 1 && isInternal(connector) ? names.first : nil) else {
            return .failure(.none(connector: connector))
        }
        let dir = "\(classDir)/\(name)"
        guard let max = readNumber(dir + "/max_brightness"), max > 0, readNumber(dir + "/brightness") != nil else {
            return .failure(.unreadable(path: dir))
        }
        // Opened once to check the permission; the owner closes it at once.
        if case .failure(let errno) = FileDescriptor.open(dir + "/brightness", flags: O_WRONLY | O_CLOEXEC).map({ $0.close() }) {
            return .failure(.notWritable(path: dir + "/brightness", errno))
        }
        return .success(Backlight(directory: dir, maxBrightness: max))
    }

    /// eDP, LVDS and DSI are panels built into the device: the only connectors a lone backlight
    /// can belong to.
    public static func isInternal(_ connector: String) -> Bool {
        ["eDP-", "LVDS-", "DSI-"].contains { connector.hasPrefix($0) }
    }

    /// The dimmed value for a panel at `current` out of `max`: `fraction` of it, never 0 (0
    /// switches many panels' backlight off entirely) and never above `current`.
    public static func dimmed(current: Int, max: Int, fraction: Double) -> Int {
        let target = Int((Double(current) * fraction).rounded())
        return Swift.min(current, Swift.max(target, Swift.min(1, max)))
    }

    /// Saves the current brightness and writes `fraction` of it. A second call while dimmed
    /// keeps the first saved value.
    public func dim(fraction: Double) throws(Unavailable) {
        guard saved == nil else { return }
        guard let current = Backlight.readNumber(directory + "/brightness") else {
            throw .unreadable(path: directory + "/brightness")
        }
        try write(Backlight.dimmed(current: current, max: maxBrightness, fraction: fraction))
        saved = current
    }

    /// Writes the saved brightness back (wake and exit); nothing when not dimmed.
    public func restore() throws(Unavailable) {
        guard let saved else { return }
        try write(saved)
        self.saved = nil
    }

    private func write(_ value: Int) throws(Unavailable) {
        let path = directory + "/brightness"
        let file: FileDescriptor
        switch FileDescriptor.open(path, flags: O_WRONLY | O_CLOEXEC) {
        case .success(let f): file = f
        case .failure(let errno): throw .notWritable(path: path, errno)
        }
        defer { file.close() }
        let text = Array("\(value)\n".utf8)
        switch text.withUnsafeBytes({ file.write($0) }) {
        case .success(let n) where n == text.count: return
        case .success: throw .notWritable(path: path, Errno(EIO))
        case .failure(let errno): throw .notWritable(path: path, errno)
        }
    }

    private static func readNumber(_ path: String) -> Int? {
        guard let file = try? FileDescriptor.open(path, flags: O_RDONLY | O_CLOEXEC).get() else { return nil }
        defer { file.close() }
        var bytes = [UInt8](repeating: 0, count: 32)
        guard let n = try? bytes.withUnsafeMutableBytes({ file.read(into: $0) }).get(), n > 0 else { return nil }
        // sysfs attributes end in a newline.
        return Int(String(decoding: bytes[0..<n].filter { $0 != UInt8(ascii: "\n") }, as: UTF8.self))
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func directoryEntries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
