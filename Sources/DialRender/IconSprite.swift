import DialCore
import KioskSeams

/// A PNG icon scaled to one size, premultiplied, ready to blend.
struct IconSprite: Sendable {
    let width: Int
    let height: Int
    /// Premultiplied 0x00RRGGBB and alpha per pixel.
    private let color: [UInt32]
    private let alpha: [UInt8]

    /// `image` scaled to fit a `box` x `box` square, keeping its aspect ratio, by averaging the
    /// source pixels under each destination pixel (premultiplied, so edges do not darken).
    init(_ image: RGBAImage, box: Int) {
        self.init(fitting: image.width, image.height, box: box) { i in
            let a = Int(image.bytes[i * 4 + 3])
            return (Int(image.bytes[i * 4]) * a, Int(image.bytes[i * 4 + 1]) * a, Int(image.bytes[i * 4 + 2]) * a, a)
        }
    }

    /// `sprite` scaled again to fit a `box` x `box` square: the painter keeps each icon once at
    /// the largest size it can be drawn (not the source image) and makes every size from that.
    init(_ sprite: IconSprite, box: Int) {
        self.init(fitting: sprite.width, sprite.height, box: box) { i in
            let c = sprite.color[i]
            return (Int(c >> 16 & 0xFF) * 255, Int(c >> 8 & 0xFF) * 255, Int(c & 0xFF) * 255, Int(sprite.alpha[i]))
        }
    }

    /// Box-filters a `sourceWidth` x `sourceHeight` image, given as premultiplied channels times
    /// 255 and alpha per pixel index, into the size that fits `box`.
    private init(fitting sourceWidth: Int, _ sourceHeight: Int, box: Int, _ pixel: (Int) -> (Int, Int, Int, Int)) {
        let scale = min(Double(box) / Double(max(1, sourceWidth)), Double(box) / Double(max(1, sourceHeight)))
        width = max(1, Int((Double(sourceWidth) * scale).rounded()))
        height = max(1, Int((Double(sourceHeight) * scale).rounded()))
        var color = [UInt32](repeating: 0, count: width * height)
        var alpha = [UInt8](repeating: 0, count: width * height)
        let sx = Double(sourceWidth) / Double(width), sy = Double(sourceHeight) / Double(height)
        for y in 0..<height {
            let ya = Int(Double(y) * sy), yb = max(ya + 1, min(sourceHeight, Int((Double(y + 1) * sy).rounded(.up))))
            for x in 0..<width {
                let xa = Int(Double(x) * sx), xb = max(xa + 1, min(sourceWidth, Int((Double(x + 1) * sx).rounded(.up))))
                var r = 0, g = 0, b = 0, a = 0, n = 0
                for yy in ya..<min(yb, sourceHeight) {
                    for xx in xa..<min(xb, sourceWidth) {
                        let p = pixel(yy * sourceWidth + xx)
                        r += p.0; g += p.1; b += p.2; a += p.3; n += 1
                    }
                }
                guard n > 0 else { continue }
                let d = n * 255
                color[y * width + x] = UInt32((r + d / 2) / d) << 16 | UInt32((g + d / 2) / d) << 8 | UInt32((b + d / 2) / d)
                alpha[y * width + x] = UInt8((a + n / 2) / n)
            }
        }
        self.color = color
        self.alpha = alpha
    }

    /// Bytes held (for tests and budgets).
    var byteCount: Int { color.count * 4 + alpha.count }

    /// The pixels covered when centred at (`x`, `y`).
    func rect(atX x: Int, y: Int) -> PixelRect {
        PixelRect(x0: x - width / 2, y0: y - height / 2, x1: x - width / 2 + width, y1: y - height / 2 + height)
    }

    /// Blends the icon at `opacity` (0...255) centred at (`x`, `y`).
    func blit(into pixels: UnsafeMutablePointer<UInt32>, pitch: Int, clipWidth: Int, clipHeight: Int,
              x: Int, y: Int, opacity: UInt32) {
        let left = x - width / 2, top = y - height / 2
        for iy in max(0, -top)..<max(0, min(height, clipHeight - top)) {
            let dst = pixels + (top + iy) * pitch + left
            for ix in max(0, -left)..<max(0, min(width, clipWidth - left)) {
                let a = UInt32(alpha[iy * width + ix])
                guard a != 0 else { continue }
                if opacity == 255 {
                    dst[ix] = PixelMath.over(dst[ix], premultiplied: color[iy * width + ix], a: a)
                } else {
                    let c = PixelMath.scale(color[iy * width + ix], opacity)
                    dst[ix] = PixelMath.over(dst[ix], premultiplied: c, a: (a * opacity + 127) / 255)
                }
            }
        }
    }
}
