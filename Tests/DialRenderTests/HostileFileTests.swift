import DialCore
@testable import DialRender
import LinuxSystem
import Foundation
import Glibc
import Testing

/// Hostile input files for the renderer: decompression bombs,
/// FIFOs and devices where a file is expected, fonts FreeType refuses, and PNGs written in place.
@Suite struct HostileFileTests {
    /// A fresh directory under /tmp, removed by the caller with `removeTree`.
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/dialkiosk-hostile-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    static func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    static func write(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    // MARK: - A PNG written byte by byte

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    /// A PNG of a few dozen bytes whose header declares `width` x `height` RGBA pixels, with a
    /// valid IHDR CRC and a tiny IDAT (an empty zlib stream): what a decompression bomb looks like
    /// to the reader before it inflates anything.
    static func declaredPNG(width: UInt32, height: UInt32) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        let idat: [UInt8] = [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]
        return signature + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    @Test(arguments: [(UInt32(20_000), UInt32(20_000)), (60_000, 60_000), (4097, 1), (1, 100_000), (4096, 4096)])
    func iconBombIsRefusedFromItsHeader(width: UInt32, height: UInt32) throws {
        let dir = Self.temporaryDirectory()
        defer { Self.removeTree(dir) }
        let path = dir + "/bomb.png"
        Self.write(Self.declaredPNG(width: width, height: height), to: path)
        // Refused from the header, before the decoder takes width x height x 4 bytes (1.6 GB for
        // 20000x20000; 60000x60000 used to abort the process).
        #expect {
            _ = try PNGReader.readRGBA(path)
        } throws: { error in
            let text = "\(error)"
            return (error as? RenderError)?.kind == .inputFile && text.contains(path)
                && text.contains("declared size \(width)x\(height)") && text.contains("4096x4096")
        }
    }

    @Test func sizeLimitIsOnSidesAndOnTotalPixels() {
        #expect(PNGReader.sizeProblem(width: 4096, height: 2048) == nil)
        #expect(PNGReader.sizeProblem(width: 64, height: 64) == nil)
        #expect(PNGReader.sizeProblem(width: 4097, height: 16) != nil)
        #expect(PNGReader.sizeProblem(width: 16, height: 4097) != nil)
        #expect(PNGReader.sizeProblem(width: 4096, height: 4096) != nil)
    }

    @Test func aPainterWithABombIconFailsNamingTheItem() throws {
        let dir = Self.temporaryDirectory()
        defer { Self.removeTree(dir) }
        let path = dir + "/bomb.png"
        Self.write(Self.declaredPNG(width: 60_000, height: 60_000), to: path)
        let items = [MenuItem(id: "boom", label: "Boom", color: RGBColor(hex: 0x808080), iconPath: path)]
        #expect {
            _ = try DialPainter(items: items, width: 200, height: 200)
        } throws: { error in
            "\(error)".contains("'boom'") && "\(error)".contains("60000x60000")
        }
    }

    @Test func bigIconIsKeptOnlyAtTheLargestSizeItCanBeDrawn() throws {
        let dir = Self.temporaryDirectory()
        defer { Self.removeTree(dir) }
        let path = dir + "/big.png"
        try PNGWriter.write(PixelBuffer(width: 2048, height: 1024, fill: 0x0000FF), to: path)
        var theme = Theme()
        theme.iconReplacesLabel = true
        let items = [MenuItem(id: "a", label: "A", color: RGBColor(hex: 0xFFFFFF), iconPath: path)] + DemoMenu.numbered(3).dropFirst()
        let painter = try DialPainter(items: items, theme: theme, width: 300, height: 200)
        // On a 300x200 frame a disc is at most 200 pixels across, its icon 1.15 x 100 = 115:
        // 115 x 58 pixels of 5 bytes, not the 8 MiB of the source.
        #expect(painter.iconSourceBytes == [115 * 58 * 5, 0, 0])
        let b = PoseBuilder(layout: DialLayout(count: 3), geometry: .fitting(width: 300, height: 200, count: 3))
        let pose = b.pose(rotation: 0, visibility: .shown, time: 0)
        painter.paint(pose)
        #expect(painter.frame[Int(pose.items[0].center.x), Int(pose.items[0].center.y)] == 0x0000FF)
    }

    // MARK: - Not regular files

    /// A FIFO at `path` held open for reading and writing by the test (so nothing that opens it
    /// blocks in open(2)), with `bytes` waiting in it. Returns the descriptor to close.
    static func fifo(_ path: String, holding bytes: [UInt8]) -> Int32 {
        precondition(mkfifo(path, 0o644) == 0)
        let fd = open(path, O_RDWR | O_NONBLOCK)
        precondition(fd >= 0)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        return fd
    }

    @Test func regularFileRefusesFifoDirectoryAndDevice() throws {
        let dir = Self.temporaryDirectory()
        defer { Self.removeTree(dir) }
        // No writer: a blocking open(2) of this FIFO would never return.
        #expect(mkfifo(dir + "/fifo", 0o644) == 0)
        #expect(RegularFile.check(dir + "/fifo")?.reason == "is not a regular file (a FIFO)")
        #expect(throws: RegularFile.Failure(missing: false, reason: "is not a regular file (a FIFO)")) {
            _ = try RegularFile.open(dir + "/fifo")
        }
        #expect(throws: RegularFile.Failure(missing: false, reason: "is a directory")) { _ = try RegularFile.open(dir) }
        #expect(throws: RegularFile.Failure(missing: false, reason: "is not a regular file (a character device)")) {
            _ = try RegularFile.open("/dev/zero")
        }
        #expect(RegularFile.check(dir + "/none")?.missing == true)
        Self.write([1, 2, 3], to: dir + "/file")
        let file = try RegularFile.open(dir + "/file")
        #expect(file.size == 3)
        #expect(fcntl(file.rawValue, F_GETFL) & O_NONBLOCK == 0)
    }

    @Test func iconFifoIsRefusedWithoutReadingIt() throws {
        let dir = Self.temporaryDirectory()
        defer { Self.removeTree(dir) }
        let path = dir + "/icon.png"
        // Garbage waits in the FIFO: code that reads it fails differently instead of hanging.
        let holder = Self.fifo(path, holding: Array("not a png".utf8))
        defer { close(holder) }
        #expect {
            _ = try PNGReader.readRGBA(path)
        } throws: { error in
            "\(error)" == "Failed to read PNG \(path): is not a regular file (a FIFO)"
        }
    }

    @Test func fontFifoAndDirectoryAreRefusedAndFreeTypeErrorsAreExplained() throws {
        let dir = Self.temporaryDirectory()
        defer { Self.removeTree(dir) }
        let catalog = try FontCatalog()
        let fifo = dir + "/font.ttf"
        let holder = Self.fifo(fifo, holding: Array("not a font".utf8))
        defer { close(holder) }
        func message(_ path: String) -> String {
            do {
                _ = try catalog.face(path: path)
                return "loaded"
            } catch {
                return "\(error)"
            }
        }
        #expect(message(fifo) == "Failed to load font \(fifo): is not a regular file (a FIFO)")
        #expect(message(dir) == "Failed to load font \(dir): is a directory")
        let junk = dir + "/junk.ttf"
        Self.write(Array(repeating: 0x41, count: 4096), to: junk)
        #expect(message(junk) == "Failed to load font \(junk): not a font file FreeType knows (unknown file format) (FreeType error 2)")
        #expect(FreeTypeError.describe(0x99) == "FreeType error 153")
    }

    // MARK: - Writing PNGs

    @Test func pngReplacesTheOldFileInOneStepAndLeavesNoTemporary() throws {
        let dir = Self.temporaryDirectory()
        defer { Self.removeTree(dir) }
        let path = dir + "/frame.png", reader = dir + "/reader.png"
        try PNGWriter.write(PixelBuffer(width: 8, height: 8, fill: 0xFF0000), to: path)
        // A second name for the old file, as a reader that has it open sees it: a write in place
        // (truncate, then fill) would change what it reads; a rename leaves it whole.
        #expect(link(path, reader) == 0)
        try PNGWriter.write(PixelBuffer(width: 16, height: 4, fill: 0x00FF00), to: path)
        let old = try PNGReader.readPixels(reader), new = try PNGReader.readPixels(path)
        #expect(old.width == 8 && old[3, 3] == 0xFF0000)
        #expect(new.width == 16 && new[3, 3] == 0x00FF00)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["frame.png", "reader.png"])
    }

    @Test func pngThroughALinkReplacesTheFileAndKeepsTheLink() throws {
        let dir = Self.temporaryDirectory()
        defer { Self.removeTree(dir) }
        let file = dir + "/real.png", link = dir + "/link.png"
        try PNGWriter.write(PixelBuffer(width: 2, height: 2, fill: 0xFF0000), to: file)
        #expect(symlink(file, link) == 0)
        try PNGWriter.write(PixelBuffer(width: 3, height: 3, fill: 0x0000FF), to: link)
        var st = stat()
        #expect(lstat(link, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK)
        #expect(try PNGReader.readPixels(file)[1, 1] == 0x0000FF)
        #expect(PNGWriter.resolvedDestination("/dev/null") == nil)
    }

    @Test func failedPNGWriteLeavesTheOldFileAndNoTemporary() throws {
        let dir = Self.temporaryDirectory()
        defer { Self.removeTree(dir) }
        // The destination is a directory: the write fails, and leaves nothing behind.
        let target = dir + "/out.png"
        #expect(mkdir(target, 0o755) == 0)
        #expect(throws: RenderError.self) { try PNGWriter.write(PixelBuffer(width: 4, height: 4), to: target) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.png"])
    }
}
