import DialCore
@testable import KioskSeams
@testable import DialRender
import Testing

/// Coverage sums of one channel, as fractions of a fully covered pixel.
private func inkSum(_ b: PixelBuffer) -> Double {
    var total = 0.0
    for y in 0..<b.height { for x in 0..<b.width { total += Double(b[x, y] & 0xFF) / 255 } }
    return total
}

@Suite struct PrimitiveTests {
    @Test(arguments: [6.0, 12.5, 20.0, 37.25, 80.0])
    func discCoverageMatchesArea(radius: Double) {
        let size = Int(radius * 2) + 8
        var b = PixelBuffer(width: size, height: size)
        b.fillDisc(center: Point(x: Double(size) / 2 + 0.3, y: Double(size) / 2 - 0.2), radius: radius,
                   color: RGBColor(hex: 0xFFFFFF))
        let area = Double.pi * radius * radius
        let error = abs(inkSum(b) - area) / area
        #expect(error < 0.005, "coverage \(inkSum(b)) vs pi r^2 \(area)")
    }

    @Test func discEdgesFallMonotonicallyOutwards() {
        var b = PixelBuffer(width: 64, height: 64)
        let c = Point(x: 32.37, y: 31.61)
        b.fillDisc(center: c, radius: 21.3, color: RGBColor(hex: 0xFFFFFF))
        // Along the row, the column and the diagonal through the centre.
        let paths: [[(Int, Int)]] = [
            (32..<64).map { ($0, 31) }, (0...32).reversed().map { ($0, 31) },
            (31..<64).map { (32, $0) }, (0..<32).map { (32 + $0, 31 + $0) }.filter { $0.0 < 64 && $0.1 < 64 },
        ]
        for (n, path) in paths.enumerated() {
            let values = path.map { b[$0.0, $0.1] & 0xFF }
            #expect(values.first == 255)
            #expect(values.last == 0)
            for (a, n) in zip(values, values.dropFirst()) { #expect(n <= a, "\(values)") }
            // Anti-aliased: a partial pixel on the way out along the row and the column (the
            // diagonal steps 1.4 pixels and may straddle the one-pixel ramp).
            if n < 3 { #expect(values.contains { $0 > 0 && $0 < 255 }, "\(values)") }
        }
    }

    @Test func ringCoversItsAnnulus() {
        var b = PixelBuffer(width: 100, height: 100)
        b.strokeRing(center: Point(x: 50, y: 50), inner: 30, outer: 40, color: RGBColor(hex: 0xFFFFFF))
        let area = Double.pi * (40 * 40 - 30 * 30)
        #expect(abs(inkSum(b) - area) / area < 0.005)
        #expect(b[50, 50] == 0)
        #expect(b[50 + 35, 50] & 0xFF == 255)
    }

    @Test func shadowIsSoftAndDarkensOnly() {
        var b = PixelBuffer(width: 80, height: 80, fill: 0x808080)
        b.dropShadow(center: Point(x: 40, y: 40), radius: 20, blur: 8, opacity: 0.5)
        let centre = b[40, 40] & 0xFF, edge = b[40 + 20, 40] & 0xFF, outside = b[40 + 29, 40] & 0xFF
        #expect(centre == 0x40)
        #expect(edge > centre && edge < 0x80)
        #expect(outside == 0x80)
    }

    @Test func gradientRunsFromTopToBottomColour() {
        var b = PixelBuffer(width: 16, height: 256)
        b.fillVerticalGradient(top: RGBColor(hex: 0x000000), bottom: RGBColor(hex: 0xFFFFFF))
        #expect(b[3, 0] == 0)
        #expect(b[3, 255] == 0xFFFFFF)
        let mid = Double(b[5, 128] & 0xFF)
        #expect(abs(mid - 128) <= 2)
    }

    @Test(arguments: [255, 128])
    func discSpriteCoversItsAreaAtAnyOpacity(opacity: Int) {
        // No shadow and no shading: the sprite's ink is the disc's coverage times the opacity,
        // through the vector span blend and the opaque-row fill.
        let radius = 23.25
        let sprite = DiscSprite(radius: radius, bottomShade: 1, shadowBlur: 0, shadowOffset: 0, shadowOpacity: 0)
        var b = PixelBuffer(width: 64, height: 64)
        b.withUnsafeMutablePixels { p in
            sprite.blit(into: p, pitch: 64, clipWidth: 64, clipHeight: 64, x: 32, y: 32, color: 0xFFFFFF,
                        opacity: UInt32(opacity))
        }
        let area = Double.pi * radius * radius * Double(opacity) / 255
        #expect(abs(inkSum(b) - area) / area < 0.005, "ink \(inkSum(b)) vs \(area)")
        // Same pixels as the reference primitive at full opacity.
        if opacity == 255 {
            var reference = PixelBuffer(width: 64, height: 64)
            reference.fillDisc(center: Point(x: 32, y: 32), radius: radius, color: RGBColor(hex: 0xFFFFFF))
            #expect(b.samePixels(as: reference))
        }
    }

    /// The sprite keeps only half rows, the shadow as alpha bytes and the rim as pairs: every
    /// pixel must still be its formula, `(colour * light + backdrop * (255 - alpha)) / 255`,
    /// over a backdrop that differs per pixel, at full and part opacity, clipped or not.
    @Test(arguments: [(37.25, 255), (37.25, 100), (12.5, 255), (61.75, 7)])
    func discSpriteIsItsFormulaAtEveryPixel(radius: Double, opacity: Int) {
        let blur = radius * 0.22, offset = radius * 0.12, shadeBottom = 0.82
        let sprite = DiscSprite(radius: radius, bottomShade: shadeBottom, shadowBlur: blur, shadowOffset: offset,
                                shadowOpacity: 0.5)
        let side = sprite.size + 8, color: UInt32 = 0x3A_C0_7F
        func backdrop(_ x: Int, _ y: Int) -> UInt32 { UInt32(truncatingIfNeeded: (x &* 2_654_435_761) ^ (y &* 40_503)) & 0xFF_FFFF }
        var b = PixelBuffer(width: side, height: side)
        for y in 0..<side { for x in 0..<side { b[x, y] = backdrop(x, y) } }
        // Centred so that 5 columns and 3 rows fall off the left and top edges.
        let cx = sprite.half - 5, cy = sprite.half - 3
        let pitch = b.rowPitch
        b.withUnsafeMutablePixels { p in
            sprite.blit(into: p, pitch: pitch, clipWidth: side, clipHeight: side, x: cx, y: cy, color: color,
                        opacity: UInt32(opacity))
        }
        var wrong = 0
        for y in 0..<side {
            for x in 0..<side {
                let dx = Double(x - cx) + 0.5, dy = Double(y - cy) + 0.5
                let cov = Coverage.disc(distance: (dx * dx + dy * dy).squareRoot(), radius: radius)
                let sdy = dy - offset
                let sh = Coverage.softDisc(distance: (dx * dx + sdy * sdy).squareRoot(), radius: radius, blur: blur) * 0.5
                let shade = 1 + (shadeBottom - 1) * max(0, min(1, (dy + radius) / (2 * radius)))
                var a = PixelMath.byte(cov + sh * (1 - cov))
                var l = cov >= 1 ? PixelMath.byte(shade) : min(a, PixelMath.byte(cov * shade))
                if opacity != 255 {
                    a = a * UInt32(opacity) + 128; a = (a + (a >> 8)) >> 8
                    l = l * UInt32(opacity) + 128; l = (l + (l >> 8)) >> 8
                }
                let insideSquare = x - cx >= -sprite.half && x - cx < sprite.half && y - cy >= -sprite.half && y - cy < sprite.half
                let want = a == 0 || !insideSquare ? backdrop(x, y) : PixelMath.mix(backdrop(x, y), color, s: l, a: a)
                if b[x, y] != want { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) pixels differ from the formula")
    }

    @Test func discSpriteClipsAtTheFrameEdges() {
        let sprite = DiscSprite(radius: 10, bottomShade: 0.8, shadowBlur: 3, shadowOffset: 2, shadowOpacity: 0.5)
        var b = PixelBuffer(width: 20, height: 20, stride: 24 * 4, fill: 0x808080)
        // Padding columns 20..<24 act as a guard: nothing may be written there.
        b.withUnsafeMutablePixels { p in
            for y in 0..<20 { for x in 20..<24 { p[y * 24 + x] = 0xDEAD_BEEF } }
            for (x, y) in [(0, 0), (19, 19), (-5, 10), (25, 10), (10, -8), (10, 27)] {
                sprite.blit(into: p, pitch: 24, clipWidth: 20, clipHeight: 20, x: x, y: y, color: 0xFF0000, opacity: 255)
            }
            for y in 0..<20 { for x in 20..<24 { #expect(p[y * 24 + x] == 0xDEAD_BEEF) } }
        }
        // The disc centred on the corner covers pixel (0, 0) with shaded red.
        #expect((b[0, 0] >> 16) & 0xFF > 0xC0 && b[0, 0] & 0xFFFF == 0)
    }

    /// The bands a frame marks as drawn hold every pixel the blit changes, and leave out most of
    /// the square's ink-free corners (otherwise the next restore and copy write them).
    @Test(arguments: [4.0, 13.5, 60.0, 151.25], [8, 32])
    func discBandsHoldTheInkAndLeaveOutTheCorners(radius: Double, grid: Int) {
        let sprite = DiscSprite(radius: radius, bottomShade: 0.82, shadowBlur: radius * 0.22, shadowOffset: radius * 0.12,
                                shadowOpacity: 0.5)
        let side = sprite.size + 6, cx = side / 2 + 1, cy = side / 2 - 1
        var b = PixelBuffer(width: side, height: side, fill: 0xFFFFFF)
        let pitch = b.rowPitch
        b.withUnsafeMutablePixels { p in
            sprite.blit(into: p, pitch: pitch, clipWidth: side, clipHeight: side, x: cx, y: cy, color: 0x2040FF, opacity: 255)
        }
        var bands: [PixelRect] = []
        sprite.inkBands(atX: cx, y: cy, grid: grid, into: &bands)
        var inside = [Bool](repeating: false, count: side * side)
        for r in bands { for y in r.y0..<r.y1 { for x in r.x0..<r.x1 { #expect(!inside[y * side + x]); inside[y * side + x] = true } } }
        var changed = 0
        for y in 0..<side { for x in 0..<side where b[x, y] != 0xFFFFFF { changed += 1; #expect(inside[y * side + x], "(\(x), \(y))") } }
        let square = sprite.rect(atX: cx, y: cy).area, held = Damage.area(bands)
        #expect(changed > 0 && held >= changed)
        // Bands a few grid rows tall leave out most of the corners (a fifth of the square).
        if sprite.size >= 6 * grid { #expect(Double(held) < Double(square) * 0.9, "bands \(held) of a rect of \(square) pixels") }
    }

    @Test func mixIsExactAtTheEnds() {
        #expect(PixelMath.mix(0x123456, 0xABCDEF, s: 255, a: 255) == 0xABCDEF)
        #expect(PixelMath.mix(0x123456, 0xABCDEF, s: 0, a: 0) == 0x123456)
        #expect(PixelMath.mix(0x000000, 0xFFFFFF, s: 128, a: 128) == 0x808080)
    }

    @Test(arguments: [1, 2, 3, 5, 6, 7])
    func gradientRowsDoNotDependOnTheWidth(width: Int) {
        // Pixels depend on the row and the column's dither phase only: a narrow buffer (the last
        // 1-3 pixels of a row take the scalar path) matches the left part of a wide one.
        let top = RGBColor(hex: 0x102030), bottom = RGBColor(hex: 0xF0A050)
        var wide = PixelBuffer(width: 16, height: 7), narrow = PixelBuffer(width: width, height: 7, stride: (width + 1) * 4)
        wide.fillVerticalGradient(top: top, bottom: bottom)
        narrow.fillVerticalGradient(top: top, bottom: bottom)
        for y in 0..<7 { for x in 0..<width { #expect(narrow[x, y] == wide[x, y], "(\(x), \(y))") } }
        #expect((0..<7).contains { y in (1..<4).contains { wide[$0, y] != wide[0, y] } }, "the rows are dithered")
    }
}
