import Glibc
import LinuxSystem

/// The panel backlight of one connector, through sysfs (`class/backlight/NAME/brightness`):
/// found, dimmed, and put back. The sysfs root is an argument so tests run it on a fake tree.
///
/// The brightness file is root's by default; the package's udev rule
/// (70-dialkiosk-backlight.rules) gives group video write access, the service user's group.
///
/// The value to restore also lives in a state file (`<stateDirectory>/backlight-NAME`, under
/// /run/dialkiosk in the service), written before dimming and removed after the restore: a
/// kiosk killed while dimmed (watchdog, OOM, SIGKILL at the stop timeout) would otherwise leave
/// a quarter of the brightness, which the next start takes as normal and quarters again.
public final class Backlight {
    /// Why a connector gets no backlight: logged once, and the dim frame is painted instead.
    public enum Unavailable: Error, Equatable, CustomStringConvertible {
        /// No backlight device matches the connector.
        case none(connector: String)
        /// `max_brightness` or `brightness` is missing or not a number.
        case unreadable(path: String)
        /// `brightness` cannot be opened for writing (errno); the udev rule is missing.
        case notWritable(path: String, Errno)
        /// The state file keeping the value to restore cannot be written (errno): no dimming
        /// without it, or a restart could take the dimmed value as the normal one.
        case stateNotWritable(path: String, Errno)

        public var description: String {
            switch self {
            case .none(let connector): return "no backlight belongs to \(connector)"
            case .unreadable(let path): return "\(path) is missing or not a number"
            case .notWritable(let path, let errno):
                return "\(path) is not writable (\(errno); the package's udev rule 70-dialkiosk-backlight.rules grants group video)"
            case .stateNotWritable(let path, let errno):
                return "cannot keep the brightness to restore in \(path) (\(errno))"
            }
        }
    }

    /// The backlight's directory (`<root>/class/backlight/NAME`).
    public let directory: String
    public let maxBrightness: Int
    /// The brightness before `dim`, put back by `restore`; nil while not dimmed.
    public private(set) var saved: Int?
    /// The value `dim` wrote: `restore` writes `saved` back only while it is still there.
    public private(set) var dimmedTo: Int?
    /// Where the value to restore is kept across a restart; nil: in memory only.
    public let stateFile: String?
    /// What `open` found in the state file a previous run left.
    public private(set) var recovered: Recovery = .nothing

    /// A previous run's state file, found at `open`.
    public enum Recovery: Equatable, Sendable {
        /// No state file (the last run restored the brightness, or never dimmed).
        case nothing
        /// The brightness was still the dimmed value: the saved one was written back.
        case restored(Int)
        /// The brightness was changed while dimmed (the administrator's value): kept.
        case keptChanged(Int)
        /// The file did not hold two numbers within 0...max: removed, nothing written.
        case discarded
    }

    private init(directory: String, maxBrightness: Int, stateFile: String?) {
        self.directory = directory
        self.maxBrightness = maxBrightness
        self.stateFile = stateFile
    }

    /// The backlight of `connector` (the kernel's name, "eDP-1") on `card` ("card0"), checked
    /// readable and writable.
    /// Matching: a backlight whose `device` link resolves to the connector's directory
    /// `class/drm/CARD-CONNECTOR` (i915's intel_backlight, most DSI panels); otherwise, when
    /// exactly one backlight exists and the connector is internal (eDP, LVDS, DSI), that one
    /// (acpi_video0, a platform PWM backlight).
    ///
    /// `stateDirectory` (the service's RuntimeDirectory): where the value to restore is kept as
    /// `backlight-NAME`. A file left by a run killed while dimmed is applied here: when the
    /// brightness is still the value that run dimmed to, the saved one is written back; when it
    /// differs (the administrator set one meanwhile), theirs stays. Either way the file goes.
    public static func open(sysfsRoot: String, card: String, connector: String,
                            stateDirectory: String? = nil) -> Result<Backlight, Unavailable> {
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
        guard let max = readNumber(dir + "/max_brightness"), max > 0,
              let current = readNumber(dir + "/brightness"), current >= 0 else {
            return .failure(.unreadable(path: dir))
        }
        // Opened once to check the permission; the owner closes it at once.
        if case .failure(let errno) = FileDescriptor.open(dir + "/brightness", flags: O_WRONLY | O_CLOEXEC).map({ $0.close() }) {
            return .failure(.notWritable(path: dir + "/brightness", errno))
        }
        let light = Backlight(directory: dir, maxBrightness: max, stateFile: stateDirectory.map { "\($0)/backlight-\(name)" })
        light.recover(current: current)
        return .success(light)
    }

    /// Applies and removes a previous run's state file (see `open`).
    private func recover(current: Int) {
        guard let stateFile else { return }
        // Only a regular file, opened without waiting and without following a link: a FIFO
        // planted there must not hang the start.
        guard let text = Backlight.readText(stateFile, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, regularOnly: true) else {
            if access(stateFile, F_OK) == 0 {
                unlink(stateFile)
                recovered = .discarded
            }
            return
        }
        unlink(stateFile)
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        // A saved 0 would restore a backlight that is off: never a value to go back to.
        guard numbers.count == 2, (1...maxBrightness).contains(numbers[0]), (0...maxBrightness).contains(numbers[1]) else {
            recovered = .discarded
            return
        }
        let (saved, dimmed) = (numbers[0], numbers[1])
        guard current == dimmed else {
            recovered = .keptChanged(current)
            return
        }
        do {
            try write(saved)
            recovered = .restored(saved)
        } catch {
            recovered = .discarded
        }
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

    /// Saves the current brightness (in memory and in the state file, first) and writes
    /// `fraction` of it. A second call while dimmed keeps the first saved value. A brightness
    /// that does not read as a number of 0 or more is refused, never saved to be written back.
    public func dim(fraction: Double) throws(Unavailable) {
        guard saved == nil else { return }
        guard let current = Backlight.readNumber(directory + "/brightness"), current >= 0 else {
            throw .unreadable(path: directory + "/brightness")
        }
        let target = Backlight.dimmed(current: current, max: maxBrightness, fraction: fraction)
        if let stateFile { try Backlight.writeState(stateFile, "\(current) \(target)\n") }
        do {
            try write(target)
        } catch {
            if let stateFile { unlink(stateFile) }
            throw error
        }
        saved = current
        dimmedTo = target
    }

    /// Writes the saved brightness back (wake and exit); nothing when not dimmed. When the
    /// brightness is no longer the dimmed value, someone set it while dimmed: theirs stays.
    public func restore() throws(Unavailable) {
        guard let saved else { return }
        let current = Backlight.readNumber(directory + "/brightness")
        if current == nil || current == dimmedTo { try write(saved) }
        self.saved = nil
        dimmedTo = nil
        if let stateFile { unlink(stateFile) }
    }

    /// Writes `text` to `path` through a temporary file and rename(2): a kill half-way leaves
    /// the old file or none, never half a number.
    private static func writeState(_ path: String, _ text: String) throws(Unavailable) {
        let temporary = path + ".tmp"
        let file: FileDescriptor
        switch FileDescriptor.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o600) {
        case .success(let f): file = f
        case .failure(let errno): throw .stateNotWritable(path: path, errno)
        }
        let bytes = Array(text.utf8)
        var failure: Errno?
        switch bytes.withUnsafeBytes({ file.write($0) }) {
        case .success(let count): if count != bytes.count { failure = Errno(EIO) }
        case .failure(let errno): failure = errno
        }
        file.close()
        guard failure == nil, rename(temporary, path) == 0 else {
            let why = failure ?? .current
            unlink(temporary)
            throw .stateNotWritable(path: path, why)
        }
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
        // sysfs attributes end in a newline.
        readText(path).flatMap { Int($0.filter { $0 != "\n" }) }
    }

    /// The first 64 bytes of `path` (a sysfs attribute, the state file); nil when unreadable.
    private static func readText(_ path: String, flags: Int32 = O_RDONLY | O_CLOEXEC, regularOnly: Bool = false) -> String? {
        guard let file = try? FileDescriptor.open(path, flags: flags).get() else { return nil }
        defer { file.close() }
        if regularOnly {
            var st = stat()
            guard fstat(file.rawValue, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        }
        var bytes = [UInt8](repeating: 0, count: 64)
        guard let n = try? bytes.withUnsafeMutableBytes({ file.read(into: $0) }).get(), n > 0 else { return nil }
        return String(decoding: bytes[0..<n], as: UTF8.self)
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
