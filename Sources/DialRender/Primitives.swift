import DialCore
import KioskSeams

/// Anti-aliased shapes painted straight into a buffer. These serve the parts of a frame that are
/// painted once (background, ring, hub) and tests; the per-frame items go through `DiscSprite`.
extension PixelBuffer {
    /// Fills the buffer with a vertical gradient from `top` to `bottom`, ordered-dithered so that
    /// a dark gradient over a tall frame shows no bands.
    public mutating func fillVerticalGradient(top: RGBColor, bottom: RGBColor) {
        let w = width, h = height, pitch = rowPitch
        // 4x4 Bayer matrix, thresholds centred on zero in 1/16 steps of one 8-bit level.
        let bayer: [Double] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5].map { ($0 + 0.5) / 16 - 0.5 }
        let t0 = [Double(top.r), Double(top.g), Double(top.b)]
        let t1 = [Double(bottom.r), Double(bottom.g), Double(bottom.b)]
        withUnsafeMutablePixels { p in
            for y in 0..<h {
                let t = h > 1 ? Double(y) / Double(h - 1) : 0
                let c = (0..<3).map { t0[$0] + (t1[$0] - t0[$0]) * t }
                // The four dithered variants of this row's colour, one per column phase.
                var variants = SIMD4<UInt32>()
                for phase in 0..<4 {
                    let d = bayer[(y & 3) * 4 + phase]
                    var px: UInt32 = 0
                    for ch in 0..<3 {
                        let v = UInt32(max(0, min(255, (c[ch] + d).rounded())))
                        px |= v << UInt32(16 - 8 * ch)
                    }
                    variants[phase] = px
                }
                // Four pixels per store, the phases in column order; then the last 0-3 pixels.
                let row = p + y * pitch
                var x = 0
                while x + 4 <= w {
                    UnsafeMutableRawPointer(row + x).storeBytes(of: variants, as: SIMD4<UInt32>.self)
                    x += 4
                }
                var k = 0
                while x < w {
                    row[x] = k == 0 ? variants.x : k == 1 ? variants.y : variants.z
                    x += 1
                    k += 1
                }
            }
        }
    }

    /// Blends `color` at `opacity` into every pixel of the disc, weighted by coverage.
    public mutating func fillDisc(center: Point, radius: Double, color: RGBColor, opacity: Double = 1) {
        paintRadial(center: center, reach: radius + 1, color: color) { d in
            Coverage.disc(distance: d, radius: radius) * opacity
        }
    }

    /// A disc shaded vertically from `top` at its top edge to `bottom` at its bottom edge.
    public mutating func fillDisc(center: Point, radius: Double, top: RGBColor, bottom: RGBColor, opacity: Double = 1) {
        let y0 = center.y - radius
        for y in max(0, Int(y0.rounded(.down)))..<min(height, Int((center.y + radius).rounded(.up)) + 1) {
            let t = max(0, min(1, (Double(y) + 0.5 - y0) / (2 * radius)))
            let w = width, h = height, pitch = rowPitch, color = top.mixed(with: bottom, t).xrgb
            _ = withUnsafeMutablePixels { p in
                // One row at a time: the band [y, y + 1) of the disc.
                Self.paintRadial(p + y * pitch, pitch: pitch, width: w, height: min(1, h - y),
                                 center: Point(x: center.x, y: center.y - Double(y)), reach: radius + 1, color: color) {
                    Coverage.disc(distance: $0, radius: radius) * opacity
                }
            }
        }
    }

    /// Blends `color` into the annulus between `inner` and `outer` radii.
    public mutating func strokeRing(center: Point, inner: Double, outer: Double, color: RGBColor, opacity: Double = 1) {
        paintRadial(center: center, reach: outer + 1, hole: inner - 1, color: color) { d in
            Coverage.ring(distance: d, inner: inner, outer: outer) * opacity
        }
    }

    /// Darkens towards `color` (black by default) under a blurred disc: a soft drop shadow.
    public mutating func dropShadow(center: Point, radius: Double, blur: Double, opacity: Double,
                                    color: RGBColor = RGBColor(hex: 0)) {
        paintRadial(center: center, reach: radius + blur + 1, color: color) { d in
            Coverage.softDisc(distance: d, radius: radius, blur: blur) * opacity
        }
    }

    /// Blends `color` over the box around `center` of half-size `reach`, by the weight `weight`
    /// gives for each pixel centre's distance from `center`.
    /// Inside radius `hole` the weight must be zero; those pixels are skipped.
    mutating func paintRadial(center: Point, reach: Double, hole: Double = 0, color: RGBColor, weight: (Double) -> Double) {
        let w = width, h = height, pitch = rowPitch
        _ = withUnsafeMutablePixels {
            Self.paintRadial($0, pitch: pitch, width: w, height: h, center: center, reach: reach, hole: hole,
                             color: color.xrgb, weight: weight)
        }
    }

    /// `paintRadial` on raw pixels; returns the rectangle it may have touched.
    @discardableResult
    static func paintRadial(_ p: UnsafeMutablePointer<UInt32>, pitch: Int, width: Int, height: Int, center: Point,
                            reach: Double, hole: Double = 0, color c: UInt32, weight: (Double) -> Double) -> PixelRect {
        let x0 = max(0, Int((center.x - reach).rounded(.down)))
        let x1 = min(width, Int((center.x + reach).rounded(.up)) + 1)
        let y0 = max(0, Int((center.y - reach).rounded(.down)))
        let y1 = min(height, Int((center.y + reach).rounded(.up)) + 1)
        let rect = PixelRect(x0: x0, y0: y0, x1: x1, y1: y1)
        guard x0 < x1, y0 < y1 else { return rect }
        for y in y0..<y1 {
            let dy = Double(y) + 0.5 - center.y
            let row = p + y * pitch
            // Columns whose whole pixel lies inside the hole: [skip0, skip1).
            var skip0 = x1, skip1 = x1
            if hole > abs(dy) + 1 {
                let span = (hole * hole - dy * dy).squareRoot() - 1.5
                skip0 = max(x0, Int((center.x - span).rounded(.up)))
                skip1 = max(skip0, min(x1, Int((center.x + span).rounded(.down))))
            }
            for x in x0..<x1 where x < skip0 || x >= skip1 {
                let dx = Double(x) + 0.5 - center.x
                let a = PixelMath.byte(weight((dx * dx + dy * dy).squareRoot()))
                if a != 0 { row[x] = PixelMath.mix(row[x], c, s: a, a: a) }
            }
        }
        return rect
    }

    /// Copies the rectangle `rect` (clipped to both buffers) from `source` at the same position.
    /// Copies `rect` of this buffer from `source`, whose pixel (0, 0) lies at (`originX`,
    /// `originY`) here (a buffer holding only part of this one's area); only the part both hold.
    mutating func copyRect(from source: PixelBuffer, _ rect: PixelRect, originX: Int, originY: Int) {
        let r = PixelRect(x0: max(rect.x0, originX), y0: max(rect.y0, originY),
                          x1: min(rect.x1, originX + source.width), y1: min(rect.y1, originY + source.height))
            .clipped(width: width, height: height)
        guard !r.isEmpty else { return }
        let dp = rowPitch, sp = source.rowPitch
        withUnsafeMutablePixels { d in
            source.withUnsafePixels { s in
                for y in r.y0..<r.y1 {
                    (d + y * dp + r.x0).update(from: s + (y - originY) * sp + r.x0 - originX, count: r.x1 - r.x0)
                }
            }
        }
    }

    mutating func copyRect(from source: PixelBuffer, _ rect: PixelRect) {
        let r = rect.clipped(width: min(width, source.width), height: min(height, source.height))
        guard !r.isEmpty else { return }
        let dp = rowPitch, sp = source.rowPitch
        withUnsafeMutablePixels { d in
            source.withUnsafePixels { s in
                for y in r.y0..<r.y1 {
                    (d + y * dp + r.x0).update(from: s + y * sp + r.x0, count: r.x1 - r.x0)
                }
            }
        }
    }
}
