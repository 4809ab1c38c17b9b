import CZlib
import DialRender
import KioskSeams
import Testing
@testable import RemoteView

/// One viewer's inflater, as a client keeps one per zlib stream.
final class Inflater {
    private var stream = z_stream()
    init() { _ = inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) }
    deinit { inflateEnd(&stream) }

    /// Exactly what `data` inflates to (at most `capacity` bytes).
    func inflate(_ data: ArraySlice<UInt8>, capacity: Int = 1 << 20) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: capacity)
        let input = Array(data)
        var produced = 0
        input.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                stream.next_in = UnsafeMutablePointer(mutating: src.baseAddress)
                stream.avail_in = uInt(src.count)
                stream.next_out = dst.baseAddress
                stream.avail_out = uInt(dst.count)
                _ = CZlib.inflate(&stream, Z_SYNC_FLUSH)
                produced = dst.count - Int(stream.avail_out)
            }
        }
        return Array(out[..<produced])
    }

    /// `expected` bytes: what `data` inflates to, zero-filled past its end.
    func inflate(_ data: ArraySlice<UInt8>, expected: Int) -> [UInt8] {
        let plain = inflate(data, capacity: expected)
        return plain + [UInt8](repeating: 0, count: expected - plain.count)
    }
}

func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
func u32(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }

/// A frame with flat areas and noise, so both solid and plain tiles occur.
func testFrame(width: Int, height: Int) -> PixelBuffer {
    var f = PixelBuffer(width: width, height: height, fill: 0x203040)
    var seed: UInt32 = 7
    for y in 0..<height / 2 {
        for x in 0..<width {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            f[x, y] = seed >> 8
        }
    }
    return f
}

/// Decodes one FramebufferUpdate of ZRLE or Tight (as the encoder writes them, 3-byte pixels)
/// or raw into `into`; returns bytes used.
func decodeUpdate(_ b: [UInt8], into f: inout PixelBuffer, zrle: Inflater, tight: Inflater) -> Int {
    #expect(b[0] == 0)
    let count = u16(b, 2)
    var i = 4
    for _ in 0..<count {
        let x = u16(b, i), y = u16(b, i + 2), w = u16(b, i + 4), h = u16(b, i + 6)
        let enc = Int32(bitPattern: UInt32(u32(b, i + 8)))
        i += 12
        func rgb(_ p: [UInt8], _ k: Int) -> UInt32 { UInt32(p[k]) << 16 | UInt32(p[k + 1]) << 8 | UInt32(p[k + 2]) }
        switch enc {
        case 0:
            for yy in 0..<h { for xx in 0..<w { f[x + xx, y + yy] = UInt32(u32([b[i + 3], b[i + 2], b[i + 1], b[i]], 0)) & 0xFFFFFF; i += 4 } }
        case 16:
            let n = u32(b, i)
            i += 4
            let plain = zrle.inflate(b[i..<(i + n)], expected: w * h * 3 + ((w + 63) / 64) * ((h + 63) / 64))
            i += n
            var k = 0
            for ty in stride(from: 0, to: h, by: 64) {
                for tx in stride(from: 0, to: w, by: 64) {
                    let sub = plain[k]; k += 1
                    for yy in ty..<min(h, ty + 64) {
                        for xx in tx..<min(w, tx + 64) {
                            if sub == 1 { f[x + xx, y + yy] = rgb(plain, k) } else { f[x + xx, y + yy] = rgb(plain, k); k += 3 }
                        }
                    }
                    if sub == 1 { k += 3 }
                }
            }
        case 7:
            let control = b[i]; i += 1
            func tp(_ k: Int) -> UInt32 { UInt32(b[k]) << 16 | UInt32(b[k + 1]) << 8 | UInt32(b[k + 2]) }
            if control == 0x80 {
                for yy in 0..<h { for xx in 0..<w { f[x + xx, y + yy] = tp(i) } }
                i += 3
            } else {
                #expect(control == 0)
                let size = w * h * 3
                var data: [UInt8]
                if size < 12 { data = Array(b[i..<(i + size)]); i += size } else {
                    var n = Int(b[i] & 0x7F); var shift = 7
                    if b[i] & 0x80 != 0 { i += 1; n |= Int(b[i] & 0x7F) << shift; shift += 7
                        if b[i] & 0x80 != 0 { i += 1; n |= Int(b[i]) << shift } }
                    i += 1
                    data = tight.inflate(b[i..<(i + n)], expected: size)
                    i += n
                }
                var k = 0
                for yy in 0..<h { for xx in 0..<w { f[x + xx, y + yy] = UInt32(data[k]) << 16 | UInt32(data[k + 1]) << 8 | UInt32(data[k + 2]); k += 3 } }
            }
        default:
            Issue.record("encoding \(enc)")
        }
    }
    return i
}

@Suite struct EncoderTests {
    func roundTrip(_ encoding: [UInt8], _ expectEncoding: Encoding) {
        let frame = testFrame(width: 300, height: 200)
        let s = readySession(width: 300, height: 200)
        // noVNC's and vncdotool's format: 32 bpp, depth 24, little-endian, red at bit 0.
        _ = s.receive([0, 0, 0, 0, 32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 0, 8, 16, 0, 0, 0])
        _ = s.receive(ArraySlice([2, 0, 0, 1] + encoding))
        #expect(s.encoding == expectEncoding)
        let zrle = Inflater(), tight = Inflater()
        var seen = PixelBuffer(width: 300, height: 200, fill: 0xFF00FF)
        _ = s.receive(ArraySlice(updateRequest(incremental: false, w: 300, h: 200)))
        s.updateIfDue(frame, now: 1, minimumInterval: 0)
        var out = bytes(s)
        #expect(decodeUpdate(out, into: &seen, zrle: zrle, tight: tight) == out.count)
        s.consumed(out.count)
        #expect(seen.samePixels(as: frame))
        // A second, incremental update on the same zlib streams.
        var next = frame
        for y in 100..<140 { for x in 20..<90 { next[x, y] = UInt32(x * y) & 0xFFFFFF } }
        s.damaged([PixelRect(x0: 20, y0: 100, x1: 90, y1: 140)])
        _ = s.receive(ArraySlice(updateRequest(incremental: true, w: 300, h: 200)))
        s.updateIfDue(next, now: 2, minimumInterval: 0)
        out = bytes(s)
        #expect(decodeUpdate(out, into: &seen, zrle: zrle, tight: tight) == out.count)
        #expect(seen.samePixels(as: next))
    }

    @Test func zrleRoundTrips() { roundTrip([0, 0, 0, 16], .zrle) }
    @Test func tightRoundTrips() { roundTrip([0, 0, 0, 7], .tight) }

    @Test func rawInTheNativeFormatIsTheFramesBytes() {
        let frame = testFrame(width: 40, height: 30)
        let s = readySession(width: 40, height: 30)
        _ = s.receive(ArraySlice(updateRequest(incremental: false, w: 40, h: 30)))
        s.updateIfDue(frame, now: 1, minimumInterval: 0)
        var seen = PixelBuffer(width: 40, height: 30)
        let out = bytes(s)
        #expect(decodeUpdate(out, into: &seen, zrle: Inflater(), tight: Inflater()) == out.count)
        #expect(seen.samePixels(as: frame))
    }

    @Test func anUpdateIsEncodedOverTurnsWithinTheBudget() {
        let frame = testFrame(width: 300, height: 200)
        let s = readySession(width: 300, height: 200)
        _ = s.receive([0, 0, 0, 0, 32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 0, 8, 16, 0, 0, 0])
        _ = s.receive([2, 0, 0, 1, 0, 0, 0, 7])
        _ = s.receive(ArraySlice(updateRequest(incremental: false, w: 300, h: 200)))
        var turns = 0
        repeat {
            s.updateIfDue(frame, now: 1, minimumInterval: 0, budget: 10_000)
            turns += 1
        } while s.isEncoding && turns < 100
        // 60,000 pixels in pieces of at most 256x256 at 10,000 a turn: more than one turn.
        #expect(turns > 1 && !s.isEncoding)
        var seen = PixelBuffer(width: 300, height: 200)
        let out = bytes(s)
        #expect(decodeUpdate(out, into: &seen, zrle: Inflater(), tight: Inflater()) == out.count)
        #expect(seen.samePixels(as: frame))
    }

    @Test func compactLengths() {
        var out: [UInt8] = []
        appendCompactLength(100, to: &out)
        appendCompactLength(10_000, to: &out)
        appendCompactLength(3_000_000, to: &out)
        #expect(out == [100, 0x90, 0x4E, 0xC0, 0x8D, 0xB7])
    }
}
