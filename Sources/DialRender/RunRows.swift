import KioskSeams

/// A rectangle of a painted buffer kept row by row, the longest run of one colour in each row
/// (when it is at least `minimumRun` pixels long) kept as its colour only. The painter's
/// background is kept this way: the hub's face is one colour along each row (painted at full
/// coverage over everything below it), about a third of the drawing box with a 24-item ring,
/// and restoring it is a fill, which reads no memory. A span outside a row's run is one copy,
/// as from a plain buffer: a frame restores thousands of short spans, and splitting them at
/// every run (the ring's track is one colour too) cost a fifth of a 1080p frame's paint.
/// Exact: `restore` writes back the pixels it was made from, whatever was painted.
struct RunRows {
    /// Size in pixels.
    let width: Int
    let height: Int

    /// One row: its pixels start at `offset` in the block, columns `runStart ..< runEnd` are
    /// `color` and not stored (an empty run: `runStart == runEnd == width`).
    struct Row {
        var offset: Int
        var runStart: Int32, runEnd: Int32
        var color: UInt32
    }

    /// The rows and their pixels in one allocation: `reader` hands out raw pointers into it,
    /// so the restore's row loops retain and release nothing.
    private final class Storage {
        let base: UnsafeMutableRawPointer
        let byteCount: Int
        let reader: Reader
        let pixelBase: UnsafeMutablePointer<UInt32>
        /// Room for `rows` and `pixelCount` pixels (zeroed), for the caller to fill through
        /// `pixelBase`.
        init(rows: [Row], pixelCount: Int) {
            let rowBytes = rows.count * MemoryLayout<Row>.stride, pixelBytes = pixelCount * 4
            byteCount = rowBytes + pixelBytes
            base = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 16), alignment: 64)
            let r = base.bindMemory(to: Row.self, capacity: rows.count)
            r.initialize(from: rows, count: rows.count)
            let p = (base + rowBytes).bindMemory(to: UInt32.self, capacity: pixelCount)
            p.initialize(repeating: 0, count: pixelCount)
            pixelBase = p
            reader = Reader(pixels: UnsafePointer(p), rows: UnsafePointer(r))
        }
        deinit { base.deallocate() }
    }
    private let storage: Storage

    /// An empty rectangle (holds nothing until made from a buffer).
    init() {
        width = 0
        height = 0
        storage = Storage(rows: [], pixelCount: 0)
    }

    /// The pixels of `rect` (inside `buffer`), each row's longest run of one colour, when it is
    /// `minimumRun` pixels or more, kept as its colour.
    init(_ buffer: PixelBuffer, rect: PixelRect, minimumRun: Int = 64) {
        precondition(rect.x0 >= 0 && rect.y0 >= 0 && rect.x1 <= buffer.width && rect.y1 <= buffer.height && !rect.isEmpty,
                     "rectangle outside the buffer")
        let w = rect.x1 - rect.x0, h = rect.y1 - rect.y0, pitch = buffer.rowPitch
        width = w
        height = h
        var rows: [Row] = []
        rows.reserveCapacity(h)
        var pixelCount = 0
        buffer.withUnsafePixels { p in
            for y in 0..<h {
                let row = p + (rect.y0 + y) * pitch + rect.x0
                var best = (start: w, end: w), x = 0
                while x < w {
                    var e = x + 1
                    while e < w && row[e] == row[x] { e += 1 }
                    if e - x >= minimumRun && e - x > best.end - best.start { best = (x, e) }
                    x = e
                }
                let color = best.start < w ? row[best.start] : 0
                rows.append(Row(offset: pixelCount, runStart: Int32(best.start), runEnd: Int32(best.end), color: color))
                pixelCount += w - (best.end - best.start)
            }
        }
        // One block of its own size, written in place: no second copy of the pixels, even
        // for a moment.
        let storage = Storage(rows: rows, pixelCount: pixelCount)
        buffer.withUnsafePixels { p in
            for (y, r) in rows.enumerated() {
                let row = p + (rect.y0 + y) * pitch + rect.x0, d = storage.pixelBase + r.offset
                let s = Int(r.runStart), e = Int(r.runEnd)
                d.update(from: row, count: s)
                (d + s).update(from: row + e, count: w - e)
            }
        }
        self.storage = storage
    }

    /// Bytes held (rows and pixels), for tests.
    var byteCount: Int { storage.byteCount }

    /// Raw pointers into the rows, valid while this value (its storage) lives: hold it with
    /// `withExtendedLifetime` around their use. No closure: one the optimizer does not inline
    /// puts the restore's arrays in boxes, retained and released on every row.
    var reader: Reader { storage.reader }

    /// Raw access to the rows (`reader`).
    struct Reader {
        let pixels: UnsafePointer<UInt32>
        let rows: UnsafePointer<Row>

        /// Writes the columns `x0 ..< x1` of row `y` to `dst` (the pixel of column `x0`).
        @inline(__always)
        func restore(row y: Int, from x0: Int, to x1: Int, into dst: UnsafeMutablePointer<UInt32>) {
            let r = rows[y], s = Int(r.runStart), e = Int(r.runEnd), src = pixels + r.offset
            if x1 <= s {
                dst.update(from: src + x0, count: x1 - x0)
            } else if x0 >= e {
                dst.update(from: src + x0 - (e - s), count: x1 - x0)
            } else {
                if x0 < s { dst.update(from: src + x0, count: s - x0) }
                let a = max(x0, s), b = min(x1, e)
                (dst + (a - x0)).update(repeating: r.color, count: b - a)
                if x1 > e { (dst + (e - x0)).update(from: src + s, count: x1 - e) }
            }
        }
    }
}
