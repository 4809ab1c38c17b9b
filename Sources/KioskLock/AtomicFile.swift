import LinuxSystem

/// A file replaced whole, so that a crash or a power cut at any point leaves either the old
/// bytes or the new ones under its name: the new bytes into a temporary file beside it, fsync,
/// rename over the name, then fsync of the directory, so the rename itself is on the disk
/// before `write` returns. What the lock shows after a write (a verdict, "PIN set") is only
/// shown once it is there.
package struct AtomicFile: Sendable {
    package let path: String
    /// Where a test stops this write (`LockCrashPoint`); nil in service.
    package var crash: LockCrashPoint.Point?

    package init(path: String, crash: LockCrashPoint.Point? = nil) {
        self.path = path
        self.crash = crash
    }

    package var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Replaces the file with `bytes`, mode `mode`; `owner`: (uid, gid) to give the temporary
    /// file before it is renamed (nil: the caller's).
    package func write(_ bytes: [UInt8], mode: UInt32 = 0o600, owner: (uid: UInt32, gid: UInt32)? = nil) throws(LockFileError) {
        let temporary = path + ".new"
        // O_NOFOLLOW: a link planted at the temporary name is not followed into another file;
        // it is removed first so O_EXCL can refuse anything else standing there.
        FilePaths.unlink(temporary)
        let file: FileDescriptor
        switch FileDescriptor.open(temporary, [.writeOnly, .create, .exclusive, .noFollow], mode: mode) {
        case .success(let fd): file = fd
        case .failure(let errno): throw LockFileError(.open(temporary), errno: errno)
        }
        defer { file.close() }
        var remove = true
        defer { if remove { FilePaths.unlink(temporary) } }
        if crash == .torn {
            _ = file.writeAll(Array(bytes.prefix(bytes.count / 2)))
            LockCrashPoint.fire(.torn, crash)
        }
        if case .failure(let errno) = file.writeAll(bytes) { throw LockFileError(.write(temporary), errno: errno) }
        if let owner, let errno = file.changeOwner(user: owner.uid, group: owner.gid) {
            throw LockFileError(.chown(temporary), errno: errno)
        }
        // The mode again: the umask took bits from open's.
        if let errno = file.changeMode(mode) { throw LockFileError(.chmod(temporary), errno: errno) }
        if let errno = file.sync() { throw LockFileError(.fsync(temporary), errno: errno) }
        LockCrashPoint.fire(.beforeRename, crash)
        if let errno = FilePaths.rename(temporary, to: path) { throw LockFileError(.rename(temporary, path), errno: errno) }
        remove = false
        LockCrashPoint.fire(.afterRename, crash)
        try Self.syncDirectory(directory)
        LockCrashPoint.fire(.afterSync, crash)
    }

    /// fsync of a directory: its entries (a rename into it) reach the disk.
    package static func syncDirectory(_ directory: String) throws(LockFileError) {
        switch FilePaths.syncDirectory(directory) {
        case nil: return
        case .open(let errno): throw LockFileError(.open(directory), errno: errno)
        case .sync(let errno): throw LockFileError(.fsync(directory), errno: errno)
        }
    }
}

/// Where a test kills the process during a lock file's write (`DIALKIOSK_LOCK_CRASH_AT`:
/// `POINT@N`, at POINT of the Nth write, POINT one of `torn`, `before-rename`, `after-rename`,
/// `after-sync`), as a power cut or a kill -9 would stop it.
package struct LockCrashPoint: Sendable, Equatable {
    package enum Point: String, Sendable, CaseIterable {
        case torn
        case beforeRename = "before-rename"
        case afterRename = "after-rename"
        case afterSync = "after-sync"
    }

    package var point: Point
    package var write: Int

    package init(point: Point, write: Int) {
        self.point = point
        self.write = write
    }

    /// `POINT@N` from the environment; nil when absent or malformed.
    package static func from(environment: [String: String]) -> LockCrashPoint? {
        guard let text = environment["DIALKIOSK_LOCK_CRASH_AT"] else { return nil }
        let parts = text.split(separator: "@").map(String.init)
        guard parts.count == 2, let point = Point(rawValue: parts[0]), let n = Int(parts[1]), n >= 1 else { return nil }
        return LockCrashPoint(point: point, write: n)
    }

    /// Kills the process when the write is at `here` and `chosen` is that point.
    static func fire(_ here: Point, _ chosen: Point?) {
        guard here == chosen else { return }
        FilePaths.killThisProcess()
    }
}
