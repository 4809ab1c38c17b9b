import CZlib
import DialRender
import KioskSeams
import Testing
@testable import RemoteView

/// A strict reader of FramebufferUpdates as a viewer parses them with the pixel format and
/// encoding it asked for: it counts the rectangles announced, reads each one's bytes exactly
/// (Tight's and ZRLE's compressed data inflated and walked), and fails on anything else.
struct StrictUpdateReader {
    let zrle = Inflater()
    let tight = Inflater()

    enum Failure: Error, Equatable { case short, notAnUpdate, encoding(Int32), size(Int), tightControl(UInt8), leftOver(Int) }

    /// Reads one update from the whole of `b`: its rectangle count; throws unless every byte is
    /// exactly one of its rectangles'.
    func read(_ b: [UInt8], bitsPerPixel: Int, encoding: Int32) throws -> Int {
        let bpp = bitsPerPixel / 8
        // 32-bit true colour of depth 24 sends three bytes a pixel in ZRLE (CPIXEL) and Tight (TPIXEL).
        let packed = bitsPerPixel == 32 ? 3 : bpp
        var i = 0
        func need(_ n: Int) throws { if i + n > b.count { throw Failure.short } }
        try need(4)
        guard b[0] == 0, b[1] == 0 else { throw Failure.notAnUpdate }
        let count = u16(b, 2)
        i = 4
        for _ in 0..<count {
            try need(12)
            let w = u16(b, i + 4), h = u16(b, i + 6)
            let enc = Int32(bitPattern: UInt32(u32(b, i + 8)))
            i += 12
            guard enc == encoding else { throw Failure.encoding(enc) }
            switch enc {
            case 0:
                try need(w * h * bpp)
                i += w * h * bpp
            case 16:
                try need(4)
                let n = u32(b, i)
                i += 4
                try need(n)
                let plain = zrle.inflate(b[i..<(i + n)])
                i += n
                var k = 0
                for ty in stride(from: 0, to: h, by: 64) {
                    for tx in stride(from: 0, to: w, by: 64) {
                        guard k < plain.count else { throw Failure.size(plain.count) }
                        let sub = plain[k]
                        k += 1 + (sub == 1 ? packed : min(64, w - tx) * min(64, h - ty) * packed)
                        guard sub <= 1 else { throw Failure.size(Int(sub)) }
                    }
                }
                guard k == plain.count else { throw Failure.size(plain.count - k) }
            case 7:
                guard w <= 2048 else { throw Failure.size(w) }
                try need(1)
                let control = b[i]
                i += 1
                if control == 0x80 {
                    try need(packed)
                    i += packed
                } else {
                    guard control == 0 else { throw Failure.tightControl(control) }
                    let size = w * h * packed
                    if size < 12 {
                        try need(size)
                        i += size
                    } else {
                        var n = 0, shift = 0
                        for _ in 0..<3 {
                            try need(1)
                            let byte = b[i]
                            i += 1
                            n |= Int(byte & (shift == 14 ? 0xFF : 0x7F)) << shift
                            shift += 7
                            if byte & 0x80 == 0 || shift > 14 { break }
                        }
                        try need(n)
                        let data = tight.inflate(b[i..<(i + n)])
                        i += n
                        guard data.count == size else { throw Failure.size(data.count) }
                    }
                }
            default:
                throw Failure.encoding(enc)
            }
        }
        guard i == b.count else { throw Failure.leftOver(b.count - i) }
        return count
    }
}

@Suite struct RFBDesyncTests {
    static let formats: [(bits: Int, message: [UInt8])] = [
        (32, [0, 0, 0, 0, 32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 16, 8, 0, 0, 0, 0]),
        (16, [0, 0, 0, 0, 16, 16, 0, 1, 0, 31, 0, 63, 0, 31, 11, 5, 0, 0, 0, 0]),
    ]
    static let encodings: [Int32] = [0, 7, 16]

    func setEncodings(_ e: Int32) -> [UInt8] {
        let v = UInt32(bitPattern: e)
        return [2, 0, 0, 1, UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    /// A viewer that switches encoding (raw, Tight, ZRLE) and pixel format (32 and 16 bits)
    /// while each update is being encoded, 10,000 times: every update reads exactly with what
    /// it asked for before the update began. 300 pixels wide, so raw's bands are wider than
    /// Tight's 256-pixel pieces: an update planned for one and encoded as the other would
    /// carry more rectangles than it announced.
    @Test func switchingEncodingAndFormatMidUpdateNeverDesyncs() throws {
        let width = 300, height = 66
        var frame = PixelBuffer(width: width, height: height, fill: 0x203040)
        let s = readySession(width: width, height: height)
        let reader = StrictUpdateReader()
        var format = Self.formats[0], encoding = Self.encodings[0]
        _ = s.receive(ArraySlice(format.message))
        _ = s.receive(ArraySlice(setEncodings(encoding)))
        var seed: UInt32 = 1
        for n in 0..<10_000 {
            // Something changes in every update (a few pixels), so Tight's fills and plain
            // pieces both occur.
            seed = seed &* 1_664_525 &+ 1_013_904_223
            frame[Int(seed >> 8) % width, Int(seed >> 20) % height] = seed
            s.damaged(nil)
            _ = s.receive(ArraySlice(updateRequest(incremental: true, w: width, h: height)))
            s.updateIfDue(frame, now: Double(n), minimumInterval: 0, budget: 1)
            #expect(s.isEncoding, "update \(n) takes more than one turn")
            let (startFormat, startEncoding) = (format, encoding)
            format = Self.formats[(n / 3 + 1) % 2]
            encoding = Self.encodings[(n + 1) % 3]
            _ = s.receive(ArraySlice(setEncodings(encoding) + format.message))
            var turns = 0
            while s.isEncoding && turns < 100 {
                s.updateIfDue(frame, now: Double(n), minimumInterval: 0, budget: 1)
                turns += 1
            }
            let out = bytes(s)
            s.consumed(s.pendingOutput)
            do {
                let count = try reader.read(out, bitsPerPixel: startFormat.bits, encoding: startEncoding)
                #expect(count >= 2)
            } catch {
                Issue.record("update \(n) (\(startEncoding), \(startFormat.bits) bits) does not parse: \(error)")
                return
            }
        }
    }
}
