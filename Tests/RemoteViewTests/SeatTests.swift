import DialRender
import Glibc
import KioskReporting
import Testing
@testable import RemoteView

/// Who gets a seat when every one is taken, over real loopback sockets with the hub driven in
/// the test's own thread (time passed in): idle viewers and slow handshakes cannot keep a
/// newcomer out for good.
@Suite struct SeatTests {
    final class Lines: @unchecked Sendable { var all: [String] = [] }

    static let hello = Array("RFB 003.008\n".utf8) + [1, 1]

    func hub(viewers: Int, lines: Lines) throws -> ViewerHub {
        let hub = try ViewerHub(options: .init(listen: .tcp(host: "127.0.0.1", port: 0), maxFPS: 0, maximumViewers: viewers),
                                rotation: .none, keyCommand: { _ in nil })
        hub.log = { lines.all.append($0) }
        hub.take(from: PixelBuffer(width: 64, height: 48, fill: 0x102030), rects: nil)
        return hub
    }

    func pump(_ hub: ViewerHub, now: Double, turns: Int = 40) {
        for _ in 0..<turns {
            var fds = hub.pollDescriptors
            _ = poll(&fds, nfds_t(fds.count), 5)
            _ = hub.serve(fds, now: now)
        }
    }

    func send(_ fd: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The peer closed this connection (EOF after whatever it had sent).
    func closed(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }

    @Test func aNewViewerReplacesTheOneIdleLongest() throws {
        let lines = Lines()
        let hub = try hub(viewers: 2, lines: lines)
        let port = try #require(hub.port)
        let a = OffLoopTests.connect(port: port), b = OffLoopTests.connect(port: port)
        defer { Glibc.close(a); Glibc.close(b) }
        send(a, Self.hello)
        send(b, Self.hello)
        pump(hub, now: 0)
        #expect(hub.watching == 2)
        // `a` presses a key at 5 s; `b` has done nothing since it came.
        send(a, [4, 1, 0, 0, 0, 0, 0xff, 0x0d])
        pump(hub, now: 5)
        let c = OffLoopTests.connect(port: port)
        defer { Glibc.close(c) }
        send(c, Self.hello)
        pump(hub, now: 10)
        #expect(hub.watching == 2)
        #expect(closed(b), "the idle viewer is replaced")
        #expect(!closed(a) && !closed(c))
        #expect(lines.all.contains { $0.contains("left: replaced by a new viewer") }, "\(lines.all)")
    }

    @Test func slowHandshakesMakeRoomForANewConnection() throws {
        let lines = Lines()
        let hub = try hub(viewers: 1, lines: lines)  // two connections held
        let port = try #require(hub.port)
        let slow = [OffLoopTests.connect(port: port), OffLoopTests.connect(port: port)]
        defer { slow.forEach { Glibc.close($0) } }
        pump(hub, now: 0)
        pump(hub, now: 1)
        let fresh = OffLoopTests.connect(port: port)
        defer { Glibc.close(fresh) }
        pump(hub, now: 2)
        send(fresh, Self.hello)
        pump(hub, now: 2.1)
        #expect(hub.watching == 1, "the newcomer completes its handshake: \(lines.all)")
        #expect(closed(slow[0]), "the oldest handshake made room")
        // And a handshake that never ends has its deadline.
        pump(hub, now: 2 + ViewerHub.handshakeSeconds + 1)
        #expect(closed(slow[1]))
    }

    @Test func aUnixSocketIsTheOwnersOrItsGroups() throws {
        let path = "/tmp/dialkiosk-seat-\(getpid()).sock"
        defer { unlink(path) }
        var st = stat()
        let owner = try ViewSocket.listen(.unix(path: path))
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o600)
        owner.close()
        let name = try #require(getgrgid(getegid())).pointee.gr_name.map { String(cString: $0) } ?? ""
        let grouped = try ViewSocket.listen(.unix(path: path), group: name)
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o660 && st.st_gid == getegid())
        grouped.close()
        #expect(throws: SystemCallError.self) { try ViewSocket.listen(.unix(path: path), group: "no-such-group-dk") }
    }

    /// A second view (or anything else) listening at the path is never taken over: the second
    /// listen fails with the first still answering, and the file goes only when its owner closes.
    @Test func aLiveUnixSocketIsNotTakenOver() throws {
        let path = "/tmp/dialkiosk-seat-live-\(getpid()).sock"
        defer { unlink(path) }
        let first = try ViewSocket.listen(.unix(path: path))
        #expect(throws: SystemCallError("listen on unix:\(path) (another process is listening on it)", errno: EADDRINUSE,
                                        status: .deviceBusy)) {
            _ = try ViewSocket.listen(.unix(path: path))
        }
        var st = stat()
        #expect(stat(path, &st) == 0)
        first.close()
        #expect(stat(path, &st) != 0, "closing the listener removes its file")
        // Now the path is free and stale-free: a new view listens.
        let again = try ViewSocket.listen(.unix(path: path))
        again.close()
    }
}
