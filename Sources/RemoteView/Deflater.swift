import CZlib

/// One zlib deflate stream that lives as long as its viewer: ZRLE and Tight both keep one
/// stream per connection across rectangles, each rectangle ending in a sync flush so the viewer
/// can inflate it alone. The one owner of its `z_stream`.
final class Deflater {
    private var stream = z_stream()
    private let ready: Bool

    /// `level`: zlib's 1 (fast) to 9; the view uses a fast level, the frame loop pays for it.
    init(level: Int32 = 1) {
        ready = deflateInit_(&stream, level, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    }

    deinit { if ready { deflateEnd(&stream) } }

    /// `input` compressed and sync-flushed, appended to `out`; false when zlib failed (the
    /// viewer is then dropped: its inflater could no longer follow the stream).
    func compress(_ input: [UInt8], into out: inout [UInt8]) -> Bool {
        guard ready else { return false }
        var chunk = [UInt8](repeating: 0, count: max(64, Int(deflateBound(&stream, uLong(input.count))) + 16))
        var ok = true
        input.withUnsafeBufferPointer { src in
            stream.next_in = UnsafeMutablePointer(mutating: src.baseAddress)
            stream.avail_in = uInt(src.count)
            repeat {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { dst in
                    stream.next_out = dst.baseAddress
                    stream.avail_out = uInt(dst.count)
                    let rc = deflate(&stream, Z_SYNC_FLUSH)
                    if rc != Z_OK && rc != Z_BUF_ERROR { ok = false }
                    return dst.count - Int(stream.avail_out)
                }
                out.append(contentsOf: chunk[0..<produced])
            } while ok && (stream.avail_in > 0 || stream.avail_out == 0)
            stream.next_in = nil
        }
        return ok
    }
}
