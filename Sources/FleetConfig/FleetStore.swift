import KioskConfiguration
import LinuxSystem

/// The state folder of pushed configurations: `current.bundle` (confirmed, what runs),
/// `last-good.bundle` (the confirmed one before it), `pending.bundle` (running, not yet
/// confirmed), `incoming.bundle` (taken, waiting for its icons or its build; see
/// `FleetMachine`) and `highest-serial`. Bundles are stored as received, signature and all, so a
/// torn or tampered file fails verification when read and is skipped; `highest-serial` carries a
/// checksum for the same reason. Every write is a temporary file, fsync, rename, fsync of the
/// folder: after a power cut each name holds the old bytes or the new ones.
package struct FleetStore {
    package enum Slot: String, CaseIterable, Sendable {
        case current, pending, lastGood = "last-good", incoming
        package var fileName: String { rawValue + ".bundle" }
    }

    package let directory: String
    /// Where the store kills its own process, for the crash-safety test
    /// (`DIALKIOSK_FLEET_CRASH_AT=POINT@N`: at POINT of its Nth write or rename, POINT one of
    /// `torn`, `before-rename`, `after-rename`); nil in service.
    package let crashPoint: String?
    private let crashIndex: Int
    private let steps = StepCounter()

    package init(directory: String, crashPoint: String? = nil) {
        self.directory = directory
        let parts = crashPoint?.split(separator: "@")
        self.crashPoint = parts?.first.map(String.init)
        crashIndex = parts.flatMap { $0.count > 1 ? Int($0[1]) : 1 } ?? 1
    }

    /// Counts the store's writes and renames for `crashPoint`.
    private final class StepCounter: @unchecked Sendable {
        var count = 0
    }

    /// `--state-dir`, else `$STATE_DIRECTORY` (the unit's `StateDirectory=`; the first of a
    /// colon-separated list), else /var/lib/dialkiosk.
    package static func directory(option: String?, environment: [String: String]) -> String {
        if let option { return option }
        if let state = environment["STATE_DIRECTORY"], let first = state.split(separator: ":").first { return String(first) }
        return "/var/lib/dialkiosk"
    }

    package func path(_ slot: Slot) -> String { directory + "/" + slot.fileName }
    /// Where icon blobs are kept, each named by its SHA-256 in hex.
    package var blobDirectory: String { directory + "/blobs" }

    /// Whether the blob `sha256` is here with the bytes its name says (a torn or changed one
    /// is not: it is fetched again, or the bundle naming it is refused).
    package func hasBlob(_ sha256: String) -> Bool {
        guard let bytes = try? Self.readFile(blobDirectory + "/" + sha256, limit: ConfigBundle.maxBlobBytes) else { return false }
        return (try? Sodium.sha256Hex(bytes)) == sha256
    }

    /// Keeps a blob whose SHA-256 the caller checked, written as every state file is.
    package func storeBlob(_ bytes: [UInt8], sha256: String) throws(FleetError) {
        try makeDirectory()
        if let failure = FilePaths.makeDirectory(blobDirectory, mode: 0o700), failure != .fileExists {
            throw FleetError("cannot create \(blobDirectory): \(failure)")
        }
        try write(bytes, to: blobDirectory + "/" + sha256, folder: blobDirectory)
    }
    var serialPath: String { directory + "/highest-serial" }

    // MARK: reading

    /// A slot's bytes; nil when there is no such file. Larger than a bundle may be: an error.
    package func read(_ slot: Slot) throws(FleetError) -> [UInt8]? { try Self.readFile(path(slot), limit: ConfigBundle.maxBytes + 1) }

    /// The highest serial taken; 0 when none. A torn or edited file is an error (the caller
    /// logs it and refuses every bundle until `reset`, rather than accept a replay).
    package func highestSerial() throws(FleetError) -> UInt64 {
        guard let bytes = try Self.readFile(serialPath, limit: 256) else { return 0 }
        let text = String(decoding: bytes, as: UTF8.self)
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 3, words[1] == "check", let serial = ConfigBundle.decimal(words[0]),
              words[2] == Self.check(String(words[0])) else {
            throw FleetError("\(serialPath): torn or edited (expected 'N check HEX'); refusing bundles until 'dialkiosk config reset'")
        }
        return serial
    }

    // MARK: writing

    package func setHighestSerial(_ serial: UInt64) throws(FleetError) {
        try write(Array("\(serial) check \(Self.check(String(serial)))\n".utf8), to: serialPath)
    }

    package func store(_ bytes: [UInt8], in slot: Slot) throws(FleetError) { try write(bytes, to: path(slot)) }

    /// `pending` becomes `current`, and `confirmedBytes` (the bundle that ran confirmed until
    /// now, nil: the local file) `last-good`. Each step leaves a state start-up reads right:
    /// killed between them, the old current (or the new one) runs.
    package func promotePending(confirmedBytes: [UInt8]?) throws(FleetError) {
        guard try read(.pending) != nil else { throw FleetError("no pending configuration to confirm") }
        if let confirmedBytes { try store(confirmedBytes, in: .lastGood) }
        steps.count += 1
        crash("before-rename")
        try rename(path(.pending), to: path(.current))
        crash("after-rename")
    }

    /// `incoming` becomes `pending` (a pending one it replaces goes: it was never confirmed).
    package func incomingToPending() throws(FleetError) {
        guard try read(.incoming) != nil else { throw FleetError("no incoming configuration to run") }
        steps.count += 1
        crash("before-rename")
        try rename(path(.incoming), to: path(.pending))
        crash("after-rename")
    }

    package func remove(_ slot: Slot) throws(FleetError) {
        if let failure = FilePaths.unlink(path(slot)), failure != .noSuchFile {
            throw FleetError("cannot remove \(path(slot)): \(failure)")
        }
        try syncDirectory()
    }

    /// `config reset`: every pushed configuration goes; the highest serial stays (a replay of
    /// an old bundle is still refused).
    package func reset() throws(FleetError) {
        for slot in Slot.allCases { try remove(slot) }
    }

    // MARK: files

    private func crash(_ point: String) {
        if crashPoint == point && steps.count == crashIndex { FilePaths.killThisProcess() }
    }

    private func write(_ bytes: [UInt8], to target: String, folder: String? = nil) throws(FleetError) {
        try makeDirectory()
        steps.count += 1
        let temporary = target + ".tmp"
        let file: FileDescriptor
        switch FileDescriptor.open(temporary, [.writeOnly, .create, .truncate, .noFollow], mode: 0o600) {
        case .failure(let e): throw FleetError("cannot create \(temporary): \(e)")
        case .success(let fd): file = fd
        }
        // Half the bytes, then the kill: a torn temporary file, never renamed.
        if crashPoint == "torn" && steps.count == crashIndex {
            _ = file.writeAll(Array(bytes.prefix(bytes.count / 2)))
            crash("torn")
        }
        if case .failure(let e) = file.writeAll(bytes) { throw FleetError("cannot write \(temporary): \(e)") }
        if let failure = file.sync() { throw FleetError("cannot fsync \(temporary): \(failure)") }
        file.close()
        crash("before-rename")
        try rename(temporary, to: target, folder: folder)
        crash("after-rename")
    }

    private func rename(_ from: String, to: String, folder: String? = nil) throws(FleetError) {
        if let failure = FilePaths.rename(from, to: to) { throw FleetError("cannot rename \(from) to \(to): \(failure)") }
        try syncDirectory(folder ?? directory)
    }

    private func makeDirectory() throws(FleetError) {
        if let failure = FilePaths.makeDirectory(directory, mode: 0o700), failure != .fileExists {
            throw FleetError("cannot create \(directory): \(failure)")
        }
    }

    private func syncDirectory(_ folder: String? = nil) throws(FleetError) {
        let folder = folder ?? directory
        switch FilePaths.syncDirectory(folder) {
        case nil: return
        case .open(let e): throw FleetError("cannot open \(folder): \(e)")
        case .sync(let e): throw FleetError("cannot fsync \(folder): \(e)")
        }
    }

    /// The bytes of `path` (nil: no such file), refused past `limit` bytes; a FIFO does not block.
    package static func readFile(_ path: String, limit: Int) throws(FleetError) -> [UInt8]? {
        let file: FileDescriptor
        switch FileDescriptor.open(path, [.readOnly, .noFollow, .nonBlocking]) {
        case .failure(let e) where e == .noSuchFile: return nil
        case .failure(let e): throw FleetError("cannot open \(path): \(e)")
        case .success(let fd): file = fd
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            switch chunk.withUnsafeMutableBytes({ file.read(into: $0) }) {
            case .failure(let e): throw FleetError("cannot read \(path): \(e)")
            case .success(0): return bytes
            case .success(let n):
                bytes += chunk[0..<n]
                if bytes.count > limit { throw FleetError("\(path): larger than \(limit) bytes") }
            }
        }
    }

    /// FNV-1a (64 bit) in hex: catches a torn or hand-edited serial file; not a defence against
    /// someone who can write the state folder (they could write anything).
    static func check(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
