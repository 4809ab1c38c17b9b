#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import DialKioskApp

/// Real sockets in a temporary directory. A client's connect and writes complete in the kernel
/// before the server looks, so each step is deterministic without sleeping.
@Suite struct ControlServerTests {
    private func ready(_ server: ControlServer, _ fd: Int32, _ events: Int32 = POLLIN) -> pollfd {
        pollfd(fd: fd, events: Int16(events), revents: Int16(events))
    }

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
        #expect(server.handle(ready(server, server.listeningDescriptor), now: 0).isEmpty)
        #expect(server.clientCount == 2)
        #expect(server.pollDescriptors.count == 3)

        writeAll(a, "select tea\nbogus\n\nactiva")
        let serverSide = server.pollDescriptors.map(\.fd).filter { $0 != server.listeningDescriptor }
        var requests: [ControlServer.Request] = []
        for fd in serverSide { requests += server.handle(ready(server, fd), now: 1.5) }
        #expect(requests.map(\.command) == [.select(id: "tea")])
        #expect(readAvailable(a) == "{\"t\": 1.5, \"event\": \"error\", \"message\": \"unknown command 'bogus'; "
                + "commands: select <id>, activate, show, hide, reload\"}\n")
        #expect(readAvailable(b) == "")

        // The rest of a split line arrives later.
        writeAll(a, "te\n")
        requests = serverSide.flatMap { server.handle(ready(server, $0), now: 2) }
        #expect(requests.map(\.command) == [.activate])

        let line = EventLine.kiosk(.dial(.selected(index: 1, time: 3), frames: 0), items: [])
        server.broadcast(line)
        #expect(readAvailable(a) == line.text + "\n")
        #expect(readAvailable(b) == line.text + "\n")

        let only = EventLine.kiosk(.reloaded(time: 4, items: 2), items: [])
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
        _ = server.handle(ready(server, server.listeningDescriptor), now: 0)
        #expect(server.clientCount == 1)
        let fd = server.pollDescriptors[1].fd
        close(a)
        #expect(server.handle(ready(server, fd, POLLIN | POLLHUP), now: 0).isEmpty)
        #expect(server.clientCount == 0)
        server.broadcast(EventLine.kiosk(.started(time: 0, items: 1), items: []))  // no crash, no SIGPIPE
    }

    @Test func overlongLineDisconnects() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/control.sock"
        let server = try ControlServer(path: path, logger: nil)
        defer { server.close() }
        let a = connectStream(path)
        defer { close(a) }
        _ = server.handle(ready(server, server.listeningDescriptor), now: 0)
        writeAll(a, String(repeating: "x", count: 2000))
        _ = server.handle(ready(server, server.pollDescriptors[1].fd), now: 0)
        #expect(server.clientCount == 0)
        #expect(readAvailable(a).contains("line longer than 1024 bytes"))
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
