import Glibc

/// A step of making a `UnixListener`, as its failure names it.
public enum UnixListenerCall: SystemCall {
    /// The path does not fit in sockaddr_un's sun_path, or is empty.
    case address(path: String)
    /// Something that is not a socket holds the path (EEXIST): it is left alone.
    case notASocket(path: String)
    /// A socket at the path answered connect(2) (EADDRINUSE): another process listens on it.
    case live(path: String)
    /// socket(2).
    case socket(path: String)
    /// bind(2).
    case bind(path: String)
    /// chown(2) to the listener's group.
    case group(path: String, gid: UInt32)
    /// chmod(2) to the listener's mode, and the stat(2) that reads the group back.
    case mode(path: String, mode: UInt32)
    /// listen(2).
    case listen(path: String)

    /// The path the step was made for.
    public var path: String {
        switch self {
        case .address(let path), .notASocket(let path), .live(let path), .socket(let path),
             .bind(let path), .group(let path, _), .mode(let path, _), .listen(let path):
            path
        }
    }

    public var phrase: String {
        switch self {
        case .address(let path): "use \(path) as a socket path (too long, or empty)"
        case .notASocket(let path): "listen on \(path) (a file that is not a socket is in the way)"
        case .live(let path): "listen on \(path) (another process is listening on it)"
        case .socket(let path): "create a socket for \(path)"
        case .bind(let path): "bind \(path)"
        case .group(let path, let gid): "give \(path) the group \(gid)"
        case .mode(let path, let mode): "set the mode of \(path) to \(String(mode, radix: 8))"
        case .listen(let path): "listen on \(path)"
        }
    }
}

/// Why a `UnixListener` could not be made: the step and its errno.
public typealias UnixListenerError = CallError<UnixListenerCall>

/// A non-blocking AF_UNIX stream listener on a file path, made by the package's one rule:
///
/// - a live socket is never taken over: a socket file already at the path is connected to
///   first, and only a stale one (nobody answers, as a crash leaves it) is removed; anything
///   that is not a socket is left where it is and refused;
/// - the group and the mode are set between bind(2) and listen(2), while nobody can connect
///   yet, so there is no moment in which the socket is reachable with the umask's mode;
/// - a failed step removes the file it bound and closes the socket.
///
/// The descriptor has one owner, this listener; `close()` closes it and removes the file.
public final class UnixListener {
    /// The listening descriptor (close-on-exec, non-blocking).
    public let descriptor: FileDescriptor
    public let path: String
    /// The socket file's group after the set-up (the directory's or the process's, or `group`).
    public let group: UInt32

    /// Binds and listens on `path` with `mode` (0o600, 0o660), and `group` when given (else the
    /// group the file was created with). `backlog`: listen(2)'s.
    public init(path: String, mode: UInt32, group: UInt32? = nil, backlog: Int32 = 8) throws(UnixListenerError) {
        self.path = path
        guard var address = Self.address(path) else { throw UnixListenerError(.address(path: path), code: ENAMETOOLONG) }
        try Self.removeStale(path)
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UnixListenerError(.socket(path: path), errno: .current) }
        let owned = FileDescriptor(adopting: fd)  // closed by its deinit when a step below fails
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw UnixListenerError(.bind(path: path), errno: .current) }
        var info = stat()
        let failed: UnixListenerCall?
        if let group, chown(path, uid_t.max, group) != 0 {
            failed = .group(path: path, gid: group)
        } else if chmod(path, mode_t(mode)) != 0 || stat(path, &info) != 0 {
            failed = .mode(path: path, mode: mode)
        } else if Glibc.listen(fd, backlog) != 0 {
            failed = .listen(path: path)
        } else {
            failed = nil
        }
        if let failed {
            let saved = Errno.current
            unlink(path)
            throw UnixListenerError(failed, errno: saved)
        }
        descriptor = owned
        self.group = info.st_gid
    }

    deinit { close() }

    /// Closes the descriptor and removes the socket file; safe to call twice.
    public func close() {
        guard descriptor.isOpen else { return }
        descriptor.close()
        unlink(path)
    }

    /// sockaddr_un for a file path, or nil when it is empty or does not fit (with its NUL).
    static func address(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return address
    }

    /// Removes a socket file nobody listens on; refuses a live socket or a file that is not one.
    static func removeStale(_ path: String) throws(UnixListenerError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw UnixListenerError(.notASocket(path: path), code: EEXIST) }
        guard !answers(path) else { throw UnixListenerError(.live(path: path), code: EADDRINUSE) }
        unlink(path)
    }

    /// connect(2) to `path` succeeds, or would (EAGAIN: a listener whose backlog is full).
    static func answers(_ path: String) -> Bool {
        guard var address = address(path) else { return false }
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return false }
        let probe = FileDescriptor(adopting: fd)
        defer { probe.close() }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return rc == 0 || errno == EAGAIN
    }
}
