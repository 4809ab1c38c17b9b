import DialCore
import DialRender
import Glibc
import Testing
@testable import DialKioskApp
@testable import KioskRuntime
@testable import KioskConfiguration
import KioskTestSupport

/// The decoded pixels of a menu's icons are bounded, each distinct file
/// counted once; more is refused at check-config, start and reload with the line of the icon
/// that passes the budget.
@Suite struct IconBudgetTests {
    /// A PNG of a few dozen bytes whose header declares `side` x `side` RGBA pixels (no pixel
    /// data worth decoding): the budget is decided from headers alone.
    private static func declaredPNG(side: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            var c: UInt32 = 0xFFFF_FFFF
            for b in body {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return be(UInt32(data.count)) + body + be(~c)
        }
        // libpng reads the header up to the first IDAT: a tiny one (an empty zlib stream).
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", be(side) + be(side) + [8, 6, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
    }

    private func write(_ bytes: [UInt8], _ path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// 17 distinct files of 4 megapixels: 68 > 32, refused at the 9th icon's line (it passes 32).
    @Test func aMenuOverTheBudgetIsRefusedAtTheIconThatPassesIt() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var text = "items:\n"
        for i in 0..<17 {
            write(Self.declaredPNG(side: 2048), dir.path + "/\(i).png")
            text += "  - id: i\(i)\n    icon: \(dir.path)/\(i).png\n"
        }
        let file = dir.path + "/config.yaml"
        writeFile(file, text)
        #expect(throws: ConfigError(file: file, line: 2 + 8 * 2 + 1, key: "items[8].icon",
                                    message: "the menu's icons decode to 68.0 megapixels (71303168 pixels, each distinct file "
                                        + "once), more than the budget of 32 megapixels; this icon passes it (use smaller "
                                        + "images, or the same file for several items)")) {
            try ConfigLoader.load(path: file)
        }
        // check-config exits 78 with the located line.
        #expect(checkConfigStatus(file) == 78)
        // The same file on every item is one file: accepted (its pixels are decoded once).
        var same = "items:\n"
        for i in 0..<17 { same += "  - id: i\(i)\n    icon: \(dir.path)/0.png\n" }
        writeFile(file, same)
        #expect(try ConfigLoader.load(path: file).items.count == 17)
    }

    /// The budget also refuses a reload: the running menu stays.
    @Test func aReloadOverTheBudgetKeepsTheRunningMenu() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.path + "/config.yaml"
        writeFile(file, "items:\n  - id: a\n")
        let running = try ConfigLoader.load(path: file)
        var text = "items:\n"
        for i in 0..<17 {
            write(Self.declaredPNG(side: 2048), dir.path + "/\(i).png")
            text += "  - id: i\(i)\n    icon: \(dir.path)/\(i).png\n"
        }
        writeFile(file, text)
        guard case .keep(let error) = ConfigReload.reload(path: file, current: running) else {
            Issue.record("a menu over the budget was accepted at reload")
            return
        }
        #expect(error.key == "items[8].icon" && error.message.contains("budget of 32 megapixels"))
    }

    private func checkConfigStatus(_ file: String) -> Int32 {
        do {
            var command = try DialKioskCommand.parseAsRoot(["check-config", file])
            try command.run()
            return 0
        } catch {
            return DialKioskCommand.exitCode(for: error).rawValue
        }
    }
}
