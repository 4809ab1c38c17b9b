import DialRender
import Glibc
import KioskLoop
import KioskSeams
import SodiumLink
import Testing
@testable import RemoteView

@Suite struct ScreenshotTests {
    @Test func aScreenshotIsThePanelAsAPNGWrittenOffTheLoop() throws {
        let dir = "/tmp/dialkiosk-shot-test-\(getpid())"
        mkdir(dir, 0o755)
        defer { unlink(dir + "/screenshot.png"); rmdir(dir) }
        var panel = PixelBuffer(width: 40, height: 30, fill: 0x10_2030)
        let row = panel.stride / 4
        panel.withUnsafeMutablePixels { $0[row * 5 + 7] = 0xFF_0000 }
        let worker = ScreenshotWorker(directory: dir)
        var got: Result<Screenshot, ScreenshotError>?
        worker.onDone = { result, _ in got = result }
        #expect(try worker.start(panel))
        #expect(try !worker.start(panel))  // one at a time: the second joins the first
        // The loop's poll: the pipe hangs up when the thread is done.
        var fds = worker.pollDescriptors
        #expect(fds.count == 1)
        #expect(poll(&fds, 1, 10_000) == 1)
        _ = try worker.serve(fds, now: 1)
        let shot = try #require(try got?.get())
        #expect(shot.path == dir + "/screenshot.png" && shot.width == 40 && shot.height == 30)
        let hex = try SHA256.hex(shot.png)
        #expect(shot.sha256 == hex)
        let back = try PNGReader.readPixels(shot.path)
        #expect(back.samePixels(as: panel))
        #expect(worker.pollDescriptors.isEmpty && !worker.isBusy)
    }

    /// `run` by hand has no runtime directory: the PNG is made in memory all the same (what
    /// MQTT publishes), and the missing file is said, not taken for a failed screenshot.
    @Test func aMissingRuntimeDirectoryStillGivesThePNGFromMemory() throws {
        let missing = "/tmp/dialkiosk-shot-missing-\(getpid())/not-here"
        let panel = PixelBuffer(width: 24, height: 16, fill: 0x30_4050)
        let worker = ScreenshotWorker(directory: missing)
        var got: Result<Screenshot, ScreenshotError>?
        worker.onDone = { result, _ in got = result }
        #expect(try worker.start(panel))
        var fds = worker.pollDescriptors
        #expect(poll(&fds, 1, 10_000) == 1)
        _ = try worker.serve(fds, now: 1)
        let shot = try #require(try got?.get())
        #expect(shot.fileProblem?.hasPrefix("cannot write \(missing)/screenshot.png: ") == true, "\(shot.fileProblem ?? "nil")")
        #expect(access(shot.path, F_OK) != 0)
        let hex = try SHA256.hex(shot.png)
        #expect(shot.sha256 == hex)
        // The bytes are a PNG of the panel: written out here, read back by libpng.
        let copy = "/tmp/dialkiosk-shot-copy-\(getpid()).png"
        defer { unlink(copy) }
        let fd = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(shot.png.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == shot.png.count)
        close(fd)
        #expect(try PNGReader.readPixels(copy).samePixels(as: panel))
    }

    @Test func nothingShownYetIsAnError() {
        let worker = ScreenshotWorker(directory: "/tmp")
        #expect(throws: ScreenshotError.self) { try worker.start(PixelBuffer(width: 0, height: 0)) }
    }

    @Test func theRuntimeDirectoryIsSystemdsElseRunDialkiosk() {
        #expect(ScreenshotWorker.directory(environment: ["RUNTIME_DIRECTORY": "/run/a:/run/b"]) == "/run/a")
        #expect(ScreenshotWorker.directory(environment: [:]) == "/run/dialkiosk")
    }
}

@Suite struct ViewLookTests {
    static func frame(_ color: UInt32 = 0x80_C0FE) -> PixelBuffer { PixelBuffer(width: 200, height: 100, fill: color) }

    @Test func aDimGlassIsSentDimmedAndTheMarkSitsInTheTopRightCorner() throws {
        let view = ViewFrame(rotation: .none)
        _ = view.take(Self.frame(), damage: nil, dimmed: true)
        view.panel.withUnsafePixels { #expect($0[0] == 0x40_607F) }
        let (rects, _) = view.take(Self.frame(), damage: [], dimmed: false, mark: true)
        let badge = try #require(ViewMark.rect(panelWidth: 200, panelHeight: 100))
        #expect(rects == [badge])
        #expect(badge.x1 == 200 && badge.y0 == 0)
        #expect(Double((badge.x1 - badge.x0) * (badge.y1 - badge.y0)) <= 0.02 * 200 * 100)
        view.panel.withUnsafePixels { p in
            let stride = view.panel.stride / 4
            let centre = p[(badge.y0 + badge.y1) / 2 * stride + (badge.x0 + badge.x1) / 2]
            #expect(centre == 0xE0_2020)
            #expect(p[0] == 0x40_607F)  // outside the damage: untouched
        }
    }

    @Test func aDarkGlassTurnsTheViewersPanelBlackAndTheNextFrameIsWhole() throws {
        let server = try RemoteViewServer(options: .init(listen: .tcp(host: "127.0.0.1", port: 0)), rotation: .none,
                                          keyCommand: { _ in nil }, log: { _ in })
        defer { server.close() }
        var look = ScreenLook.lit
        server.look = { look }
        server.take(Self.frame(), damage: nil)
        #expect(server.wakeUp(now: 5) == nil)
        look = .blackFrame
        #expect(server.wakeUp(now: 5) == 5)  // no frame comes for a dark glass: the server turns
        _ = try server.serve(server.pollDescriptors, now: 5)
        server.panel.withUnsafePixels { #expect($0[0] == 0 && $0[199] == 0) }
        look = .lit
        // The painter's damage is relative to its last frame, not to black: the whole panel.
        server.take(Self.frame(), damage: [])
        server.panel.withUnsafePixels { #expect($0[0] == 0x80_C0FE) }
        look = .dimmedByPaint
        server.take(Self.frame(), damage: [])
        server.panel.withUnsafePixels { #expect($0[0] == 0x40_607F) }
    }
}

@Suite struct TurnBudgetTests {
    /// Four viewers on real loopback sockets, each asking for a whole raw frame at once: no turn
    /// encodes more than one turn's budget in all (8 viewers must not make turns 8 times longer).
    @Test func oneTurnEncodesAtMostOneBudgetOverAllViewers() throws {
        let server = try ViewerHub(options: .init(listen: .tcp(host: "127.0.0.1", port: 0)), rotation: .none,
                                   keyCommand: { _ in nil })
        defer { server.close() }
        server.take(from: PixelBuffer(width: 512, height: 512, fill: 0x12_3456), rects: nil)
        let port = try #require(server.port)
        var clients: [Int32] = []
        defer { for c in clients { close(c) } }
        for _ in 0..<4 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            #expect(rc == 0)
            // Version, security None, shared, then a whole-frame request, all at once (raw: no
            // SetEncodings).
            let hello = Array("RFB 003.008\n".utf8) + [1, 1] + updateRequest(incremental: false, w: 512, h: 512)
            _ = hello.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            var flag: Int32 = 1
            setsockopt(fd, Int32(SOL_SOCKET), SO_RCVBUF, &flag, 4)
            clients.append(fd)
        }
        var largest = 0
        var drain = [UInt8](repeating: 0, count: 1 << 16)
        for turn in 0..<200 {
            var fds = server.pollDescriptors
            _ = poll(&fds, nfds_t(fds.count), 20)
            let before = server.updateBytes
            _ = server.serve(fds, now: Double(turn))
            largest = max(largest, server.updateBytes - before)
            for c in clients { _ = recv(c, &drain, drain.count, Int32(MSG_DONTWAIT)) }
        }
        #expect(server.updateBytes > 4 * 512 * 512 * 4, "every viewer got its frame")
        // One budget of raw pixels plus rectangle headers.
        #expect(largest <= ViewerHub.pixelsPerTurn * 4 + 64 * 16, "a turn encoded \(largest) bytes")
    }
}
