/// One item disc with its soft drop shadow at one radius, as colour-free masks, so one sprite
/// serves every item of that size: `alpha` is how much of the backdrop is covered (disc or
/// shadow), `light` how much of the item's colour is added (disc coverage times a top-to-bottom
/// shade). A pixel becomes `(colour * light + backdrop * (255 - alpha)) / 255`.
///
/// Rows record where any ink is and where the disc is fully opaque; the opaque middle of a row
/// has one shade and is a plain fill, so only the rim and the shadow are blended.
final class DiscSprite {
    /// Side of the square sprite; the disc's centre is the corner between pixels `half - 1` and `half`.
    let size: Int
    let half: Int
    let radius: Double
    private let alpha: [UInt8]
    private let light: [UInt8]
    private let rows: [Row]

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
        var alpha = [UInt8](repeating: 0, count: size * size)
        var light = [UInt8](repeating: 0, count: size * size)
        var rows: [Row] = []
        rows.reserveCapacity(size)
        let c = Double(half)
        for y in 0..<size {
            let dy = Double(y) + 0.5 - c
            let sdy = dy - shadowOffset
            let t = max(0, min(1, (dy + radius) / (2 * radius)))
            let shade = 1 + (bottomShade - 1) * t
            let shadeByte = PixelMath.byte(shade)
            var row = Row(inkStart: Int32(size), inkEnd: 0, solidStart: 0, solidEnd: 0, shade: shadeByte)
            for x in 0..<size {
                let dx = Double(x) + 0.5 - c
                let d = (dx * dx + dy * dy).squareRoot()
                let cov = Coverage.disc(distance: d, radius: radius)
                let sd = (dx * dx + sdy * sdy).squareRoot()
                let sh = Coverage.softDisc(distance: sd, radius: radius, blur: shadowBlur) * shadowOpacity
                let a = PixelMath.byte(cov + sh * (1 - cov))
                let l = cov >= 1 ? shadeByte : min(a, PixelMath.byte(cov * shade))
                alpha[y * size + x] = UInt8(a)
                light[y * size + x] = UInt8(l)
                if a > 0 {
                    row.inkStart = min(row.inkStart, Int32(x))
                    row.inkEnd = Int32(x + 1)
                }
                if cov >= 1 && a == 255 {
                    if row.solidEnd == 0 { row.solidStart = Int32(x) }
                    row.solidEnd = Int32(x + 1)
                }
            }
            if row.inkEnd == 0 { row.inkStart = 0 }
            if row.solidEnd == 0 { row.solidStart = row.inkStart; row.solidEnd = row.inkStart }
            rows.append(row)
        }
        self.alpha = alpha
        self.light = light
        self.rows = rows
    }

    /// Bytes held, for the cache's budget.
    var byteCount: Int { size * size * 2 + rows.count * MemoryLayout<Row>.stride }

    /// The pixels this sprite may touch with the disc's centre at (`x`, `y`).
    func rect(atX x: Int, y: Int) -> PixelRect {
        PixelRect(x0: x - half, y0: y - half, x1: x + half, y1: y + half)
    }

    /// Paints the disc in `color` at opacity `opacity` (0...255) with its centre at (`x`, `y`).
    func blit(into pixels: UnsafeMutablePointer<UInt32>, pitch: Int, clipWidth: Int, clipHeight: Int,
              x: Int, y: Int, color: UInt32, opacity: UInt32) {
        guard opacity > 0 else { return }
        let left = x - half, top = y - half
        let y0 = max(0, -top), y1 = min(size, clipHeight - top)
        let cx0 = max(0, -left), cx1 = min(size, clipWidth - left)
        guard y0 < y1, cx0 < cx1 else { return }
        alpha.withUnsafeBufferPointer { ab in
            light.withUnsafeBufferPointer { lb in
                rows.withUnsafeBufferPointer { rb in
                    for sy in y0..<y1 {
                        let r = rb[sy]
                        let s0 = max(cx0, Int(r.inkStart)), s1 = min(cx1, Int(r.inkEnd))
                        guard s0 < s1 else { continue }
                        let dst = pixels + (top + sy) * pitch + left
                        let a = ab.baseAddress! + sy * size
                        let l = lb.baseAddress! + sy * size
                        if opacity == 255 {
                            let o0 = min(max(s0, Int(r.solidStart)), s1), o1 = max(o0, min(s1, Int(r.solidEnd)))
                            blendSpan(dst, a, l, s0, o0, color)
                            if o0 < o1 {
                                (dst + o0).update(repeating: PixelMath.scale(color, r.shade), count: o1 - o0)
                            }
                            blendSpan(dst, a, l, o1, s1, color)
                        } else {
                            for i in s0..<s1 {
                                let ai = (UInt32(a[i]) &* opacity &+ 127) / 255
                                let li = (UInt32(l[i]) &* opacity &+ 127) / 255
                                if ai != 0 { dst[i] = PixelMath.mix(dst[i], color, s: li, a: ai) }
                            }
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private func blendSpan(_ dst: UnsafeMutablePointer<UInt32>, _ a: UnsafePointer<UInt8>,
                           _ l: UnsafePointer<UInt8>, _ from: Int, _ to: Int, _ color: UInt32) {
        var i = from
        while i < to {
            let ai = UInt32(a[i])
            if ai != 0 { dst[i] = PixelMath.mix(dst[i], color, s: UInt32(l[i]), a: ai) }
            i += 1
        }
    }
}
