import DialCore
@testable import DialRender
import KioskSeams
import Testing

@Suite struct RunRowsTests {
    /// A buffer with runs of one colour of every length around the threshold, between noise.
    private func sample(width: Int, height: Int) -> PixelBuffer {
        var b = PixelBuffer(width: width, height: height)
        var rng = SplitMix64(seed: 42)
        for y in 0..<height {
            var x = 0
            while x < width {
                let run = Int(rng.next() % 40) + 1
                let solid = rng.next() % 2 == 0
                let color = UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
                for k in x..<min(width, x + run) {
                    b[k, y] = solid ? color : UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
                }
                x += run
            }
        }
        return b
    }

    /// Every span of every row comes back as it was painted, from any column to any other.
    @Test func everySpanComesBackAsPainted() {
        let b = sample(width: 97, height: 23)
        let rect = PixelRect(x0: 5, y0: 3, x1: 90, y1: 21)
        let rows = RunRows(b, rect: rect, minimumRun: 16)
        var rng = SplitMix64(seed: 7)
        var out = [UInt32](repeating: 0xDEAD_BEEF, count: 128)
        let reader = rows.reader
        withExtendedLifetime(rows) {
            for _ in 0..<2000 {
                let y = Int(rng.next() % UInt64(rows.height))
                let a = Int(rng.next() % UInt64(rows.width)), e = a + Int(rng.next() % UInt64(rows.width - a)) + 1
                for i in out.indices { out[i] = 0xDEAD_BEEF }
                out.withUnsafeMutableBufferPointer { reader.restore(row: y, from: a, to: e, into: $0.baseAddress! + 1) }
                for x in a..<e where out[1 + x - a] != b[rect.x0 + x, rect.y0 + y] {
                    Issue.record("row \(y), column \(x): \(out[1 + x - a]) instead of \(b[rect.x0 + x, rect.y0 + y])")
                    return
                }
                // Nothing written outside the span.
                #expect(out[0] == 0xDEAD_BEEF && out[1 + e - a] == 0xDEAD_BEEF)
            }
        }
    }

    /// A row's longest run of one colour is kept as its colour: a buffer of one colour holds a
    /// few bytes a row; one whose runs are all shorter than the minimum, all its pixels.
    @Test func runsOfOneColourCostNoPixels() {
        let flat = PixelBuffer(width: 400, height: 50, fill: 0x123456)
        let all = PixelRect(x0: 0, y0: 0, x1: 400, y1: 50)
        #expect(RunRows(flat, rect: all).byteCount < 50 * 40)
        let noisy = sample(width: 400, height: 50)
        let rows = RunRows(noisy, rect: all)
        #expect(rows.byteCount >= 400 * 50 * 4)
        #expect(RunRows(noisy, rect: all, minimumRun: 16).byteCount < 400 * 50 * 4)
    }

    /// The painter's background at 1080p with 24 items: the hub's face (about a third of the
    /// drawing box) is one colour along each row and costs no pixels.
    @Test func thePaintersBackgroundHoldsLessThanItsBox() throws {
        let n = 24, w = 1920, h = 1080
        let g = DialGeometry.fitting(width: w, height: h, count: n)
        let painter = try DialPainter(items: DemoMenu.numbered(n), width: w, height: h)
        painter.prepare(for: g)
        let box = painter.box
        #expect(painter.background.width == box.x1 - box.x0 && painter.background.height == box.y1 - box.y0)
        #expect(painter.background.byteCount * 10 < box.area * 4 * 7)
    }
}
