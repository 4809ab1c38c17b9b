import Glibc
import KioskReporting
import LinuxSystem

/// Where the view listens: a TCP address (the configuration allows loopback only until the view
/// has TLS and a password) or a Unix socket path.
package enum ListenAddress: Sendable, Equatable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case unix(path: String)

    package var description: String {
        switch self {
        case .tcp(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): return "unix:\(path)"
        }
    }
}

/// A listening socket of the view: a TCP one, or a Unix one that owns its file.
enum Listener {
    case tcp(FileDescriptor)
    case unix(UnixListener)

    var descriptor: FileDescriptor {
        switch self {
        case .tcp(let fd): fd
        case .unix(let listener): listener.descriptor
        }
    }

    /// Closes the descriptor (and removes a Unix socket's file); safe to call twice.
    func close() {
        switch self {
        case .tcp(let fd): fd.close()
        case .unix(let listener): listener.close()
        }
    }
}

/// The view's sockets: the non-blocking listener and what accept, recv and send say. Each
/// descriptor has one owner (`FileDescriptor`).
enum ViewSocket {
    static let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)

    /// A listening socket on `address`. A Unix socket is made by LinuxSystem's one rule (a live
    /// socket is never taken over, only a stale one replaced; mode and group set before listen):
    /// the owner's only (0600), or with `group` that group's too (0660, its group set), so an
    /// operator in the group reaches it through an SSH tunnel without root. A Unix listener owns
    /// its file: closing it removes the file.
    static func listen(_ address: ListenAddress, group: String? = nil) throws -> Listener {
        switch address {
        case .unix(let path):
            let gid = try group.map(groupID)
            do {
                return .unix(try UnixListener(path: path, mode: gid == nil ? 0o600 : 0o660, group: gid))
            } catch {
                throw reported(error, address: address, group: group)
            }
        case .tcp(let host, let port):
            var v4 = in_addr(), v6 = in6_addr()
            let name = host == "localhost" ? "127.0.0.1" : host
            if inet_pton(AF_INET, name, &v4) == 1 {
                var sa = sockaddr_in()
                sa.sin_family = sa_family_t(AF_INET)
                sa.sin_port = in_port_t(UInt16(port).bigEndian)
                sa.sin_addr = v4
                return .tcp(try bound(AF_INET, address) { fd in
                    withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
                })
            }
            guard inet_pton(AF_INET6, name, &v6) == 1 else {
                throw SystemCallError("listen on \(address) (not an IP address)", errno: EINVAL, status: .config)
            }
            var sa = sockaddr_in6()
            sa.sin6_family = sa_family_t(AF_INET6)
            sa.sin6_port = in_port_t(UInt16(port).bigEndian)
            sa.sin6_addr = v6
            return .tcp(try bound(AF_INET6, address) { fd in
                withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
            })
        }
    }

    /// The Unix listener's failure worded for the remote view, a configuration error where the
    /// configuration can fix it.
    private static func reported(_ error: UnixListenerError, address: ListenAddress, group: String?) -> SystemCallError {
        switch error.call {
        case .address: return SystemCallError("listen on \(address) (path too long)", errno: error.code, status: .config)
        case .notASocket: return SystemCallError("listen on \(address) (a file that is not a socket is in the way)", errno: error.code, status: .config)
        case .live: return SystemCallError("listen on \(address) (another process is listening on it)", errno: error.code, status: .deviceBusy)
        case .group(let path, _):
            return SystemCallError("give \(path) the group \(group ?? "") (remote.socket_group; the service's user must be in it)",
                                   errno: error.code, status: .config)
        case .mode(let path, _): return SystemCallError("chmod \(path)", errno: error.code)
        case .socket: return SystemCallError("create the remote view's socket for \(address)", errno: error.code)
        case .bind: return SystemCallError("bind the remote view to \(address)", errno: error.code)
        case .listen: return SystemCallError("listen on \(address)", errno: error.code)
        }
    }

    /// The group named `name` in the group database.
    static func groupID(_ name: String) throws -> gid_t {
        errno = 0
        guard let entry = getgrnam(name) else {
            throw SystemCallError("find the group \(name) (remote.socket_group)", errno: errno == 0 ? ENOENT : errno, status: .config)
        }
        return entry.pointee.gr_gid
    }

    private static func bound(_ family: Int32, _ address: ListenAddress, _ bindTo: (Int32) throws -> Int32) throws -> FileDescriptor {
        let fd = socket(family, flags, 0)
        guard fd >= 0 else { throw SystemCallError("create the remote view's socket for \(address)", errno: errno) }
        let owned = FileDescriptor(adopting: fd)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard try bindTo(fd) == 0 else { throw SystemCallError("bind the remote view to \(address)", errno: errno) }
        guard Glibc.listen(fd, 8) == 0 else { throw SystemCallError("listen on \(address)", errno: errno) }
        return owned
    }

    /// The port a TCP listener got (for port 0 in tests).
    static func port(of fd: Int32) -> Int? {
        var ss = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        guard withUnsafeMutablePointer(to: &ss, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }) == 0 else { return nil }
        return peer(ss).port
    }

    /// One waiting connection (non-blocking) and its peer as the `viewer` line names it, or nil.
    static func accept(_ listener: Int32) -> (FileDescriptor, String)? {
        var ss = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &ss) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.accept(listener, $0, &len)
            }
        }
        guard fd >= 0 else { return nil }
        // accept4 is not in Glibc's module: the flags are set at once, before anything is read.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let p = peer(ss)
        if ss.ss_family != sa_family_t(AF_UNIX) {
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        return (FileDescriptor(adopting: fd), p.text)
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// "127.0.0.1:40112", "[::1]:40112" or "unix".
    private static func peer(_ ss: sockaddr_storage) -> (text: String, port: Int?) {
        var ss = ss
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(ss.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &ss) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sa in
                var a = sa.pointee.sin_addr
                inet_ntop(AF_INET, &a, &buffer, socklen_t(buffer.count))
                let port = Int(UInt16(bigEndian: sa.pointee.sin_port))
                return (text(buffer) + ":\(port)", port)
            } }
        case AF_INET6:
            return withUnsafePointer(to: &ss) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sa in
                var a = sa.pointee.sin6_addr
                inet_ntop(AF_INET6, &a, &buffer, socklen_t(buffer.count))
                let port = Int(UInt16(bigEndian: sa.pointee.sin6_port))
                return ("[" + text(buffer) + "]:\(port)", port)
            } }
        default:
            return ("unix", nil)
        }
    }
}
