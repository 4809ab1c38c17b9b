import Glibc
import Testing
@testable import KioskReporting
@testable import KioskFeatures
import KioskTestSupport

/// Real sockets in a temporary directory. A client's connect and writes complete in the kernel
/// before the server looks, so each step is deterministic without sleeping.
@Suite struct ControlServerTests {
    @Test func socketIsMode0660AndRemovedOnClose() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/control.sock"
        let server = try ControlServer(path: path, logger: nil)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o660)
        server.close()
        server.close()
        #expect(access(path, F_OK) != 0)
        #expect(server.pollDescriptors.isEmpty)
    }

    @Test func commandsInEventsOut() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/control.sock"
        var logs: [String] = []
        let server = try ControlServer(path: path, logger: JournalLogger(format: LogFormat(journalPrefixes: true)) {
            logs.append($0)
        })
        defer { server.close() }
        let a = connectStream(path), b = connectStream(path)
        #expect(a >= 0 && b >= 0)
        defer { close(a); close(b) }
        #expect(server.handle(readyDescriptor(server.listeningDescriptor), now: 0).isEmpty)
        #expect(server.clientCount == 2)
        #expect(server.pollDescriptors.count == 3)

        writeAll(a, "select tea\nbogus\n\nactiva")
        let serverSide = server.pollDescriptors.map(\.fd).filter { $0 != server.listeningDescriptor }
        var requests: [ControlServer.Request] = []
        for fd in serverSide { requests += server.handle(readyDescriptor(fd), now: 1.5) }
        #expect(requests.map(\.command) == [.select(path: ["tea"])])
        #expect(readAvailable(a) == "{\"t\": 1.5, \"event\": \"error\", \"message\": \"unknown command 'bogus'; "
                + "commands: select <id or path>, activate, back, show, hide, reload, screen on|off|dim|auto, brightness 0-100, repeat, speech on|off, set <path> text|available|value ..., turn <n>, language <code>, confirm <serial>, screenshot\"}\n")
        #expect(readAvailable(b) == "")

        // The rest of a split line arrives later.
        writeAll(a, "te\n")
        requests = serverSide.flatMap { server.handle(readyDescriptor($0), now: 2) }
        #expect(requests.map(\.command) == [.activate])

        let line = EventLine.kiosk(.dial(.selected(index: 1, path: ["b"], time: 3), frames: 0), menu: .empty)
        server.broadcast(line)
        #expect(readAvailable(a) == line.text + "\n")
        #expect(readAvailable(b) == line.text + "\n")

        let only = EventLine.kiosk(.reloaded(time: 4, items: 2), menu: .empty)
        server.reply(to: requests[0].client, only)
        #expect(readAvailable(a) == "{\"t\": 4.0, \"event\": \"reloaded\", \"items\": 2}\n")
        #expect(readAvailable(b) == "")
        #expect(logs.filter { $0.contains("connected") }.count == 2)
    }

    @Test func departedClientIsForgotten() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/control.sock"
        let server = try ControlServer(path: path, logger: nil)
        defer { server.close() }
        let a = connectStream(path)
        _ = server.handle(readyDescriptor(server.listeningDescriptor), now: 0)
        #expect(server.clientCount == 1)
        let fd = server.pollDescriptors[1].fd
        close(a)
        #expect(server.handle(readyDescriptor(fd, POLLIN | POLLHUP), now: 0).isEmpty)
        #expect(server.clientCount == 0)
        server.broadcast(EventLine.kiosk(.started(time: 0, items: 1), menu: .empty))  // no crash, no SIGPIPE
    }

    @Test func overlongLineDisconnects() throws {
        try withControlClient { server, a in
            writeAll(a, String(repeating: "x", count: 2000))
            _ = server.handle(readyDescriptor(server.pollDescriptors[1].fd), now: 0)
            #expect(server.clientCount == 0)
            #expect(readAvailable(a).contains("line longer than 1024 bytes"))
        }
    }

    /// One turn ran every line a client sent (9,000 reloads: 10 s). Now a
    /// turn takes at most `linesPerTurn` lines per client and one reload; the rest waits.
    @Test func aFloodIsTakenAFewLinesPerTurnWithOneReloadEach() throws {
        try withControlClient { server, a in
            writeAll(a, String(repeating: "reload\n", count: 12) + "select tea\n" + String(repeating: "reload\n", count: 7))
            #expect(server.turn([readyDescriptor(server.pollDescriptors[1].fd)], now: 1).map(\.command) == [.reload])
            #expect(server.hasBacklog)
            #expect(server.turn([], now: 1).map(\.command) == [.reload, .select(path: ["tea"])])
            #expect(server.turn([], now: 1).map(\.command) == [.reload])
            #expect(!server.hasBacklog)
            #expect(server.turn([], now: 1).isEmpty)
            #expect(server.clientCount == 1)
        }
    }

    @Test func reloadsCoalesceAcrossClientsKeepingTheOrderOfTheRest() {
        let a = ControlServer.ClientID(fd: 5), b = ControlServer.ClientID(fd: 6)
        let requests: [ControlServer.Request] = [.init(client: a, command: .reload), .init(client: a, command: .hide),
                                                 .init(client: b, command: .reload), .init(client: b, command: .show)]
        #expect(ControlServer.coalescingReloads(requests) == [requests[0], requests[1], requests[3]])
    }

    /// More lines than the read-ahead buffer holds: they wait in the socket (the sender is held
    /// back by the kernel, the server's memory stays bounded) and come in eight a turn.
    @Test func linesBeyondTheBufferWaitInTheSocketAndAllArrive() throws {
        try withControlClient { server, a in
            writeAll(a, String(repeating: "show\n", count: 1000))
            var counts: [Int] = []
            while counts.reduce(0, +) < 1000 && counts.count < 2000 {
                var fds = server.pollDescriptors
                _ = poll(&fds, nfds_t(fds.count), 0)
                counts.append(server.turn(fds, now: 1).count)
            }
            #expect(counts.reduce(0, +) == 1000)
            #expect(counts.allSatisfy { $0 == ControlServer.linesPerTurn })
            #expect(!server.hasBacklog)
        }
    }

    @Test func anOverlongWholeLineDisconnects() throws {
        try withControlClient { server, a in
            writeAll(a, "select " + String(repeating: "x", count: 2000) + "\nactivate\n")
            #expect(server.handle(readyDescriptor(server.pollDescriptors[1].fd), now: 0).isEmpty)
            #expect(server.clientCount == 0)
            #expect(readAvailable(a).contains("line longer than 1024 bytes"))
        }
    }

    /// Sixteen silent clients locked everyone out, and every refusal was a log line. Now a
    /// client silent for `idleTimeout` gives way to a new one, and refusals are logged once per
    /// 10 s with a count.
    @Test func silentClientsGiveWayAndRefusalsAreLoggedSparingly() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var logs: [String] = []
        let server = try ControlServer(path: dir.path + "/control.sock", logger: JournalLogger(format: LogFormat(journalPrefixes: false)) {
            logs.append($0)
        })
        defer { server.close() }
        var peers: [Int32] = []
        defer { peers.forEach { close($0) } }
        // Connect in batches the listen backlog holds, each accepted before the next.
        func connect(_ count: Int, at now: Double) {
            for _ in 0..<count { peers.append(connectStream(server.path)) }
            _ = server.handle(readyDescriptor(server.listeningDescriptor), now: now)
        }
        connect(8, at: 0)
        connect(8, at: 0)
        #expect(server.clientCount == ControlServer.maximumClients)
        // One of them speaks at 50, so it is not the idlest.
        writeAll(peers[0], "show\n")
        _ = server.turn(server.pollDescriptors.map { pollfd(fd: $0.fd, events: $0.events, revents: $0.events & Int16(POLLIN)) }, now: 50)
        for now in [30.0, 31, 32] { connect(1, at: now) }
        #expect(server.clientCount == ControlServer.maximumClients)
        #expect(logs.filter { $0.contains("refused") }.count == 1)
        connect(1, at: 41)
        let refusals = logs.filter { $0.contains("refused") }
        #expect(refusals.count == 2)
        #expect(refusals.last?.hasSuffix("already 16 clients (and 2 more since the last such line)\n") == true, "\(refusals)")
        // At 61 the clients silent since 0 have been idle for a minute: one gives way.
        let before = logs.count
        connect(1, at: 61)
        #expect(server.clientCount == ControlServer.maximumClients)
        #expect(logs[before...].contains { $0.contains("silent for 61 s and a new client needs its place") })
        #expect(!logs[before...].contains { $0.contains("refused") })
        #expect(readAvailable(peers[0]) == "", "the client that spoke at 50 stays")
        var gone = 0
        for fd in peers[1..<16] {
            var b: UInt8 = 0
            if recv(fd, &b, 1, Int32(MSG_DONTWAIT)) == 0 { gone += 1 }
        }
        #expect(gone == 1)
    }

    @Test func rateLimitAdmitsOneLinePerIntervalAndCountsTheRest() {
        var limit = LogRateLimit(interval: 10)
        #expect(limit.admit(now: 0) == 0)
        #expect(limit.admit(now: 1) == nil)
        #expect(limit.admit(now: 9.9) == nil)
        #expect(limit.admit(now: 10) == 2)
        #expect(limit.admit(now: 25) == 0)
    }

    @Test func staleSocketIsReplacedLiveOneIsNot() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/control.sock"
        // A socket file nobody listens on, as a crash leaves it.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var (address, length) = UnixAddress.make(path)!
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, length) } }
        close(stale)
        let first = try ControlServer(path: path, logger: nil)
        #expect(throws: SystemCallError("create control socket \(path) (another dialkiosk is listening on it)",
                                        errno: EADDRINUSE, status: .deviceBusy)) {
            _ = try ControlServer(path: path, logger: nil)
        }
        first.close()

        let plain = dir.path + "/plain"
        let file = try #require(fopen(plain, "w"))
        fclose(file)
        #expect(throws: SystemCallError.self) { _ = try ControlServer(path: plain, logger: nil) }
        #expect(access(plain, F_OK) == 0)
    }

    /// A peer that gets past the file mode (here: the test loosens it to 0666) but is neither
    /// our user, root, nor in the socket's group is refused at accept. Needs root to switch to
    /// nobody, and setpriv from util-linux.
    @Test(.enabled(if: geteuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0 && access("/usr/bin/python3", X_OK) == 0))
    func peerOutsideTheGroupIsRefused() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        chmod(dir.path, 0o755)
        let path = dir.path + "/control.sock"
        var logs: [String] = []
        let server = try ControlServer(path: path, logger: JournalLogger(format: LogFormat(journalPrefixes: false)) {
            logs.append($0)
        })
        defer { server.close() }
        chmod(path, 0o666)
        let script = "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.connect(sys.argv[1])\n"
            + "sys.exit(0 if s.recv(100)==b'' else 3)"
        let argv = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                    "/usr/bin/python3", "-c", script, path]
        let cArgv = argv.map { strdup($0) } + [nil]
        defer { cArgv.forEach { free($0) } }
        var pid = pid_t()
        #expect(posix_spawn(&pid, argv[0], nil, nil, cArgv, environ) == 0)
        // Wait (without a timeout-based verdict) until the connection is queued.
        var listening = pollfd(fd: server.listeningDescriptor, events: Int16(POLLIN), revents: 0)
        while poll(&listening, 1, -1) < 0 && errno == EINTR {}
        _ = server.handle(listening, now: 0)
        #expect(server.clientCount == 0)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(CommandRunner.outcome(status) == .exited(status: 0))
        #expect(logs.contains { $0.hasPrefix("control: refused pid \(pid) (uid 65534, gid 65534)") })
    }
}

/// A client that half-closes after its command (what `socat` does at the end of its input)
/// still gets the reply the command's turn makes, then the connection is closed.
@Suite struct ControlHalfCloseTests {
    @Test func aReplyMadeAfterTheTurnStillReachesAHalfClosedClient() throws {
        try withControlClient { server, client in
            writeAll(client, "select nosuch\n")
            shutdown(client, Int32(SHUT_WR))
            var polled = server.pollDescriptors
            _ = poll(&polled, nfds_t(polled.count), 1000)
            let requests = server.turn(polled, now: 1)
            #expect(requests.count == 1)
            // The service answers after the turn, as LegacyService.replyError does.
            for request in requests { server.reply(to: request.client, EventLine([("event", .string("error")), ("message", .string("no item"))])) }
            #expect(readAvailable(client).contains("no item"))
            // The next turn closes it: the client reads the end.
            #expect(server.hasBacklog)
            polled = server.pollDescriptors
            _ = poll(&polled, nfds_t(polled.count), 0)
            _ = server.turn(polled, now: 2)
            #expect(server.clientCount == 0)
        }
    }
}
