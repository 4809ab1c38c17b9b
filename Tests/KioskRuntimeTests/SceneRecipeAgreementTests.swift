import Foundation
import Glibc
import Testing
import DialRender
import KioskReporting
import KioskTestSupport

/// `render` and `run --display virtual` build their scenes by the one recipe with the one
/// rotation rule: for a configuration with `display.rotation: 90` (and no --rotate), the
/// screenshot of the running kiosk (the panel as the virtual display shows it) is the picture
/// `render` writes, pixel for pixel. A command that turns its frame by its own rule, or lays
/// it out by its own recipe, makes them differ.
@Suite(.serialized) struct SceneRecipeAgreementTests {
    @Test func renderAndTheVirtualRunAgreeOnAConfiguredRotation() throws {
        let dir = NSTemporaryDirectory() + "dialkiosk-recipe-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir + "/run", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = dir + "/config.yaml"
        writeFile(config, "display:\n  rotation: 90\nremote:\n  listen: 127.0.0.1:\(try Self.freePort())\n"
                  + "  mark: false\n  screenshots: true\n")
        let control = dir + "/control.sock"
        let kiosk = try startBuiltKiosk(["run", "--display", "virtual:200x120@60", "--config", config, "--items", "5",
                                         "--control", control, "--exit-after", "30"],
                                        stderrFile: dir + "/run.log",
                                        environment: ProcessEnvironment.current().merging(["RUNTIME_DIRECTORY": dir + "/run"]) { $1 })
        defer { if kiosk.isRunning { kiosk.terminate() }; kiosk.waitUntilExit() }

        // The control socket appears once display and input work; the first frame follows.
        var fd: Int32 = -1
        for _ in 0..<300 where fd < 0 {
            if FileManager.default.fileExists(atPath: control) { fd = connectStream(control) }
            if fd < 0 { usleep(50_000) }
        }
        try #require(fd >= 0, "no control socket: \(readFile(dir + "/run.log") ?? "")")
        defer { close(fd) }
        usleep(500_000)
        writeAll(fd, "screenshot\n")
        var reply = "", object: [String: Any]?
        for _ in 0..<200 where object == nil {
            usleep(50_000)
            reply += readAvailable(fd)
            object = reply.split(separator: "\n").lazy
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .first { $0["event"] as? String == "screenshot" }
        }
        let shotLine = try #require(object, "no screenshot line in '\(reply)': \(readFile(dir + "/run.log") ?? "")")
        let shot = try PNGReader.readPixels(try #require(shotLine["path"] as? String))

        let rendered = dir + "/render.png"
        let render = runToCompletion([builtKioskPath, "render", "--config", config, "--items", "5", "--size", "200x120",
                                      "--out", rendered], outputFile: dir + "/render.log")
        #expect(render.status == 0, "\(render.output)")
        let picture = try PNGReader.readPixels(rendered)
        #expect(shot.width == 200 && shot.height == 120)
        let agree = Self.pixels(shot) == Self.pixels(picture)
        #expect(agree, "the virtual run's screen differs from render's picture")
        // The rotation shows: upright, the picture is another one.
        let upright = dir + "/upright.png"
        _ = runToCompletion([builtKioskPath, "render", "--config", config, "--items", "5", "--size", "200x120",
                             "--rotate", "0", "--out", upright], outputFile: dir + "/render.log")
        let turned = Self.pixels(try PNGReader.readPixels(upright)) != Self.pixels(picture)
        #expect(turned, "render --rotate 0 paints the same picture")
    }

    private static func pixels(_ buffer: PixelBuffer) -> [UInt32] {
        (0..<buffer.height).flatMap { y in (0..<buffer.width).map { x in buffer[x, y] & 0x00FF_FFFF } }
    }

    /// A loopback TCP port nobody listens on now.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        try #require(ok)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
