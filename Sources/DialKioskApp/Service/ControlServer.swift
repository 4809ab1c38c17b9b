#if canImport(Glibc)
import Glibc
#endif

/// The `--control PATH` socket: a non-blocking AF_UNIX stream listener (mode 0660) that streams
/// the event lines to every client and turns their lines into `ControlCommand`s. It never
/// blocks: the poll loop polls `pollDescriptors` and hands each ready one to `handle`.
public final class ControlServer {
    /// A connected client, named by its descriptor while it is open.
    public struct ClientID: Hashable, Sendable {
        public let fd: Int32
    }

    /// A command received from a client.
    public struct Request: Equatable, Sendable {
        public var client: ClientID
        public var command: ControlCommand
    }

    private final class Client {
        let fd: Int32
        let peer: PeerCredentials
        var input: [UInt8] = []
        var output: [UInt8] = []
        init(fd: Int32, peer: PeerCredentials) {
            self.fd = fd
            self.peer = peer
        }
    }

    /// A line longer than this is not a command.
    static let maximumLineLength = 1024
    /// Output kept for a client that does not read; beyond it the client is dropped rather than
    /// letting it hold memory or the loop.
    static let maximumPendingOutput = 256 * 1024
    static let maximumClients = 16

    public let path: String
    private var listener: Int32 = -1
    private var clients: [Int32: Client] = [:]
    private let ownerUID: UInt32
    private let socketGroup: UInt32
    private let logger: JournalLogger?

    /// Creates, binds (mode 0660) and listens on `path`. A stale socket left by a crash is
    /// replaced; a live one (another instance answers) or a non-socket file is an error.
    public init(path: String, logger: JournalLogger?) throws {
        self.path = path
        self.logger = logger
        guard let (address, length) = UnixAddress.make(path), !path.hasPrefix("@") else {
            throw SystemCallError("use control socket path \(path) (too long, or not a file path)", errno: ENAMETOOLONG,
                                  status: .usage)
        }
        try Self.removeStaleSocket(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError("create control socket \(path)", errno: errno) }
        var bound = address
        let rc = withUnsafePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard rc == 0 else {
            let saved = errno
            Glibc.close(fd)
            throw SystemCallError("bind control socket \(path)", errno: saved)
        }
        // chmod before listen: until listen(2) nobody can connect, so there is no window in
        // which the socket is reachable with the umask's mode.
        var info = stat()
        guard chmod(path, 0o660) == 0, stat(path, &info) == 0, listen(fd, 8) == 0 else {
            let saved = errno
            Glibc.close(fd)
            unlink(path)
            throw SystemCallError("set up control socket \(path)", errno: saved)
        }
        listener = fd
        ownerUID = geteuid()
        socketGroup = info.st_gid
    }

    deinit { close() }

    /// Descriptors to poll: the listener for new clients, each client for input, and for
    /// output while it has unsent lines.
    public var pollDescriptors: [pollfd] {
        guard listener >= 0 else { return [] }
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        for client in clients.values.sorted(by: { $0.fd < $1.fd }) {
            let events = Int16(POLLIN) | (client.output.isEmpty ? 0 : Int16(POLLOUT))
            fds.append(pollfd(fd: client.fd, events: events, revents: 0))
        }
        return fds
    }

    public var clientCount: Int { clients.count }

    /// The listening descriptor (for tests and for logging).
    public var listeningDescriptor: Int32 { listener }

    /// Services one descriptor `poll` reported ready; returns the commands that arrived.
    /// Malformed lines are answered with an `error` event line to that client only.
    public func handle(_ ready: pollfd, now: Double) -> [Request] {
        if ready.fd == listener {
            acceptPending()
            return []
        }
        guard let client = clients[ready.fd] else { return [] }
        if ready.revents & Int16(POLLOUT) != 0 { flush(client) }
        guard clients[ready.fd] != nil else { return [] }
        if ready.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            return readCommands(client, now: now)
        }
        return []
    }

    /// Sends `line` (and a newline) to every client.
    func broadcast(_ line: EventLine) {
        let bytes = Array((line.text + "\n").utf8)
        for client in clients.values.sorted(by: { $0.fd < $1.fd }) { enqueue(bytes, to: client) }
    }

    /// Sends `line` (and a newline) to one client, if it is still connected.
    func reply(to id: ClientID, _ line: EventLine) {
        if let client = clients[id.fd] { enqueue(Array((line.text + "\n").utf8), to: client) }
    }

    private func sendError(_ message: String, to client: Client, now: Double) {
        enqueue(Array((EventLine.kiosk(.error(time: now, message: message), items: []).text + "\n").utf8), to: client)
    }

    /// Closes every client and the listener and removes the socket file; safe to call twice.
    public func close() {
        for fd in clients.keys.sorted() { disconnect(fd) }
        if listener >= 0 {
            Glibc.close(listener)
            listener = -1
            unlink(path)
        }
    }

    // MARK: connections

    private func acceptPending() {
        while true {
            // accept4 is a GNU extension the Glibc module hides; the loop is single-threaded, so
            // setting the flags right after accept leaves no window for a spawn to inherit it.
            let fd = accept(listener, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
            if fd < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK && errno != ECONNABORTED {
                    logger?.warning(SystemCallError("accept on control socket \(path)", errno: errno).description)
                }
                return
            }
            guard let peer = Self.credentials(of: fd) else {
                logger?.warning(SystemCallError("read the peer credentials on \(path)", errno: errno).description)
                Glibc.close(fd)
                continue
            }
            guard peer.isAllowed(ownerUID: ownerUID, socketGroup: socketGroup) else {
                logger?.warning("control: refused pid \(peer.pid) (uid \(peer.uid), gid \(peer.gid)): "
                                + "not our user, root or in group \(socketGroup)")
                Glibc.close(fd)
                continue
            }
            guard clients.count < Self.maximumClients else {
                logger?.warning("control: refused pid \(peer.pid): already \(Self.maximumClients) clients")
                Glibc.close(fd)
                continue
            }
            clients[fd] = Client(fd: fd, peer: peer)
            logger?.info("control: client pid \(peer.pid) uid \(peer.uid) connected")
        }
    }

    private func disconnect(_ fd: Int32) {
        guard clients.removeValue(forKey: fd) != nil else { return }
        Glibc.close(fd)
    }

    private func readCommands(_ client: Client, now: Double) -> [Request] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var closed = false
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                client.input += buffer[0..<n]
                if client.input.count > 64 * 1024 { break }  // parse what we have; the rest next time
                continue
            }
            if n < 0 && errno == EINTR { continue }
            closed = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
            break
        }
        var requests: [Request] = []
        while let newline = client.input.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: client.input[..<newline], as: UTF8.self)
            client.input.removeSubrange(...newline)
            switch ControlLine.parse(line) {
            case .command(let command): requests.append(Request(client: ClientID(fd: client.fd), command: command))
            case .blank: break
            case .invalid(let message): sendError(message, to: client, now: now)
            }
        }
        if client.input.count > Self.maximumLineLength {
            sendError("line longer than \(Self.maximumLineLength) bytes", to: client, now: now)
            closed = true
        }
        if closed {
            logger?.info("control: client pid \(client.peer.pid) disconnected")
            disconnect(client.fd)
        }
        return requests
    }

    private func enqueue(_ bytes: [UInt8], to client: Client) {
        client.output += bytes
        flush(client)
        if client.output.count > Self.maximumPendingOutput {
            logger?.warning("control: dropped client pid \(client.peer.pid): it stopped reading events")
            disconnect(client.fd)
        }
    }

    private func flush(_ client: Client) {
        while !client.output.isEmpty {
            let n = client.output.withUnsafeBytes {
                send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if n > 0 {
                client.output.removeFirst(n)
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            disconnect(client.fd)  // EPIPE, ECONNRESET: the client went away
            return
        }
    }

    // MARK: system details

    /// SO_PEERCRED (pid, uid, gid) and SO_PEERGROUPS (supplementary groups, Linux 4.13).
    static func credentials(of fd: Int32) -> PeerCredentials? {
        var cred = PeerCred()
        var length = socklen_t(MemoryLayout<PeerCred>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) == 0 else { return nil }
        var groups = [gid_t](repeating: 0, count: 64)
        var groupsLength = socklen_t(groups.count * MemoryLayout<gid_t>.size)
        let soPeerGroups: Int32 = 59  // SO_PEERGROUPS, not exported by the Glibc module
        var rc = getsockopt(fd, SOL_SOCKET, soPeerGroups, &groups, &groupsLength)
        if rc != 0 && errno == ERANGE {
            groups = [gid_t](repeating: 0, count: Int(groupsLength) / MemoryLayout<gid_t>.size)
            rc = getsockopt(fd, SOL_SOCKET, soPeerGroups, &groups, &groupsLength)
        }
        let supplementary = rc == 0 ? Array(groups.prefix(Int(groupsLength) / MemoryLayout<gid_t>.size)) : []
        return PeerCredentials(pid: cred.pid, uid: cred.uid, gid: cred.gid, groups: supplementary)
    }

    /// Removes a socket file left by a previous run that crashed; refuses to touch a live
    /// socket or anything that is not a socket.
    static func removeStaleSocket(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw SystemCallError("create control socket \(path) (a file that is not a socket is in the way)",
                                  errno: EEXIST, status: .usage)
        }
        let probe = connectProbe(path)
        guard !probe else {
            throw SystemCallError("create control socket \(path) (another dialkiosk is listening on it)",
                                  errno: EADDRINUSE, status: .deviceBusy)
        }
        unlink(path)
    }

    private static func connectProbe(_ path: String) -> Bool {
        guard let (made, length) = UnixAddress.make(path) else { return false }
        var address = made
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        return rc == 0 || errno == EAGAIN
    }
}

/// struct ucred from <sys/socket.h> (hidden behind _GNU_SOURCE in the Glibc module).
private struct PeerCred {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
