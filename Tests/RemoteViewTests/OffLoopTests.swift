import DialRender
import Glibc
import KioskSeams
import Testing
@testable import RemoteView

/// Viewers are encoded for off the loop: the thread that calls `take` and `serve` (the loop)
/// spends about the same CPU per frame with 8 Tight viewers reading as with none, and no update
/// is encoded on it.
@Suite struct OffLoopTests {
    static func threadCPU() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func connect(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return fd
    }

    /// Loop CPU seconds per frame over `frames` frames of a moving 200x200 square at 800x480,
    /// with `viewers` Tight viewers that read everything and ask again every frame.
    static func loopCPUPerFrame(viewers: Int, frames: Int) throws -> (perFrame: Double, server: RemoteViewServer, clients: [Int32]) {
        let server = try RemoteViewServer(options: .init(listen: .tcp(host: "127.0.0.1", port: 0), maxFPS: 0), rotation: .none,
                                          keyCommand: { _ in nil }, log: { _ in })
        var image = PixelBuffer(width: 800, height: 480, fill: 0x20_3040)
        server.take(image, damage: nil)
        let port = try #require(server.port)
        var clients: [Int32] = []
        // Version, security None, shared, Tight only, then a whole-frame request.
        let hello = Array("RFB 003.008\n".utf8) + [1, 1] + [2, 0, 0, 1, 0, 0, 0, 7] + updateRequest(incremental: false, w: 800, h: 480)
        for _ in 0..<viewers {
            let fd = connect(port: port)
            _ = hello.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            clients.append(fd)
        }
        var drain = [UInt8](repeating: 0, count: 1 << 16)
        // Until every viewer has had its handshake.
        for _ in 0..<3000 {
            if server.watching >= viewers { break }
            var fds = server.pollDescriptors
            _ = poll(&fds, nfds_t(fds.count), 10)
            _ = try server.serve(fds, now: 0)
        }
        #expect(server.watching == viewers)
        var cpu = 0.0
        let again = updateRequest(incremental: true, w: 800, h: 480)
        for turn in 0..<frames {
            // A noisy square that moves, so Tight has work (filled outside the measurement).
            let x0 = (turn * 7) % 600, y0 = (turn * 3) % 280
            let pitch = image.rowPitch
            image.withUnsafeMutablePixels { p in
                for y in y0..<(y0 + 200) { for x in x0..<(x0 + 200) { p[y * pitch + x] = UInt32(truncatingIfNeeded: (x &* 2654435761) ^ (y &* 40503) ^ turn) & 0xFF_FFFF } }
            }
            let start = threadCPU()
            server.take(image, damage: [PixelRect(x0: x0, y0: y0, x1: x0 + 200, y1: y0 + 200)])
            var fds = server.pollDescriptors
            _ = poll(&fds, nfds_t(fds.count), 0)
            _ = try server.serve(fds, now: Double(turn) / 60)
            for _ in 0..<4 {
                if let wake = server.wakeUp(now: Double(turn) / 60), wake <= Double(turn) / 60 {
                    _ = try server.serve(server.pollDescriptors, now: Double(turn) / 60)
                }
            }
            cpu += threadCPU() - start
            usleep(4000)
            for c in clients {
                while recv(c, &drain, drain.count, Int32(MSG_DONTWAIT)) > 0 {}
                _ = again.withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            }
        }
        // The worker runs below the test's priority: on a busy machine it may be behind. Not
        // measured: frames go on until every viewer has had a few updates (or 30 s).
        for turn in 0..<3000 {
            if server.updateCount >= 3 * viewers { break }
            image.withUnsafeMutablePixels { $0[turn % 200] = UInt32(turn) }
            server.take(image, damage: [PixelRect(x0: 0, y0: 0, x1: 200, y1: 1)])
            var fds = server.pollDescriptors
            _ = poll(&fds, nfds_t(fds.count), 10)
            _ = try server.serve(fds, now: 100)
            for c in clients {
                while recv(c, &drain, drain.count, Int32(MSG_DONTWAIT)) > 0 {}
                _ = again.withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            }
        }
        return (cpu / Double(frames), server, clients)
    }

    @Test func eightTightViewersCostTheLoopAboutWhatNoneDoes() throws {
        let (alone, quiet, _) = try Self.loopCPUPerFrame(viewers: 0, frames: 120)
        quiet.close()
        let (watched, server, clients) = try Self.loopCPUPerFrame(viewers: 8, frames: 120)
        defer { for c in clients { close(c) } }
        let updates = server.updateCount
        let encoders = server.encodedOn
        server.close()
        print("loop CPU per frame: \(fixed(alone * 1000, 3)) ms without viewers, \(fixed(watched * 1000, 3)) ms with 8 Tight viewers; \(updates) updates")
        #expect(updates >= 8 * 3, "the viewers got updates")
        #expect(!encoders.isEmpty && !encoders.contains { pthread_equal($0, pthread_self()) != 0 }, "an update was encoded on the loop's thread")
        // The loop copies the damage twice (into the panel and the hand-over) and reads a pipe.
        #expect(watched <= max(alone * 3, alone + 0.000_25), "the loop spent \(watched * 1000) ms a frame with viewers, \(alone * 1000) without")
    }

    /// The worker listens from the start, but a viewer that connects before the loop's first
    /// frame waits for it: its ServerInit gives the frame's size (a 0x0 viewer would be closed
    /// at the first frame).
    @Test func aViewerBeforeTheFirstFrameGetsItsSize() throws {
        let server = try RemoteViewServer(options: .init(listen: .tcp(host: "127.0.0.1", port: 0)), rotation: .none,
                                          keyCommand: { _ in nil }, log: { _ in })
        defer { server.close() }
        let fd = Self.connect(port: try #require(server.port))
        defer { close(fd) }
        let hello = Array("RFB 003.008\n".utf8) + [1, 1]
        _ = hello.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        usleep(200_000)
        server.take(PixelBuffer(width: 200, height: 100, fill: 0x10_2030), damage: nil)
        var got: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        // Version (12), one security type (2), its result (4), then ServerInit's size.
        while got.count < 22 {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 5000) == 1 else { break }
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { break }
            got += chunk[0..<n]
        }
        try #require(got.count >= 22, "the viewer got \(got.count) bytes")
        #expect(Array(got[18..<22]) == [0, 200, 0, 100], "ServerInit's size")
    }

    /// `close` returns only once the worker has closed its viewers and ended: nothing is left
    /// running after the loop let the view go.
    @Test func closeWaitsForTheWorker() throws {
        let server = try RemoteViewServer(options: .init(listen: .tcp(host: "127.0.0.1", port: 0)), rotation: .none,
                                          keyCommand: { _ in nil }, log: { _ in })
        server.take(PixelBuffer(width: 64, height: 64), damage: nil)
        let fd = Self.connect(port: try #require(server.port))
        defer { close(fd) }
        let hello = Array("RFB 003.008\n".utf8) + [1, 1]
        _ = hello.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        for _ in 0..<500 {
            if server.watching == 1 { break }
            var fds = server.pollDescriptors
            _ = poll(&fds, nfds_t(fds.count), 10)
            _ = try server.serve(fds, now: 0)
        }
        #expect(server.watching == 1)
        #expect(!server.workerEnded)
        server.close()
        #expect(server.workerEnded, "close returned before the worker ended")
        // The viewer's socket was closed by the worker: it reads to the end.
        var chunk = [UInt8](repeating: 0, count: 4096)
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var end = false
        for _ in 0..<100 where !end {
            guard poll(&p, 1, 50) == 1 else { continue }
            end = recv(fd, &chunk, chunk.count, 0) <= 0
        }
        #expect(end, "the viewer's connection is closed")
    }
}
