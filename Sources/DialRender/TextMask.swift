import DialCore

/// Text (or any shape) as 8-bit coverage, placed relative to the point it is centred on.
public struct TextMask: Sendable {
    /// Size of the mask, in pixels.
    public let width: Int
    public let height: Int
    /// Row-major coverage, 0 = no ink, 255 = full ink.
    public let coverage: [UInt8]
    /// Offset of the mask's top-left pixel from the anchor it is centred on.
    public let originX: Int
    public let originY: Int
    /// Runs of inked pixels: for row y, `runs[rowRuns[y] ..< rowRuns[y + 1]]` holds pairs
    /// (start, end) of columns, so blits skip the empty parts (a ring's inside, gaps between words).
    private let runs: [Int32]
    private let rowRuns: [Int32]

    /// A mask of `width` x `height` coverage bytes whose top-left lies at (`originX`, `originY`)
    /// from its anchor.
    public init(width: Int, height: Int, coverage: [UInt8], originX: Int, originY: Int) {
        precondition(coverage.count == width * height, "coverage does not match the mask size")
        self.width = width
        self.height = height
        self.coverage = coverage
        self.originX = originX
        self.originY = originY
        var runs: [Int32] = [], rowRuns: [Int32] = [0]
        for y in 0..<height {
            var x = 0
            while x < width {
                while x < width && coverage[y * width + x] == 0 { x += 1 }
                let start = x
                while x < width && coverage[y * width + x] != 0 { x += 1 }
                if x > start { runs.append(Int32(start)); runs.append(Int32(x)) }
            }
            rowRuns.append(Int32(runs.count))
        }
        self.runs = runs
        self.rowRuns = rowRuns
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
                var k = Int(rowRuns[my])
                while k < Int(rowRuns[my + 1]) {
                    let from = max(cx0, Int(runs[k])), to = min(cx1, Int(runs[k + 1]))
                    k += 2
                    guard from < to else { continue }
                    if alpha == 255 {
                        for mx in from..<to {
                            let c = UInt32(src[mx])
                            dst[mx] = PixelMath.mix(dst[mx], color, s: c, a: c)
                        }
                    } else {
                        for mx in from..<to {
                            let c = UInt32(src[mx]) &* alpha &+ 128
                            let a = (c &+ (c >> 8)) >> 8
                            dst[mx] = PixelMath.mix(dst[mx], color, s: a, a: a)
                        }
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

extension TextMask {
    /// The anti-aliased annulus between `inner` and `outer` radii as a mask anchored on its centre.
    static func ring(inner: Double, outer: Double) -> TextMask {
        let half = Int(outer.rounded(.up)) + 1
        let size = 2 * half
        var coverage = [UInt8](repeating: 0, count: size * size)
        for y in 0..<size {
            let dy = Double(y - half) + 0.5
            for x in 0..<size {
                let dx = Double(x - half) + 0.5
                let c = Coverage.ring(distance: (dx * dx + dy * dy).squareRoot(), inner: inner, outer: outer)
                coverage[y * size + x] = UInt8(PixelMath.byte(c))
            }
        }
        return TextMask(width: size, height: size, coverage: coverage, originX: -half, originY: -half)
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
