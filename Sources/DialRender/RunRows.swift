import KioskSeams

/// A rectangle of a painted buffer kept row by row as runs: a run of one colour at least
/// `minimumRun` pixels long is kept as its colour, the pixels between such runs as they were
/// painted. The painter's background is kept this way: the hub's face and the ring's track are
/// one colour along each row (painted at full coverage over everything below), about 40% of the
/// drawing box with a 24-item ring, and restoring them is a fill, which reads no memory.
/// Exact: `restore` writes back the pixels it was made from, whatever was painted.
struct RunRows {
    /// Size in pixels.
    let width: Int
    let height: Int

    /// One run of a row: columns `x0 ..< x1`, either the pixels at `offset` in `pixels` or,
    /// with `offset` -1, `color` in every column.
    struct Segment {
        var x0: Int32, x1: Int32
        var color: UInt32
        var offset: Int32
    }

    /// The pixels outside the single-colour runs, row after row.
    private let pixels: [UInt32]
    private let segments: [Segment]
    /// Row `y`'s runs are `segments[rowStart[y] ..< rowStart[y + 1]]`, left to right, covering
    /// every column.
    private let rowStart: [Int32]

    /// An empty rectangle (holds nothing until made from a buffer).
    init() {
        width = 0
        height = 0
        pixels = []
        segments = []
        rowStart = [0]
    }

    /// The pixels of `rect` (inside `buffer`), runs of one colour of `minimumRun` pixels or more
    /// kept as their colour.
    init(_ buffer: PixelBuffer, rect: PixelRect, minimumRun: Int = 16) {
        precondition(rect.x0 >= 0 && rect.y0 >= 0 && rect.x1 <= buffer.width && rect.y1 <= buffer.height && !rect.isEmpty,
                     "rectangle outside the buffer")
        let w = rect.x1 - rect.x0, h = rect.y1 - rect.y0, pitch = buffer.rowPitch
        width = w
        height = h
        var segments: [Segment] = [], rowStart: [Int32] = [0]
        rowStart.reserveCapacity(h + 1)
        var literalCount = 0
        buffer.withUnsafePixels { p in
            for y in 0..<h {
                let row = p + (rect.y0 + y) * pitch + rect.x0
                var x = 0, literal = 0
                func flushLiteral(to end: Int) {
                    guard end > literal else { return }
                    segments.append(Segment(x0: Int32(literal), x1: Int32(end), color: 0, offset: Int32(literalCount)))
                    literalCount += end - literal
                }
                while x < w {
                    let c = row[x]
                    var e = x + 1
                    while e < w && row[e] == c { e += 1 }
                    if e - x >= minimumRun {
                        flushLiteral(to: x)
                        segments.append(Segment(x0: Int32(x), x1: Int32(e), color: c, offset: -1))
                        literal = e
                    }
                    x = e
                }
                flushLiteral(to: w)
                rowStart.append(Int32(segments.count))
            }
        }
        // Storage of their own size: appends leave up to twice the bytes reserved.
        self.segments = segments.compacted()
        self.rowStart = rowStart
        var pixels: [UInt32] = []
        pixels.reserveCapacity(literalCount)
        buffer.withUnsafePixels { p in
            for y in 0..<h {
                let row = p + (rect.y0 + y) * pitch + rect.x0
                for k in Int(rowStart[y])..<Int(rowStart[y + 1]) where segments[k].offset >= 0 {
                    pixels.append(contentsOf: UnsafeBufferPointer(start: row + Int(segments[k].x0),
                                                                  count: Int(segments[k].x1 - segments[k].x0)))
                }
            }
        }
        self.pixels = pixels
    }

    /// Bytes held (pixels and runs), for tests and `bench`.
    var byteCount: Int {
        pixels.count * 4 + segments.count * MemoryLayout<Segment>.stride + rowStart.count * 4
    }

    /// Lends a reader for `restore` (the row loops then touch no array).
    func withReader<R>(_ body: (Reader) -> R) -> R {
        pixels.withUnsafeBufferPointer { p in
            segments.withUnsafeBufferPointer { s in
                rowStart.withUnsafeBufferPointer { r in
                    body(Reader(pixels: p.baseAddress, segments: s.baseAddress!, rowStart: r.baseAddress!))
                }
            }
        }
    }

    /// Raw access to the runs for the duration of `withReader`.
    struct Reader {
        let pixels: UnsafePointer<UInt32>?
        let segments: UnsafePointer<Segment>
        let rowStart: UnsafePointer<Int32>

        /// Writes the columns `x0 ..< x1` of row `y` to `dst` (the pixel of column `x0`).
        @inline(__always)
        func restore(row y: Int, from x0: Int, to x1: Int, into dst: UnsafeMutablePointer<UInt32>) {
            var k = Int(rowStart[y])
            let end = Int(rowStart[y + 1])
            while k < end && Int(segments[k].x1) <= x0 { k += 1 }
            var x = x0
            while x < x1 && k < end {
                let s = segments[k]
                let stop = min(x1, Int(s.x1))
                if s.offset < 0 {
                    (dst + (x - x0)).update(repeating: s.color, count: stop - x)
                } else {
                    (dst + (x - x0)).update(from: pixels! + Int(s.offset) + (x - Int(s.x0)), count: stop - x)
                }
                x = stop
                k += 1
            }
        }
    }
}
