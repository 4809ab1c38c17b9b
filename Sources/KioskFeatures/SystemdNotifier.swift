import Glibc
import LinuxSystem
import KioskReporting

/// One line of the sd_notify protocol (sd_notify(3)).
package enum NotifyMessage: Sendable, Equatable {
    /// Start-up finished: sent after the first successful page flip, so "active" means "visible".
    case ready
    /// The main loop is alive (WatchdogSec=).
    case watchdog
    case stopping
    /// A reload began at `monotonicMicroseconds` (CLOCK_MONOTONIC); send `.ready` when it is done.
    case reloading(monotonicMicroseconds: UInt64)
    /// Free text shown by `systemctl status`.
    case status(String)

    /// The `KEY=value` lines of this message.
    package var lines: [String] {
        switch self {
        case .ready: return ["READY=1"]
        case .watchdog: return ["WATCHDOG=1"]
        case .stopping: return ["STOPPING=1"]
        case .reloading(let usec): return ["RELOADING=1", "MONOTONIC_USEC=\(usec)"]
        // A newline would start a new assignment; the protocol has no escaping.
        case .status(let text): return ["STATUS=" + text.map { $0.isNewline ? " " : String($0) }.joined()]
        }
    }
}

/// sd_notify without libsystemd: datagrams to $NOTIFY_SOCKET. Silent (a no-op) when the process
/// was not started by systemd with Type=notify.
package final class SystemdNotifier {
    /// The socket address from $NOTIFY_SOCKET; nil when not under systemd.
    package let socketPath: String?
    private var socket: FileDescriptor?

    /// Reads NOTIFY_SOCKET from `environment`: an absolute path, or `@name` for the abstract namespace.
    package init(environment: [String: String]) {
        let path = environment["NOTIFY_SOCKET"]
        if let path, path.hasPrefix("/") || path.hasPrefix("@"), path.utf8.count > 1 {
            socketPath = path
        } else {
            socketPath = nil
        }
    }

    deinit { close() }

    package var isEnabled: Bool { socketPath != nil }

    /// Sends `messages` as one datagram. Does nothing when not under systemd.
    package func send(_ messages: [NotifyMessage]) throws {
        guard let socketPath else { return }
        let fd: Int32
        if let socket, socket.isOpen {
            fd = socket.rawValue
        } else {
            fd = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { throw SystemCallError("create the notify socket", errno: errno) }
            socket = FileDescriptor(adopting: fd)
        }
        let payload = Array(messages.flatMap(\.lines).joined(separator: "\n").utf8)
        guard let (made, length) = UnixAddress.make(socketPath) else {
            throw SystemCallError("use NOTIFY_SOCKET \(socketPath) (too long)", errno: ENAMETOOLONG)
        }
        var address = made
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                payload.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sa, length) }
            }
        }
        guard sent == payload.count else {
            throw SystemCallError("notify systemd at \(socketPath)", errno: sent < 0 ? errno : EMSGSIZE)
        }
    }

    package func send(_ message: NotifyMessage) throws { try send([message]) }

    /// Closes the socket; safe to call twice.
    package func close() {
        socket?.close()
    }
}

/// sockaddr_un for a filesystem path or, with a leading '@', an abstract name.
package enum UnixAddress {
    package static func make(_ path: String) -> (sockaddr_un, socklen_t)? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }  // abstract names start with a NUL byte and are not terminated
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count + (abstract ? 0 : 1) <= capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let base = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        let length = base + bytes.count + (abstract ? 0 : 1)
        return (address, socklen_t(length))
    }
}
