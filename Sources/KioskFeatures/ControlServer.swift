import DialCore
import Glibc
import KioskSeams
import KioskVocabulary
import LinuxSystem
import KioskReporting

/// The `--control PATH` socket: a non-blocking AF_UNIX stream listener (mode 0660) that streams
/// the event lines to every client and turns their lines into `ControlCommand`s. It never
/// blocks, and its work per loop turn is bounded whatever the clients send: the poll loop polls
/// `pollDescriptors`, hands the results to `turn`, and comes back at once while `hasBacklog`.
/// Each turn takes at most `linesPerTurn` lines from each client (the rest wait in a bounded
/// buffer, then in the socket, which holds the sender back), at most one `reload`, and at most
/// `acceptsPerTurn` new connections.
package final class ControlServer {
    /// A connected client, named by its descriptor while it is open.
    package struct ClientID: Hashable, Sendable {
        package let fd: Int32
    }

    /// A command received from a client.
    package struct Request: Equatable, Sendable {
        package var client: ClientID
        package var command: ControlCommand
    }

    private final class Client {
        /// The connection's one owner: `disconnect` closes it.
        let descriptor: FileDescriptor
        /// The descriptor number, the client's key; kept after the close for the table.
        let fd: Int32
        let peer: PeerCredentials
        var input: [UInt8] = []
        var output: [UInt8] = []
        /// The peer shut its side: the lines still buffered are carried out, then it is closed.
        var inputEnded = false
        /// Its input ended and its last lines were taken: it stays one more turn, so the replies
        /// and events of those commands reach it (a client that half-closes after its command,
        /// as `socat` does, still reads them), then closes once its output is written.
        var closing = false
        /// When it connected or last sent a line (the loop's clock).
        var lastActivity: Double
        init(descriptor: FileDescriptor, peer: PeerCredentials, now: Double) {
            self.descriptor = descriptor
            fd = descriptor.rawValue
            self.peer = peer
            lastActivity = now
        }

        /// A whole line waits in `input`.
        var hasLine: Bool { input.contains(UInt8(ascii: "\n")) }
    }

    /// A line longer than this is not a command: the client gets an error and is closed.
    package static let maximumLineLength = 1024
    /// Input read ahead per client; beyond it the rest stays in the socket until lines are taken.
    package static let maximumBufferedInput = 4 * 1024
    /// Lines taken from one client in one loop turn; the rest wait for the next turns, so one
    /// client's flood costs each frame a bounded amount.
    package static let linesPerTurn = 8
    /// Connections accepted in one loop turn.
    package static let acceptsPerTurn = 8
    /// A client that sent nothing for this long gives up its place when the table is full and a
    /// new client asks (one that only listens to events is welcome while there is room).
    package static let idleTimeout = 60.0
    /// Output kept for a client that does not read; beyond it the client is dropped rather than
    /// letting it hold memory or the loop.
    package static let maximumPendingOutput = 256 * 1024
    package static let maximumClients = 16

    package let path: String
    /// The socket file and its descriptor, made by LinuxSystem's one rule for a Unix listener.
    private let unixListener: UnixListener
    private var listener: FileDescriptor { unixListener.descriptor }
    private var clients: [Int32: Client] = [:]
    private let ownerUID: UInt32
    private let socketGroup: UInt32
    private let logger: JournalLogger?
    /// Refusals are logged at most once per 10 s, with the count held back.
    private var refusalLog = LogRateLimit(interval: 10)

    /// Creates, binds (mode 0660) and listens on `path`. A stale socket left by a crash is
    /// replaced; a live one (another instance answers) or a non-socket file is an error.
    package init(path: String, logger: JournalLogger?) throws {
        self.path = path
        self.logger = logger
        guard !path.hasPrefix("@") else {
            throw SystemCallError("use control socket path \(path) (too long, or not a file path)", errno: ENAMETOOLONG,
                                  status: .usage)
        }
        do {
            unixListener = try UnixListener(path: path, mode: 0o660)
        } catch {
            throw Self.reported(error)
        }
        ownerUID = geteuid()
        socketGroup = unixListener.group
    }

    deinit { close() }

    /// Descriptors to poll: the listener for new clients, each client for input while its
    /// buffer has room and it has not shut its side, and for output while it has unsent lines.
    package var pollDescriptors: [pollfd] {
        guard listener.isOpen else { return [] }
        var fds = [pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0)]
        for client in clients.values.sorted(by: { $0.fd < $1.fd }) {
            let reading = !client.inputEnded && client.input.count < Self.maximumBufferedInput
            let events = (reading ? Int16(POLLIN) : 0) | (client.output.isEmpty ? 0 : Int16(POLLOUT))
            fds.append(pollfd(fd: client.fd, events: events, revents: 0))
        }
        return fds
    }

    /// Lines are waiting that this turn's budget left over: the loop must not sleep in poll.
    package var hasBacklog: Bool {
        clients.values.contains { $0.hasLine || ($0.closing && $0.output.isEmpty) }
    }

    package var clientCount: Int { clients.count }

    /// The listening descriptor (for tests and for logging).
    package var listeningDescriptor: Int32 { listener.rawValue }

    /// Services one descriptor as if `poll` reported it ready (and the backlog), for callers
    /// that look at one descriptor at a time.
    package func handle(_ ready: pollfd, now: Double) -> [Request] {
        var ready = ready
        if ready.revents == 0 { ready.revents = ready.events }
        return turn([ready], now: now)
    }

    /// One loop turn: the descriptors `poll` reported ready (any subset of `pollDescriptors`
    /// with their `revents`), then up to `linesPerTurn` lines from every client, with repeated
    /// reloads coalesced into one. Malformed lines are answered with an `error` event line to
    /// that client only.
    package func turn(_ ready: [pollfd], now: Double) -> [Request] {
        for pfd in ready where pfd.revents != 0 {
            if pfd.fd == listener.rawValue {
                acceptPending(now: now)
                continue
            }
            guard let client = clients[pfd.fd] else { continue }
            if pfd.revents & Int16(POLLOUT) != 0 { flush(client) }
            guard clients[pfd.fd] != nil else { continue }
            if client.closing && client.output.isEmpty {
                finish(client)
                continue
            }
            if pfd.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { receive(client) }
        }
        var requests: [Request] = []
        for client in clients.values.sorted(by: { $0.fd < $1.fd }) {
            requests += takeLines(client, now: now)
        }
        return Self.coalescingReloads(requests)
    }

    /// `requests` with every `reload` after the first removed: one re-read of the file answers
    /// them all (a reload reads and parses the whole file).
    package static func coalescingReloads(_ requests: [Request]) -> [Request] {
        var seenReload = false
        return requests.filter { request in
            guard request.command == .reload else { return true }
            defer { seenReload = true }
            return !seenReload
        }
    }

    /// Sends `line` (and a newline) to every client.
    package func broadcast(_ line: EventLine) {
        let bytes = Array((line.text + "\n").utf8)
        for client in clients.values.sorted(by: { $0.fd < $1.fd }) { enqueue(bytes, to: client) }
    }

    /// Sends `line` (and a newline) to one client, if it is still connected.
    package func reply(to id: ClientID, _ line: EventLine) {
        if let client = clients[id.fd] { enqueue(Array((line.text + "\n").utf8), to: client) }
    }

    private func sendError(_ message: String, to client: Client, now: Double) {
        enqueue(Array((EventLine.kiosk(.error(time: now, message: message), menu: .empty).text + "\n").utf8), to: client)
    }

    /// Closes every client and the listener and removes the socket file; safe to call twice.
    package func close() {
        for fd in clients.keys.sorted() { disconnect(fd) }
        unixListener.close()
    }

    // MARK: connections

    private func acceptPending(now: Double) {
        for _ in 0..<Self.acceptsPerTurn {
            // accept4 is a GNU extension the Glibc module hides; the loop is single-threaded, so
            // setting the flags right after accept leaves no window for a spawn to inherit it.
            let connection: FileDescriptor
            switch Errno.retryingInterrupts({ accept(listener.rawValue, nil, nil) }) {
            case .success(let accepted): connection = FileDescriptor(adopting: accepted)
            case .failure(let failure):
                if failure != .wouldBlock && failure.rawValue != ECONNABORTED {
                    logger?.warning(SystemCallError("accept on control socket \(path)", errno: failure.rawValue).description)
                }
                return
            }
            let fd = connection.rawValue
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            // A connection refused below is closed by `connection` as it goes out of scope.
            guard let peer = Self.credentials(of: fd) else {
                logger?.warning(SystemCallError("read the peer credentials on \(path)", errno: errno).description)
                continue
            }
            guard peer.isAllowed(ownerUID: ownerUID, socketGroup: socketGroup) else {
                refuse(now: now, "control: refused pid \(peer.pid) (uid \(peer.uid), gid \(peer.gid)): "
                       + "not our user, root or in group \(socketGroup)")
                continue
            }
            if clients.count >= Self.maximumClients { evictIdleClient(now: now) }
            guard clients.count < Self.maximumClients else {
                refuse(now: now, "control: refused pid \(peer.pid): already \(Self.maximumClients) clients")
                continue
            }
            clients[fd] = Client(descriptor: connection, peer: peer, now: now)
            logger?.info("control: client pid \(peer.pid) uid \(peer.uid) connected")
        }
    }

    /// Logs a refused connection (its owner closes it); the log line is rate-limited (a peer
    /// can retry in a loop).
    private func refuse(now: Double, _ message: String) {
        if let heldBack = refusalLog.admit(now: now) { logger?.warning(message + LogRateLimit.suffix(heldBack)) }
    }

    /// The table is full: the client that has been silent longest leaves if it has been silent
    /// for `idleTimeout`.
    private func evictIdleClient(now: Double) {
        guard let idlest = clients.values.min(by: { ($0.lastActivity, $0.fd) < ($1.lastActivity, $1.fd) }),
              now - idlest.lastActivity >= Self.idleTimeout else { return }
        logger?.info("control: closed client pid \(idlest.peer.pid): silent for \(fixed(now - idlest.lastActivity, 0)) s "
                     + "and a new client needs its place")
        disconnect(idlest.fd)
    }

    private func disconnect(_ fd: Int32) {
        clients.removeValue(forKey: fd)?.descriptor.close()
    }

    /// Reads what the client sent, up to `maximumBufferedInput` held; the rest stays in the
    /// socket for later turns. A closed or failed peer is marked ended.
    private func receive(_ client: Client) {
        var buffer = [UInt8](repeating: 0, count: Self.maximumBufferedInput)
        while !client.inputEnded && client.input.count < Self.maximumBufferedInput {
            let room = Self.maximumBufferedInput - client.input.count
            let received = buffer.withUnsafeMutableBytes { bytes in
                Errno.retryingInterrupts { recv(client.fd, bytes.baseAddress, room, Int32(MSG_DONTWAIT)) }
            }
            if case .success(let n) = received, n > 0 {
                client.input += buffer[0..<n]
                continue
            }
            if case .failure(.wouldBlock) = received { return }
            client.inputEnded = true  // 0: the peer shut its side; < 0: ECONNRESET and friends
        }
    }

    /// Up to `linesPerTurn` whole lines from the client's buffer. An overlong line (whole or
    /// not) gets an error and closes the client; an ended client is closed once its lines are done.
    private func takeLines(_ client: Client, now: Double) -> [Request] {
        var requests: [Request] = []
        var consumed = 0
        var overlong = false
        for _ in 0..<Self.linesPerTurn {
            guard let newline = client.input[consumed...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            if newline - consumed > Self.maximumLineLength {
                overlong = true
                break
            }
            let line = String(decoding: client.input[consumed..<newline], as: UTF8.self)
            consumed = newline + 1
            client.lastActivity = now
            switch ControlLine.parse(line) {
            case .command(let command): requests.append(Request(client: ClientID(fd: client.fd), command: command))
            case .blank: break
            case .invalid(let message): sendError(message, to: client, now: now)
            }
        }
        client.input.removeFirst(consumed)
        if !overlong && !client.hasLine && client.input.count > Self.maximumLineLength { overlong = true }
        if overlong {
            sendError("line longer than \(Self.maximumLineLength) bytes", to: client, now: now)
            logger?.info("control: client pid \(client.peer.pid) disconnected: line longer than \(Self.maximumLineLength) bytes")
            disconnect(client.fd)
        } else if client.inputEnded && !client.hasLine {
            // Lines taken this turn (or output still waiting): their answers come after the turn.
            if consumed > 0 || !client.output.isEmpty, !client.closing { client.closing = true } else if client.output.isEmpty { finish(client) }
        }
        return requests
    }

    /// A client whose input ended, its replies written: closed.
    private func finish(_ client: Client) {
        logger?.info("control: client pid \(client.peer.pid) disconnected")
        disconnect(client.fd)
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
            let sent = client.output.withUnsafeBytes { bytes in
                Errno.retryingInterrupts { send(client.fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
            }
            if case .success(let n) = sent, n > 0 {
                client.output.removeFirst(n)
                continue
            }
            if case .failure(.wouldBlock) = sent { return }
            disconnect(client.fd)  // EPIPE, ECONNRESET: the client went away
            return
        }
    }

    // MARK: system details

    /// SO_PEERCRED (pid, uid, gid) and SO_PEERGROUPS (supplementary groups, Linux 4.13).
    package static func credentials(of fd: Int32) -> PeerCredentials? {
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

    /// The listener's failure worded for the control socket, with the exit status it leaves with.
    private static func reported(_ error: UnixListenerError) -> SystemCallError {
        let path = error.call.path
        switch error.call {
        case .address: return SystemCallError("use control socket path \(path) (too long, or not a file path)", errno: error.code, status: .usage)
        case .notASocket: return SystemCallError("create control socket \(path) (a file that is not a socket is in the way)", errno: error.code, status: .usage)
        case .live: return SystemCallError("create control socket \(path) (another dialkiosk is listening on it)", errno: error.code, status: .deviceBusy)
        case .socket: return SystemCallError("create control socket \(path)", errno: error.code)
        case .bind: return SystemCallError("bind control socket \(path)", errno: error.code)
        case .group, .mode, .listen: return SystemCallError("set up control socket \(path)", errno: error.code)
        }
    }
}

/// struct ucred from <sys/socket.h> (hidden behind _GNU_SOURCE in the Glibc module).
private struct PeerCred {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
