import DialCore
import KioskSeams

/// Text (or any shape) as 8-bit coverage, placed relative to the point it is centred on.
public struct TextMask: Sendable {
    /// Size of the mask, in pixels.
    public let width: Int
    public let height: Int
    /// Coverage of the inked runs only, run after run (0 = no ink, 255 = full ink): a ring or a
    /// label is mostly empty box, and a painter keeps hundreds of them.
    private let inked: [UInt8]
    /// Offset of the mask's top-left pixel from the anchor it is centred on.
    public let originX: Int
    public let originY: Int
    /// Runs of inked pixels: for row y, `runs[rowRuns[y] ..< rowRuns[y + 1]]` holds pairs
    /// (start, end), so blits skip the empty parts (a ring's inside, gaps between words). The
    /// runs' coverage follows one another in `inked`, row y's from `rowInked[y]`: four bytes a
    /// run instead of twelve, which in a label of a few dozen rows of letters is most of its size.
    private let runs: [UInt16]
    private let rowRuns: [Int32]
    private let rowInked: [Int32]

    /// A mask of `width` x `height` coverage bytes whose top-left lies at (`originX`, `originY`)
    /// from its anchor.
    public init(width: Int, height: Int, coverage: [UInt8], originX: Int, originY: Int) {
        precondition(coverage.count == width * height, "coverage does not match the mask size")
        precondition(width <= Int(UInt16.max), "a mask is at most 65535 pixels wide")
        self.width = width
        self.height = height
        self.originX = originX
        self.originY = originY
        var runs: [UInt16] = [], rowRuns: [Int32] = [0], rowInked: [Int32] = [], inked: [UInt8] = []
        rowRuns.reserveCapacity(height + 1)
        rowInked.reserveCapacity(height)
        for y in 0..<height {
            rowInked.append(Int32(inked.count))
            var x = 0
            while x < width {
                while x < width && coverage[y * width + x] == 0 { x += 1 }
                let start = x
                while x < width && coverage[y * width + x] != 0 { x += 1 }
                if x > start {
                    runs.append(UInt16(start)); runs.append(UInt16(x))
                    inked.append(contentsOf: coverage[(y * width + start)..<(y * width + x)])
                }
            }
            rowRuns.append(Int32(runs.count))
        }
        // Kept as long as the cache keeps the mask: without the appends' spare capacity.
        self.runs = runs.compacted()
        self.rowRuns = rowRuns
        self.rowInked = rowInked
        self.inked = inked.compacted()
    }

    /// Row-major coverage of the whole box, 0 = no ink, 255 = full ink (made on each call).
    public var coverage: [UInt8] {
        var c = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            var k = Int(rowRuns[y]), at = Int(rowInked[y])
            while k < Int(rowRuns[y + 1]) {
                let start = Int(runs[k]), end = Int(runs[k + 1])
                for x in start..<end { c[y * width + x] = inked[at + x - start] }
                at += end - start
                k += 2
            }
        }
        return c
    }

    /// Bytes held (coverage and runs), for the painter's cache bounds.
    public var byteCount: Int { inked.count + runs.count * 2 + (rowRuns.count + rowInked.count) * 4 }

    /// Bytes the arrays' storage takes (their capacity), for tests: about `byteCount`.
    var storageBytes: Int { inked.capacity + runs.capacity * 2 + (rowRuns.capacity + rowInked.capacity) * 4 }

    /// Number of pixels with any ink.
    public var inkedPixels: Int { inked.count }

    /// Blends `color` by coverage times `alpha` (0...255) into `pixels` (rows `pitch` apart,
    /// clipped to `clipWidth` x `clipHeight`) with the anchor at (`x`, `y`).
    func blit(into pixels: UnsafeMutablePointer<UInt32>, pitch: Int, clipWidth: Int, clipHeight: Int,
              x: Int, y: Int, color: UInt32, alpha: UInt32) {
        let left = x + originX, top = y + originY
        let cx0 = max(0, -left), cx1 = min(width, clipWidth - left)
        let cy0 = max(0, -top), cy1 = min(height, clipHeight - top)
        guard cx0 < cx1, cy0 < cy1, alpha > 0 else { return }
        inked.withUnsafeBufferPointer { cov in
            for my in cy0..<cy1 {
                let dst = pixels + (top + my) * pitch + left
                var k = Int(rowRuns[my]), at = Int(rowInked[my])
                while k < Int(rowRuns[my + 1]) {
                    let start = Int(runs[k]), end = Int(runs[k + 1])
                    let from = max(cx0, start), to = min(cx1, end)
                    // Column mx of this run is at src[mx].
                    let src = cov.baseAddress! + at - start
                    at += end - start
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
        // Only pixels within a pixel of the band are computed: the others have no coverage
        // (a selection ring is built in a frame, and most of its square is its empty inside).
        let far = outer + 0.5, near = max(0, inner - 0.5)
        for y in 0..<size {
            let dy = Double(y - half) + 0.5
            guard dy * dy < far * far else { continue }
            let reach = (far * far - dy * dy).squareRoot() + 1
            let hole = dy * dy < near * near ? (near * near - dy * dy).squareRoot() - 1 : -1
            for x in 0..<size {
                let dx = Double(x - half) + 0.5
                guard abs(dx) <= reach, abs(dx) >= hole else { continue }
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
