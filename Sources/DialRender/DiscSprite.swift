import DialCore
import KioskSeams

/// One item disc with its soft drop shadow at one radius, as colour-free masks, so one sprite
/// serves every item of that size: `alpha` is how much of the backdrop is covered (disc or
/// shadow), `light` how much of the item's colour is added (disc coverage times a top-to-bottom
/// shade). A pixel becomes `(colour * light + backdrop * (255 - alpha)) / 255`.
///
/// Only what differs between pixels is stored, and only the left half of each row (the right
/// half is its mirror image). Along a half row, from the outside in, the disc's coverage only
/// grows, so a row is: shadow only (coverage 0, light 0: one alpha byte a pixel), the rim
/// (partial coverage: alpha and light bytes), and the opaque middle (alpha 255 and the row's
/// shade: a plain fill, nothing stored). That is about a sixteenth of a square of 32-bit words,
/// so a kiosk can keep every radius a spin shows (the demo menu at 1920x1080 draws 276).
final class DiscSprite {
    /// Side of the square sprite; the disc's centre is the corner between pixels `half - 1` and `half`.
    let size: Int
    let half: Int
    let radius: Double
    /// Row after row: the shadow's alpha bytes, then the rim's alpha and light pairs.
    private let bytes: [UInt8]
    /// The rows with ink (`ink.y0 ..< ink.y1`); a row's bytes start where the rows above it end.
    /// Held outside an array (freed in deinit) so the restore's and the blit's row loops read
    /// them without reference counting.
    private let rows: UnsafeMutableBufferPointer<Row>
    private let inkRowCount: Int
    /// The box of the pixels with any ink, in sprite coordinates: the shadow drops downwards, so
    /// it is smaller than the square, above and at the sides (about 20% less area to restore and
    /// copy per item).
    private let ink: PixelRect

    /// Columns of one row's left half: shadow [inkStart, rimStart), rim [rimStart, solidStart),
    /// opaque [solidStart, half); the right half mirrors them (column size-1-x is column x).
    /// Eight bytes: no offset into `bytes` (a third of a row's size, and a few hundred kB over
    /// the sprites a spin keeps), as blits walk rows in order and add up the rows' lengths.
    struct Row {
        /// Columns (a sprite is at most 2 * 16384 * 1.34 pixels wide, which 16 bits hold).
        var inkStart: UInt16, rimStart: UInt16, solidStart: UInt16
        /// Shade of the opaque span, 0...255.
        var shade: UInt8
        /// Bytes of this row in `bytes`.
        var length: Int { Int(rimStart &- inkStart) + 2 * Int(solidStart &- rimStart) }
    }

    /// A disc of `radius` shaded from 1 at the top to `bottomShade`, with a shadow `blur` wide,
    /// dropped by `shadowOffset` and darkening the backdrop by up to `shadowOpacity`.
    init(radius: Double, bottomShade: Double, shadowBlur: Double, shadowOffset: Double, shadowOpacity: Double) {
        self.radius = radius
        half = Int((radius + shadowBlur + abs(shadowOffset) + 2).rounded(.up))
        size = 2 * half
        var bytes: [UInt8] = []
        var rows: [Row] = []
        rows.reserveCapacity(size)
        var ink = PixelRect(x0: size, y0: size, x1: 0, y1: 0)
        var alpha = [UInt8](repeating: 0, count: half), light = [UInt8](repeating: 0, count: half)
        let c = Double(half)
        for y in 0..<size {
            let dy = Double(y) + 0.5 - c
            let sdy = dy - shadowOffset
            let t = max(0, min(1, (dy + radius) / (2 * radius)))
            let shade = 1 + (bottomShade - 1) * t
            let shadeByte = PixelMath.byte(shade)
            // All values are small multiples of 0.5, so column size-1-x has exactly -dx: the
            // left half is computed, up to where the disc turns opaque (coverage 1 makes alpha
            // 255 and light the shade for every pixel further in).
            var inkStart = half, rimStart = half, solidStart = half
            for x in 0..<half {
                let dx = Double(x) + 0.5 - c
                let d = (dx * dx + dy * dy).squareRoot()
                let cov = Coverage.disc(distance: d, radius: radius)
                if cov >= 1 {
                    solidStart = x
                    break
                }
                let sd = (dx * dx + sdy * sdy).squareRoot()
                let sh = Coverage.softDisc(distance: sd, radius: radius, blur: shadowBlur) * shadowOpacity
                let a = PixelMath.byte(cov + sh * (1 - cov))
                alpha[x] = UInt8(a)
                light[x] = UInt8(min(a, PixelMath.byte(cov * shade)))
                if a > 0 && inkStart == half { inkStart = x }
                if cov > 0 && rimStart == half { rimStart = x }
            }
            rimStart = min(max(rimStart, inkStart), solidStart)
            if inkStart == half { inkStart = solidStart }
            let row = Row(inkStart: UInt16(inkStart), rimStart: UInt16(rimStart), solidStart: UInt16(solidStart),
                          shade: UInt8(shadeByte))
            bytes.append(contentsOf: alpha[inkStart..<rimStart])
            for x in rimStart..<solidStart {
                bytes.append(alpha[x])
                bytes.append(light[x])
            }
            if inkStart < half {
                ink = PixelRect(x0: min(ink.x0, inkStart), y0: min(ink.y0, y), x1: max(ink.x1, size - inkStart), y1: y + 1)
            }
            rows.append(row)
        }
        self.bytes = bytes.compacted()
        self.ink = ink.isEmpty ? PixelRect(x0: 0, y0: 0, x1: 0, y1: 0) : ink
        // Rows of trivial values: at least one allocated so the base address is never nil.
        let inkRows = rows[self.ink.y0..<self.ink.y1]
        self.rows = .allocate(capacity: max(1, inkRows.count))
        _ = self.rows.initialize(from: inkRows)
        inkRowCount = inkRows.count
    }

    deinit { rows.deallocate() }

    /// Bytes held, for the cache's bound.
    var byteCount: Int { bytes.count + inkRowCount * MemoryLayout<Row>.stride }

    /// The pixels this sprite may touch with the disc's centre at (`x`, `y`).
    func rect(atX x: Int, y: Int) -> PixelRect {
        PixelRect(x0: x - half + ink.x0, y0: y - half + ink.y0, x1: x - half + ink.x1, y1: y - half + ink.y1)
    }

    /// The pixels this sprite may touch with the disc's centre at (`x`, `y`), as bands of rows
    /// cut at the multiples of `grid`, each as wide as its widest row, appended to `out` top to
    /// bottom (empty bands left out). A disc is round: its square's corners, about a fifth of it,
    /// hold no ink, and bands on one grid for every disc and frame keep the damage's union small.
    func inkBands(atX x: Int, y: Int, grid: Int, into out: inout [PixelRect]) {
        let left = x - half, top = y - half
        let rb = UnsafePointer(rows.baseAddress!)
        var sy = ink.y0
        while sy < ink.y1 {
            let fy = top + sy
            // The band ends at the next multiple of `grid` after row fy (negative rows too).
            let next = (fy >= 0 ? fy / grid : -((-fy - 1) / grid) - 1) * grid + grid
            let end = min(ink.y1, next - top)
            var start = half
            for r in sy..<end { start = min(start, Int(rb[r - ink.y0].inkStart)) }
            if start < size - start { out.append(PixelRect(x0: left + start, y0: fy, x1: left + size - start, y1: top + end)) }
            sy = end
        }
    }

    /// The opaque middles of a sprite's rows placed at (`x`, `y`), which `blit` at full opacity
    /// sets whatever they held; read without retaining the sprite (whoever makes one keeps the
    /// sprite alive while using it).
    struct SolidRows {
        private let rows: UnsafePointer<Row>
        private let y0: Int, y1: Int, left: Int, size: Int

        init(_ sprite: DiscSprite, x: Int, y: Int) {
            rows = UnsafePointer(sprite.rows.baseAddress!)
            y0 = y - sprite.half + sprite.ink.y0
            y1 = y - sprite.half + sprite.ink.y1
            left = x - sprite.half
            size = sprite.size
        }

        /// The columns `blit` fills whatever they held on row `y`, end exclusive; nil when none.
        @inline(__always)
        func span(row y: Int) -> (Int, Int)? {
            guard y >= y0 && y < y1 else { return nil }
            let s = Int(rows[y - y0].solidStart)
            return s < size - s ? (left + s, left + size - s) : nil
        }
    }

    /// Paints the disc in `color` at opacity `opacity` (0...255) with its centre at (`x`, `y`).
    func blit(into pixels: UnsafeMutablePointer<UInt32>, pitch: Int, clipWidth: Int, clipHeight: Int,
              x: Int, y: Int, color: UInt32, opacity: UInt32) {
        guard opacity > 0 else { return }
        let left = x - half, top = y - half
        let y0 = max(ink.y0, -top), y1 = min(ink.y1, clipHeight - top)
        let cx0 = max(0, -left), cx1 = min(size, clipWidth - left)
        guard y0 < y1, cx0 < cx1 else { return }
        let size = self.size
        let rb = UnsafePointer(rows.baseAddress!)
        bytes.withUnsafeBufferPointer { bb in
            do {
                // Rows clipped away above still take their bytes.
                var offset = 0
                for sy in ink.y0..<y0 { offset += rb[sy - ink.y0].length }
                for sy in y0..<y1 {
                    let r = rb[sy - ink.y0]
                    let inkStart = Int(r.inkStart), rimStart = Int(r.rimStart), solidStart = Int(r.solidStart)
                    let shadow = bb.baseAddress! + offset
                    offset += r.length
                    guard inkStart < size - inkStart else { continue }
                    let dst = pixels + (top + sy) * pitch + left
                    let rim = shadow + (rimStart - inkStart)
                    // Left to right: shadow, rim, opaque middle, rim and shadow mirrored; each
                    // part clipped to [cx0, cx1).
                    func clip(_ a: Int, _ b: Int) -> (Int, Int) { (max(a, cx0), min(b, cx1)) }
                    var (a, b) = clip(inkStart, rimStart)
                    if a < b { Self.blendShadow(dst, shadow - inkStart, a, b, mirrored: false, opacity: opacity) }
                    (a, b) = clip(rimStart, solidStart)
                    if a < b { Self.blendRim(dst, rim, rimStart, a, b, mirrored: false, color, opacity: opacity) }
                    (a, b) = clip(solidStart, size - solidStart)
                    if a < b {
                        if opacity == 255 {
                            (dst + a).update(repeating: PixelMath.scale(color, UInt32(r.shade)), count: b - a)
                        } else {
                            Self.blendSolid(dst, a, b, color, shade: UInt32(r.shade), opacity: opacity)
                        }
                    }
                    (a, b) = clip(size - solidStart, size - rimStart)
                    if a < b { Self.blendRim(dst, rim, size - 1 - rimStart, a, b, mirrored: true, color, opacity: opacity) }
                    (a, b) = clip(size - rimStart, size - inkStart)
                    if a < b { Self.blendShadow(dst, shadow + (size - 1 - inkStart), a, b, mirrored: true, opacity: opacity) }
                }
            }
        }
    }

    /// `v` (0...255) times `opacity` / 255, rounded as the blends round.
    @inline(__always)
    private static func scaled(_ v: UInt32, _ opacity: UInt32) -> UInt32 {
        let s = v &* opacity &+ 128
        return (s &+ (s >> 8)) >> 8
    }

    /// The rim, pixel by pixel (one to a few pixels a row): the alpha and light pair of column
    /// x is at `rim[2 * (x - first)]`, or at `rim[2 * (first - x)]` when `mirrored`.
    @inline(__always)
    private static func blendRim(_ dst: UnsafeMutablePointer<UInt32>, _ rim: UnsafePointer<UInt8>, _ first: Int,
                                 _ from: Int, _ to: Int, mirrored: Bool, _ color: UInt32, opacity: UInt32) {
        for x in from..<to {
            let k = 2 * (mirrored ? first - x : x - first)
            var a = UInt32(rim[k]), l = UInt32(rim[k + 1])
            if opacity != 255 { a = scaled(a, opacity); l = scaled(l, opacity) }
            if a != 0 { dst[x] = PixelMath.mix(dst[x], color, s: l, a: a) }
        }
    }

    /// The opaque middle below full opacity: alpha 255 and the row's shade, scaled.
    @inline(__always)
    private static func blendSolid(_ dst: UnsafeMutablePointer<UInt32>, _ from: Int, _ to: Int, _ color: UInt32,
                                   shade: UInt32, opacity: UInt32) {
        let a = scaled(255, opacity), l = scaled(shade, opacity)
        guard a != 0 else { return }
        for x in from..<to { dst[x] = PixelMath.mix(dst[x], color, s: l, a: a) }
    }

    /// The shadow: `dst * (255 - alpha) / 255` per channel (no light), alpha of column x at
    /// `alpha[x]`, or at `alpha[-x]` when `mirrored`. Four pixels per step with each channel in a
    /// 16-bit lane (red and blue of a pixel in one pair of lanes, green in the next), then the
    /// remainder one by one: the same sums and rounding as `PixelMath.mix` with light 0
    /// (`dst * (255 - alpha)` fits 16 bits), with multiplies x86-64's baseline has (pmullw;
    /// 32-bit lane multiplies need SSE4.1).
    @inline(__always)
    private static func blendShadow(_ dst: UnsafeMutablePointer<UInt32>, _ alpha: UnsafePointer<UInt8>,
                                    _ from: Int, _ to: Int, mirrored: Bool, opacity: UInt32) {
        typealias V = SIMD4<UInt32>
        typealias H = SIMD8<UInt16>
        func h(_ v: V) -> H { unsafeBitCast(v, to: H.self) }
        func v(_ h: H) -> V { unsafeBitCast(h, to: V.self) }
        let lowRB = V(repeating: 0x00FF_00FF), low8 = V(repeating: 0xFF)
        let op = H(repeating: UInt16(truncatingIfNeeded: opacity))
        var i = from
        while i + 4 <= to {
            // Alpha of four pixels, each in both 16-bit halves of its lane.
            var four = UnsafeRawPointer(mirrored ? alpha - (i + 3) : alpha + i).loadUnaligned(as: UInt32.self)
            if mirrored { four = four.byteSwapped }
            let w = V(truncatingIfNeeded: unsafeBitCast(four, to: SIMD4<UInt8>.self))
            var a = h(w | w &<< 16)
            if opacity != 255 {
                a = a &* op &+ 128; a = (a &+ (a &>> 8)) &>> 8
            }
            let raw = UnsafeMutableRawPointer(dst + i)
            let d = raw.loadUnaligned(as: V.self)
            let ia = 255 &- a
            let rb = h(d & lowRB) &* ia
            let g = h((d &>> 8) & low8) &* ia
            let rbq = (rb &+ 0x80 &+ (rb &>> 8)) &>> 8
            let gq = (g &+ 0x80 &+ (g &>> 8)) &>> 8
            raw.storeBytes(of: v(rbq) | ((v(gq) & low8) &<< 8), as: V.self)
            i += 4
        }
        while i < to {
            var a = UInt32(mirrored ? alpha[-i] : alpha[i])
            if opacity != 255 { a = scaled(a, opacity) }
            if a != 0 { dst[i] = PixelMath.mix(dst[i], 0, s: 0, a: a) }
            i += 1
        }
    }
}
