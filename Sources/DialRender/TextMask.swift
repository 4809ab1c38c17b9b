import DialCore

/// Text (or any shape) as 8-bit coverage, placed relative to the point it is centred on.
public struct TextMask: Sendable {
    public let width: Int
    public let height: Int
    /// Row-major coverage, 0 = no ink, 255 = full ink.
    public let coverage: [UInt8]
    /// Offset of the mask's top-left pixel from the anchor it is centred on.
    public let originX: Int
    public let originY: Int

    public init(width: Int, height: Int, coverage: [UInt8], originX: Int, originY: Int) {
        precondition(coverage.count == width * height, "coverage does not match the mask size")
        self.width = width
        self.height = height
        self.coverage = coverage
        self.originX = originX
        self.originY = originY
    }

    /// Number of pixels with any ink.
    public var inkedPixels: Int { coverage.reduce(0) { $0 + ($1 > 0 ? 1 : 0) } }

    /// Blends `color` by coverage times `alpha` (0...255) into `pixels` (rows `pitch` apart,
    /// clipped to `clipWidth` x `clipHeight`) with the anchor at (`x`, `y`).
    func blit(into pixels: UnsafeMutablePointer<UInt32>, pitch: Int, clipWidth: Int, clipHeight: Int,
              x: Int, y: Int, color: UInt32, alpha: UInt32) {
        let left = x + originX, top = y + originY
        let cx0 = max(0, -left), cx1 = min(width, clipWidth - left)
        let cy0 = max(0, -top), cy1 = min(height, clipHeight - top)
        guard cx0 < cx1, cy0 < cy1, alpha > 0 else { return }
        coverage.withUnsafeBufferPointer { cov in
            for my in cy0..<cy1 {
                let src = cov.baseAddress! + my * width
                let dst = pixels + (top + my) * pitch + left
                if alpha == 255 {
                    for mx in cx0..<cx1 {
                        let c = UInt32(src[mx])
                        if c != 0 { dst[mx] = PixelMath.mix(dst[mx], color, s: c, a: c) }
                    }
                } else {
                    for mx in cx0..<cx1 {
                        let c = UInt32(src[mx]) &* alpha &+ 127
                        let a = (c &+ (c >> 8)) >> 8
                        if a != 0 { dst[mx] = PixelMath.mix(dst[mx], color, s: a, a: a) }
                    }
                }
            }
        }
    }

    /// The extent of the mask relative to its anchor, as a rectangle at anchor (`x`, `y`).
    func rect(atX x: Int, y: Int) -> PixelRect {
        PixelRect(x0: x + originX, y0: y + originY, x1: x + originX + width, y1: y + originY + height)
    }
}

extension PixelBuffer {
    /// Blends `mask` in `color` at `opacity` with its anchor at (`x`, `y`).
    public mutating func draw(_ mask: TextMask, x: Int, y: Int, color: RGBColor, opacity: Double = 1) {
        let w = width, h = height, pitch = rowPitch
        withUnsafeMutablePixels {
            mask.blit(into: $0, pitch: pitch, clipWidth: w, clipHeight: h, x: x, y: y,
                      color: color.xrgb, alpha: PixelMath.byte(opacity))
        }
    }
}
