import LinuxSystem

/// The lock's record in the state directory (`$STATE_DIRECTORY/lock-state`): read once at start,
/// replaced whole (`AtomicFile`) at each change, before the change is shown.
package final class LockStateStore {
    package static let fileName = "lock-state"
    package let path: String
    private let crash: LockCrashPoint?
    private var writes = 0

    package init(directory: String, crash: LockCrashPoint? = nil) {
        path = directory + "/" + Self.fileName
        self.crash = crash
    }

    /// What the file says. No file: nothing failed yet. A file that cannot be read or trusted
    /// (torn, edited, not a regular file, too long) is the most restrictive state at `now`, with
    /// the problem located for the journal.
    package func load(now: Double) -> (state: LockState, problem: LockFileProblem?) {
        switch read() {
        case .success(nil): return (LockState(), nil)
        case .success(let bytes?):
            switch LockState.parse(bytes, file: path) {
            case .success(let state): return (state, nil)
            case .failure(let problem): return (.mostRestrictive(at: now), problem)
            }
        case .failure(let problem): return (.mostRestrictive(at: now), problem)
        }
    }

    /// Replaces the file with `state`; returns once it is on the disk.
    package func save(_ state: LockState) throws(LockFileError) {
        writes += 1
        let point = crash.flatMap { $0.write == writes ? $0.point : nil }
        try AtomicFile(path: path, crash: point).write(Array(state.text.utf8), mode: 0o600)
    }

    private func read() -> Result<[UInt8]?, LockFileProblem> {
        let fd: FileDescriptor
        switch FileDescriptor.open(path, [.readOnly, .noFollow, .nonBlocking]) {
        case .success(let f): fd = f
        case .failure(let errno) where errno == .noSuchFile: return .success(nil)
        case .failure(let errno): return .failure(LockFileProblem(file: path, message: "cannot be opened: \(errno)"))
        }
        defer { fd.close() }
        let st: FileStatus
        switch FileStatus.of(fd) {
        case .success(let status): st = status
        case .failure(let errno): return .failure(LockFileProblem(file: path, message: "fstat: \(errno)"))
        }
        guard st.kind == .regular else { return .failure(LockFileProblem(file: path, message: "not a regular file")) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: LockState.maximumBytes + 1)
        while bytes.count <= LockState.maximumBytes {
            let n = chunk.withUnsafeMutableBytes { fd.read(into: $0) }
            switch n {
            case .success(0): return .success(bytes)
            case .success(let count): bytes += chunk.prefix(count)
            case .failure(let errno): return .failure(LockFileProblem(file: path, message: "cannot be read: \(errno)"))
            }
        }
        return .failure(LockFileProblem(file: path, message: "longer than \(LockState.maximumBytes) bytes: not a lock state"))
    }
}

/// The lock's count of wrong PINs, kept on the disk before anything is shown. A try is counted
/// as a failure before the PIN is checked (`begin`) and the count cleared only once the check
/// says it was right (`succeeded`): a process killed or a power cut during the slow check keeps
/// the failure, so cutting the power is not a free guess.
package final class LockLedger {
    package let store: LockStateStore
    package private(set) var state: LockState

    /// Reads the store (`LockStateStore.load`); `problem` says why its file was not trusted.
    package init(store: LockStateStore, now: Double) {
        self.store = store
        let loaded = store.load(now: now)
        state = loaded.state
        problem = loaded.problem
    }

    /// Why the file read at start was not trusted (the state is then the most restrictive).
    package let problem: LockFileProblem?

    /// The verdict at `now`, without trying anything.
    package func verdict(at now: Double) -> LockBackoff.Verdict { state.verdict(at: now) }

    /// A PIN is about to be checked at `now`: refused (nothing counted) while the back-off runs;
    /// else the try is counted and on the disk when this returns `.allowed`.
    package func begin(at now: Double) throws(LockFileError) -> LockBackoff.Verdict {
        if case .refused = state.verdict(at: now) { return state.verdict(at: now) }
        let next = state.failed(at: now)
        try store.save(next)
        state = next
        return .allowed
    }

    /// The PIN checked after `begin` was right: the count starts again.
    package func succeeded() throws(LockFileError) {
        let next = LockState()
        try store.save(next)
        state = next
    }
}
