import DialCore
@testable import DialRender
import Foundation
import Testing

/// Seeded property tests over the renderer's hostile inputs ("huge headers in icons,
/// huge labels"): whatever the header or the text, the result is an error naming the file or a
/// bounded picture, never a crash or work that grows with the input.
@Suite struct HostileInputPropertyTests {
    @Test func anyDeclaredIconSizeIsRefusedOrReadWithinTheLimits() throws {
        let dir = HostileFileTests.temporaryDirectory()
        defer { HostileFileTests.removeTree(dir) }
        var rng = SplitMix64(seed: 10)
        let path = dir + "/icon.png"
        for round in 0..<200 {
            // Sides from 0 to 2^32-1, biased to the edges of the limits and to huge values.
            let edges: [UInt32] = [0, 1, 2048, 4095, 4096, 4097, 8192, 65_535, 1 << 31, UInt32.max]
            func side() -> UInt32 { rng.next() % 2 == 0 ? edges[Int(rng.next() % UInt64(edges.count))] : UInt32(truncatingIfNeeded: rng.next()) }
            var bytes = HostileFileTests.declaredPNG(width: side(), height: side())
            // Now and then a flipped byte after the header (the IDAT and IEND chunks).
            if round % 3 == 0 { bytes[33 + Int(rng.next() % UInt64(bytes.count - 33))] ^= UInt8(truncatingIfNeeded: rng.next() | 1) }
            HostileFileTests.write(bytes, to: path)
            do {
                let image = try PNGReader.readRGBA(path)
                #expect(image.width <= PNGReader.maximumSide && image.height <= PNGReader.maximumSide)
                #expect(image.width * image.height <= PNGReader.maximumPixels)
            } catch let error as RenderError {
                #expect(error.kind == .inputFile && error.description.contains(path), "\(error)")
            }
        }
    }

    /// Random text: Latin, Arabic, Hebrew, Devanagari, CJK, emoji, combining marks, joiners,
    /// controls and runs of spaces, from empty to 20,000 scalars.
    static func randomLabel(_ rng: inout SplitMix64) -> String {
        let pools: [ClosedRange<UInt32>] = [0x61...0x7A, 0x20...0x20, 0x627...0x64A, 0x5D0...0x5EA, 0x915...0x94D,
                                            0x4E00...0x4E80, 0x1F600...0x1F64F, 0x300...0x36F, 0x200D...0x200F, 0x1...0x1F]
        let lengths = [0, 1, 3, 12, 40, 120, 2_000, 20_000]
        let length = lengths[Int(rng.next() % UInt64(lengths.count))]
        var scalars = String.UnicodeScalarView()
        var pool = pools[0]
        for _ in 0..<length {
            if rng.next() % 8 == 0 { pool = pools[Int(rng.next() % UInt64(pools.count))] }
            let v = pool.lowerBound + UInt32(rng.next() % UInt64(pool.count))
            scalars.append(Unicode.Scalar(v)!)
        }
        return String(scalars)
    }

    @Test func anyLabelFitsInsideItsCircleWithBoundedWork() throws {
        let catalog = try FontCatalog()
        let text = try TextRenderer(catalog: catalog, fontName: "DejaVu Sans")
        var rng = SplitMix64(seed: 3)
        for _ in 0..<60 {
            let label = Self.randomLabel(&rng)
            let radius = 8 + Double(rng.next() % 120)
            let before = text.shapedScalars
            let mask = text.fittedMask(label, nominalPx: radius * 0.36, minPx: min(radius * 0.36, 9), radius: radius * 0.84)
            // Fitting looks at no more than the first 1,024 scalars, a bounded number of times.
            #expect(text.shapedScalars - before < 40 * TextRenderer.maximumFittedScalars, "\(label.unicodeScalars.count) scalars")
            if label.isEmpty || radius * 0.36 < 1 { #expect(mask == nil) }
            guard let mask else { continue }
            // The mask stays near the disc: the fit uses metric boxes, so allow a margin for
            // marks and glyphs that ink outside their advance.
            #expect(Double(mask.width) <= 2 * radius + 4 * 9, "width \(mask.width) for radius \(radius)")
        }
    }
}
