import Glibc

/// Calls on paths that change or resolve names: rename(2), unlink(2), realpath(3); and the
/// process's own id for names no other writer uses.
public enum FilePaths {
    /// rename(2): atomic within one file system. Nil, or the errno.
    public static func rename(_ from: String, to: String) -> Errno? {
        Glibc.rename(from, to) == 0 ? nil : .current
    }

    /// mkdir(2) with `mode` (less the umask). Nil, or the errno (`Errno.fileExists` when
    /// something is there already).
    public static func makeDirectory(_ path: String, mode: UInt32) -> Errno? {
        mkdir(path, mode_t(mode)) == 0 ? nil : .current
    }

    /// mkdir -p: each missing directory of `path` made with `mode`; nil when `path` is a
    /// directory at the end, else the first failure's errno (`notADirectory` for a file there).
    public static func makeDirectories(_ path: String, mode: UInt32 = 0o755) -> Errno? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if let failure = makeDirectory(prefix, mode: mode), failure != .fileExists { return failure }
        }
        switch FileStatus.of(path) {
        case .failure(let failure): return failure
        case .success(let status): return status.kind == .directory ? nil : .notADirectory
        }
    }

    /// Which call of `syncDirectory` failed, with its errno.
    public enum DirectorySyncFailure: Error, Equatable {
        case open(Errno)
        case sync(Errno)
    }

    /// fsync(2) of a directory, so that a rename or unlink in it is on the disk. Nil, or the
    /// call that failed (the open or the sync).
    public static func syncDirectory(_ path: String) -> DirectorySyncFailure? {
        switch FileDescriptor.open(path, [.readOnly, .directory]) {
        case .failure(let failure): return .open(failure)
        case .success(let folder): return folder.sync().map(DirectorySyncFailure.sync)
        }
    }

    /// unlink(2). Nil, or the errno.
    @discardableResult
    public static func unlink(_ path: String) -> Errno? {
        Glibc.unlink(path) == 0 ? nil : .current
    }

    /// realpath(3): the absolute path with every symbolic link resolved; nil when a part is
    /// missing or unreadable.
    public static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// access(2) with R_OK: nil when this process may read `path`, else the errno.
    public static func readProblem(_ path: String) -> Errno? {
        access(path, R_OK) == 0 ? nil : .current
    }

    /// kill(2) of this process with SIGKILL: the end a power cut would make, for the hidden
    /// commands that prove a state file survives one at a chosen point.
    public static func killThisProcess() -> Never {
        kill(getpid(), SIGKILL)
        abort()
    }

    /// getpid(2).
    public static var processID: Int32 { getpid() }

    /// A name next to `path` (the same directory, so rename(2) onto `path` is atomic) that no
    /// other writer uses: the process id and a random number in it.
    public static func temporaryName(beside path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return "\(directory).\(name).\(processID).\(UInt32.random(in: 0...UInt32.max)).tmp"
    }
}
