import DialCore
@testable import DialRender
import Glibc
import Synchronization
import Testing

/// Each distinct icon file is decoded once per painter build (it was decoded
/// once per item: 20 s for 512 items naming one 8-megapixel file), and the decoded pixels of a
/// menu are bounded.
@Suite struct IconCacheTests {
    /// A counting decoder (the real one underneath).
    private final class Counter: Sendable {
        let calls = Mutex<[String]>([])
        func decode(_ path: String) throws -> RGBAImage {
            calls.withLock { $0.append(path) }
            return try PNGReader.readRGBA(path)
        }
    }

    private func writeIcon(_ path: String, side: Int = 16, color: UInt32 = 0xFF8000) throws {
        var buffer = PixelBuffer(width: side, height: side)
        let count = buffer.rowPitch * side
        buffer.withUnsafeMutablePixels { p in
            for i in 0..<count { p[i] = color }
        }
        try PNGWriter.write(buffer, to: path)
    }

    @Test func theSameIconOnSixtyFourItemsIsDecodedOnce() throws {
        let dir = HostileFileTests.temporaryDirectory()
        defer { HostileFileTests.removeTree(dir) }
        try writeIcon(dir + "/cup.png")
        try writeIcon(dir + "/other.png", color: 0x0080FF)
        // A second spelling of the same file (a link) is the same file.
        _ = symlink(dir + "/cup.png", dir + "/link.png")
        var items = (0..<64).map { MenuItem(id: "i\($0)", label: "I\($0)", color: RGBColor(hex: 0x336699), iconPath: dir + "/cup.png") }
        items[10].iconPath = dir + "/link.png"
        items[20].iconPath = dir + "/other.png"
        let counter = Counter()
        let cache = IconCache { try counter.decode($0) }
        let painter = try DialPainter(menu: MenuTree(items.map { MenuNode($0) }), width: 400, height: 300, icons: cache)
        #expect(painter.items.count == 64)
        #expect(cache.decodeCount == 2, "\(counter.calls.withLock { $0 })")
        #expect(Set(counter.calls.withLock { $0 }.map { $0.hasSuffix("other.png") }) == [false, true])
        // A second build with the same cache (a reload whose worker decoded ahead) decodes nothing.
        _ = try DialPainter(menu: MenuTree(items.map { MenuNode($0) }), width: 400, height: 300, icons: cache)
        #expect(cache.decodeCount == 2)
        // The default: a cache of its own per build, still once per file.
        let plain = try DialPainter(items: items, width: 400, height: 300)
        #expect(plain.items.count == 64)
    }

    /// A replaced file (new inode or mtime) is decoded again: a reload sees the new picture.
    @Test func aReplacedFileIsDecodedAgain() throws {
        let dir = HostileFileTests.temporaryDirectory()
        defer { HostileFileTests.removeTree(dir) }
        try writeIcon(dir + "/cup.png")
        let counter = Counter()
        let cache = IconCache { try counter.decode($0) }
        cache.warm(paths: [dir + "/cup.png"], box: 16)
        try writeIcon(dir + "/cup.png", side: 20)
        cache.warm(paths: [dir + "/cup.png"], box: 16)
        #expect(cache.decodeCount == 2)
        cache.keepOnly(paths: [dir + "/cup.png"], box: 16)
        cache.warm(paths: [dir + "/cup.png"], box: 16)
        #expect(cache.decodeCount == 2, "the current file's entry stayed")
    }

    /// A broken icon is decoded once; the painter's error names the item.
    @Test func aFailureIsCachedAndNamesTheItem() throws {
        let dir = HostileFileTests.temporaryDirectory()
        defer { HostileFileTests.removeTree(dir) }
        HostileFileTests.write([1, 2, 3], to: dir + "/bad.png")
        let counter = Counter()
        let cache = IconCache { try counter.decode($0) }
        cache.warm(paths: [dir + "/bad.png"], box: DialPainter.iconBox(width: 200, height: 200, theme: Theme()))
        let items = [MenuItem(id: "x", label: "X", color: RGBColor(hex: 0x336699), iconPath: dir + "/bad.png")]
        #expect {
            _ = try DialPainter(menu: MenuTree(items.map { MenuNode($0) }), width: 200, height: 200, icons: cache)
        } throws: { "\($0)".contains("'x'") && "\($0)".contains(dir + "/bad.png") }
        #expect(cache.decodeCount == 1)
    }

    /// More than the budget of distinct decoded pixels is refused before any decode.
    @Test func theDecodedPixelBudgetIsRefusedBeforeDecoding() throws {
        let dir = HostileFileTests.temporaryDirectory()
        defer { HostileFileTests.removeTree(dir) }
        // 17 distinct files declaring 2048x2048 (4 megapixels each): 68 > 32.
        var items: [MenuItem] = []
        for i in 0..<17 {
            HostileFileTests.write(HostileFileTests.declaredPNG(width: 2048, height: 2048), to: dir + "/\(i).png")
            items.append(MenuItem(id: "i\(i)", label: "I", color: RGBColor(hex: 0x336699), iconPath: dir + "/\(i).png"))
        }
        #expect(IconCache.declaredPixels(items.compactMap(\.iconPath)) == 17 * 2048 * 2048)
        let counter = Counter()
        #expect {
            _ = try DialPainter(menu: MenuTree(items.map { MenuNode($0) }), width: 200, height: 200,
                                icons: IconCache { try counter.decode($0) })
        } throws: { "\($0)".contains("budget of 32 megapixels") }
        #expect(counter.calls.withLock { $0.isEmpty }, "refused from the headers")
        // The same file 17 times is one file.
        #expect(IconCache.declaredPixels(Array(repeating: dir + "/0.png", count: 17)) == 2048 * 2048)
    }

    /// The message names the limit that was exceeded.
    @Test func theSizeMessageNamesTheLimitExceeded() throws {
        let pixels = try #require(PNGReader.sizeProblem(width: 4096, height: 4096))
        #expect(pixels.contains("8 megapixels") && !pixels.contains("4096x4096;"), "\(pixels)")
        let side = try #require(PNGReader.sizeProblem(width: 4097, height: 16))
        #expect(side.contains("limit of 4096x4096") && !side.contains("megapixels"), "\(side)")
    }
}
