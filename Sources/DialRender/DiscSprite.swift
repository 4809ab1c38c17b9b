import DialCore

/// One item disc with its soft drop shadow at one radius, as colour-free masks, so one sprite
/// serves every item of that size: `alpha` is how much of the backdrop is covered (disc or
/// shadow), `light` how much of the item's colour is added (disc coverage times a top-to-bottom
/// shade). A pixel becomes `(colour * light + backdrop * (255 - alpha)) / 255`.
///
/// Rows record where any ink is and where the disc is fully opaque; the opaque middle of a row
/// has one shade and is a plain fill, so only the rim and the shadow are blended, four pixels at
/// a time. Each pixel's alpha and light share one 32-bit word, as the bytes alpha, light, alpha,
/// light from the low end, so that one vector load fetches both for four pixels and two masks
/// put each in both 16-bit halves of the pixel's lane, as the blend wants them.
final class DiscSprite {
    /// Side of the square sprite; the disc's centre is the corner between pixels `half - 1` and `half`.
    let size: Int
    let half: Int
    let radius: Double
    private let masks: [UInt32]
    private let rows: [Row]
    /// The box of the pixels with any ink, in sprite coordinates: the shadow drops downwards, so
    /// it is smaller than the square, above and at the sides (about 20% less area to restore and
    /// copy per item).
    private let ink: PixelRect

    struct Row {
        var inkStart: Int32, inkEnd: Int32, solidStart: Int32, solidEnd: Int32
        /// Shade of the opaque span, 0...255.
        var shade: UInt32
    }

    /// A disc of `radius` shaded from 1 at the top to `bottomShade`, with a shadow `blur` wide,
    /// dropped by `shadowOffset` and darkening the backdrop by up to `shadowOpacity`.
    init(radius: Double, bottomShade: Double, shadowBlur: Double, shadowOffset: Double, shadowOpacity: Double) {
        self.radius = radius
        half = Int((radius + shadowBlur + abs(shadowOffset) + 2).rounded(.up))
        size = 2 * half
        var masks = [UInt32](repeating: 0, count: size * size)
        var rows: [Row] = []
        rows.reserveCapacity(size)
        var ink = PixelRect(x0: size, y0: size, x1: 0, y1: 0)
        let c = Double(half)
        for y in 0..<size {
            let dy = Double(y) + 0.5 - c
            let sdy = dy - shadowOffset
            let t = max(0, min(1, (dy + radius) / (2 * radius)))
            let shade = 1 + (bottomShade - 1) * t
            let shadeByte = PixelMath.byte(shade)
            var row = Row(inkStart: Int32(size), inkEnd: 0, solidStart: 0, solidEnd: 0, shade: shadeByte)
            // Left and right halves are mirror images: column size-1-x has exactly -dx (all
            // values are small multiples of 0.5), so the left half is computed and mirrored, and
            // a row's ink and solid spans end where they start, mirrored.
            for x in 0..<half {
                let dx = Double(x) + 0.5 - c
                let d = (dx * dx + dy * dy).squareRoot()
                let cov = Coverage.disc(distance: d, radius: radius)
                let sd = (dx * dx + sdy * sdy).squareRoot()
                let sh = Coverage.softDisc(distance: sd, radius: radius, blur: shadowBlur) * shadowOpacity
                let a = PixelMath.byte(cov + sh * (1 - cov))
                let l = cov >= 1 ? shadeByte : min(a, PixelMath.byte(cov * shade))
                let word = (a | l << 8) * 0x0001_0001
                masks[y * size + x] = word
                masks[y * size + size - 1 - x] = word
                if a > 0 && row.inkEnd == 0 {
                    row.inkStart = Int32(x)
                    row.inkEnd = Int32(size - x)
                }
                if cov >= 1 && a == 255 && row.solidEnd == 0 {
                    row.solidStart = Int32(x)
                    row.solidEnd = Int32(size - x)
                }
            }
            if row.inkEnd == 0 {
                row.inkStart = 0
            } else {
                ink = PixelRect(x0: min(ink.x0, Int(row.inkStart)), y0: min(ink.y0, y),
                                x1: max(ink.x1, Int(row.inkEnd)), y1: y + 1)
            }
            if row.solidEnd == 0 { row.solidStart = row.inkStart; row.solidEnd = row.inkStart }
            rows.append(row)
        }
        self.masks = masks
        self.rows = rows
        self.ink = ink.isEmpty ? PixelRect(x0: 0, y0: 0, x1: 0, y1: 0) : ink
    }

    /// Bytes held, for the cache's budget.
    var byteCount: Int { size * size * 4 + rows.count * MemoryLayout<Row>.stride }

    /// The pixels this sprite may touch with the disc's centre at (`x`, `y`).
    func rect(atX x: Int, y: Int) -> PixelRect {
        PixelRect(x0: x - half + ink.x0, y0: y - half + ink.y0, x1: x - half + ink.x1, y1: y - half + ink.y1)
    }

    /// Paints the disc in `color` at opacity `opacity` (0...255) with its centre at (`x`, `y`).
    func blit(into pixels: UnsafeMutablePointer<UInt32>, pitch: Int, clipWidth: Int, clipHeight: Int,
              x: Int, y: Int, color: UInt32, opacity: UInt32) {
        guard opacity > 0 else { return }
        let left = x - half, top = y - half
        let y0 = max(ink.y0, -top), y1 = min(ink.y1, clipHeight - top)
        let cx0 = max(0, -left), cx1 = min(size, clipWidth - left)
        guard y0 < y1, cx0 < cx1 else { return }
        masks.withUnsafeBufferPointer { mb in
            rows.withUnsafeBufferPointer { rb in
                for sy in y0..<y1 {
                    let r = rb[sy]
                    let s0 = max(cx0, Int(r.inkStart)), s1 = min(cx1, Int(r.inkEnd))
                    guard s0 < s1 else { continue }
                    let dst = pixels + (top + sy) * pitch + left
                    let m = mb.baseAddress! + sy * size
                    if opacity == 255 {
                        let o0 = min(max(s0, Int(r.solidStart)), s1), o1 = max(o0, min(s1, Int(r.solidEnd)))
                        Self.blendSpan(dst, m, s0, o0, color, opacity: 255)
                        if o0 < o1 {
                            (dst + o0).update(repeating: PixelMath.scale(color, r.shade), count: o1 - o0)
                        }
                        Self.blendSpan(dst, m, o1, s1, color, opacity: 255)
                    } else {
                        Self.blendSpan(dst, m, s0, s1, color, opacity: opacity)
                    }
                }
            }
        }
    }

    /// Blends pixels [from, to) of one row: `(color * light + dst * (255 - alpha)) / 255` with
    /// alpha and light first scaled by `opacity`. Four pixels per step with each channel in a
    /// 16-bit lane (red and blue of a pixel in one pair of lanes, green in the next), then the
    /// remainder one by one. A sprite's light never exceeds its alpha, so a channel's
    /// `color * light + dst * (255 - alpha)` is at most 255 * 255 and, with the rounding, fits
    /// 16 bits: the same sums as 32-bit lanes, with multiplies x86-64's baseline has (pmullw;
    /// 32-bit lane multiplies need SSE4.1 and cost several instructions without it).
    @inline(__always)
    private static func blendSpan(_ dst: UnsafeMutablePointer<UInt32>, _ m: UnsafePointer<UInt32>,
                                  _ from: Int, _ to: Int, _ color: UInt32, opacity: UInt32) {
        typealias V = SIMD4<UInt32>
        typealias H = SIMD8<UInt16>
        func h(_ v: V) -> H { unsafeBitCast(v, to: H.self) }
        func v(_ h: H) -> V { unsafeBitCast(h, to: V.self) }
        let crb = h(V(repeating: color & 0x00FF_00FF)), cg = h(V(repeating: (color >> 8) & 0xFF))
        let lowRB = V(repeating: 0x00FF_00FF), low8 = V(repeating: 0xFF)
        let op = H(repeating: UInt16(truncatingIfNeeded: opacity))
        var i = from
        while i + 4 <= to {
            let mv = UnsafeRawPointer(m + i).loadUnaligned(as: V.self)
            // Alpha and light of each pixel in both 16-bit halves of its lane.
            var a = h(mv & lowRB), l = h((mv &>> 8) & lowRB)
            if opacity != 255 {
                a = a &* op &+ 128; a = (a &+ (a &>> 8)) &>> 8
                l = l &* op &+ 128; l = (l &+ (l &>> 8)) &>> 8
            }
            let raw = UnsafeMutableRawPointer(dst + i)
            let d = raw.loadUnaligned(as: V.self)
            let ia = 255 &- a
            let rb = crb &* l &+ h(d & lowRB) &* ia
            let g = cg &* l &+ h((d &>> 8) & low8) &* ia
            let rbq = (rb &+ 0x80 &+ (rb &>> 8)) &>> 8
            let gq = (g &+ 0x80 &+ (g &>> 8)) &>> 8
            raw.storeBytes(of: v(rbq) | ((v(gq) & low8) &<< 8), as: V.self)
            i += 4
        }
        while i < to {
            var a = m[i] & 0xFF, l = (m[i] >> 8) & 0xFF
            if opacity != 255 {
                a = (a &* opacity &+ 128); a = (a &+ (a >> 8)) >> 8
                l = (l &* opacity &+ 128); l = (l &+ (l >> 8)) >> 8
            }
            if a != 0 { dst[i] = PixelMath.mix(dst[i], color, s: l, a: a) }
            i += 1
        }
    }
}
