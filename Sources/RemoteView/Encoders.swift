import DialRender
import KioskSeams

/// The encodings this server speaks (RFC 6143 7.7), in the numbers SetEncodings carries.
package enum Encoding: Int32, Sendable {
    case raw = 0
    /// zlib over 64x64 tiles, each solid or plain (what vncdotool and TigerVNC decode).
    case zrle = 16
    /// Tight's fill and basic zlib compression (what noVNC and TigerVNC decode).
    case tight = 7
    /// Pseudo-encoding: the viewer follows a new framebuffer size.
    case desktopSize = -223
}

/// Writes rectangles of the view's frame in one viewer's pixel format and encoding; holds the
/// viewer's zlib streams (they live as long as the connection).
final class RectangleEncoder {
    private let zrleStream = Deflater()
    private let tightStream = Deflater()
    /// False once zlib failed: the viewer cannot follow the stream any more.
    private(set) var healthy = true

    /// Appends `rect` of `frame` to `out` as one or more rectangles; returns how many.
    func encode(_ rect: PixelRect, of frame: PixelBuffer, format: PixelFormat, encoding: Encoding, into out: inout [UInt8]) -> Int {
        switch encoding {
        case .zrle:
            header(rect, encoding: .zrle, into: &out)
            zrle(rect, frame, format, into: &out)
            return 1
        case .tight:
            return tight(rect, frame, format, into: &out)
        case .raw, .desktopSize:
            header(rect, encoding: .raw, into: &out)
            out.reserveCapacity(out.count + rect.area * format.bytesPerPixel)
            frame.withUnsafePixels { px in
                for y in rect.y0..<rect.y1 {
                    let row = px + y * frame.rowPitch
                    for x in rect.x0..<rect.x1 { format.append(row[x], to: &out) }
                }
            }
            return 1
        }
    }

    func header(_ r: PixelRect, encoding: Encoding, into out: inout [UInt8]) {
        for v in [r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0] { appendU16(v, to: &out) }
        appendU32(UInt32(bitPattern: encoding.rawValue), to: &out)
    }

    /// ZRLE (RFC 6143 7.7.6): tiles of 64x64, left to right, top to bottom; a tile of one colour
    /// is sent as that colour (subencoding 1), any other as plain pixels (subencoding 0); all
    /// through the connection's one zlib stream, behind the compressed length.
    private func zrle(_ r: PixelRect, _ frame: PixelBuffer, _ format: PixelFormat, into out: inout [UInt8]) {
        var plain: [UInt8] = []
        plain.reserveCapacity(r.area * 3 + 64)
        let cpixel = format.compressedPixel
        var scratch: [UInt8] = []
        let littleThree = cpixel == .firstThree && !format.bigEndian && format.bitsPerPixel == 32
        func put(_ p: UInt32) {
            if littleThree {
                // The usual case (noVNC's and vncdotool's format): the value's low three bytes.
                let v = format.value(p)
                plain.append(UInt8(truncatingIfNeeded: v)); plain.append(UInt8(truncatingIfNeeded: v >> 8))
                plain.append(UInt8(truncatingIfNeeded: v >> 16))
                return
            }
            scratch.removeAll(keepingCapacity: true)
            format.append(p, to: &scratch)
            switch cpixel {
            case .whole: plain.append(contentsOf: scratch)
            case .firstThree: plain.append(contentsOf: scratch[0..<3])
            case .lastThree: plain.append(contentsOf: scratch[1..<4])
            }
        }
        frame.withUnsafePixels { px in
            var ty = r.y0
            while ty < r.y1 {
                let th = min(64, r.y1 - ty)
                var tx = r.x0
                while tx < r.x1 {
                    let tw = min(64, r.x1 - tx)
                    if let colour = solid(px, frame.rowPitch, x: tx, y: ty, w: tw, h: th) {
                        plain.append(1)
                        put(colour)
                    } else {
                        plain.append(0)
                        for y in ty..<(ty + th) {
                            let row = px + y * frame.rowPitch
                            for x in tx..<(tx + tw) { put(row[x]) }
                        }
                    }
                    tx += tw
                }
                ty += th
            }
        }
        var packed: [UInt8] = []
        if !zrleStream.compress(plain, into: &packed) { healthy = false }
        appendU32(UInt32(packed.count), to: &out)
        out.append(contentsOf: packed)
    }

    /// Tight: pieces of at most 256x256 pixels (its limits are 2048 wide, 64 KiB of pixels per
    /// zlib call); a piece of one colour is a fill, any other basic compression on stream 0
    /// without a filter. Returns the number of pieces.
    private func tight(_ r: PixelRect, _ frame: PixelBuffer, _ format: PixelFormat, into out: inout [UInt8]) -> Int {
        var count = 0
        var scratch: [UInt8] = []
        func tpixel(_ p: UInt32, _ data: inout [UInt8]) {
            if format.tightThreeBytes {
                data.append(UInt8((p >> 16) & 0xFF)); data.append(UInt8((p >> 8) & 0xFF)); data.append(UInt8(p & 0xFF))
            } else {
                format.append(p, to: &data)
            }
        }
        frame.withUnsafePixels { px in
            var y0 = r.y0
            while y0 < r.y1 {
                let h = min(256, r.y1 - y0)
                var x0 = r.x0
                while x0 < r.x1 {
                    let w = min(256, r.x1 - x0)
                    let piece = PixelRect(x0: x0, y0: y0, x1: x0 + w, y1: y0 + h)
                    header(piece, encoding: .tight, into: &out)
                    count += 1
                    if let colour = solid(px, frame.rowPitch, x: x0, y: y0, w: w, h: h) {
                        out.append(0x80)
                        tpixel(colour, &out)
                    } else {
                        out.append(0x00)
                        scratch.removeAll(keepingCapacity: true)
                        for y in y0..<(y0 + h) {
                            let row = px + y * frame.rowPitch
                            for x in x0..<(x0 + w) { tpixel(row[x], &scratch) }
                        }
                        if scratch.count < 12 {
                            out.append(contentsOf: scratch)
                        } else {
                            var packed: [UInt8] = []
                            if !tightStream.compress(scratch, into: &packed) { healthy = false }
                            appendCompactLength(packed.count, to: &out)
                            out.append(contentsOf: packed)
                        }
                    }
                    x0 += w
                }
                y0 += h
            }
        }
        return count
    }

    /// The colour of a tile when all its pixels have it.
    private func solid(_ px: UnsafePointer<UInt32>, _ pitch: Int, x: Int, y: Int, w: Int, h: Int) -> UInt32? {
        let first = px[y * pitch + x] & 0xFF_FFFF
        for yy in y..<(y + h) {
            let row = px + yy * pitch
            for xx in x..<(x + w) where row[xx] & 0xFF_FFFF != first { return nil }
        }
        return first
    }
}

/// Tight's compact length: 7 bits a byte, low first, at most 3 bytes (22 bits).
func appendCompactLength(_ n: Int, to out: inout [UInt8]) {
    if n < 0x80 { out.append(UInt8(n)); return }
    out.append(UInt8(n & 0x7F) | 0x80)
    if n < 0x4000 { out.append(UInt8(n >> 7)); return }
    out.append(UInt8((n >> 7) & 0x7F) | 0x80)
    out.append(UInt8(n >> 14))
}

func appendU16(_ v: Int, to out: inout [UInt8]) {
    out.append(UInt8((v >> 8) & 0xFF)); out.append(UInt8(v & 0xFF))
}

func appendU32(_ v: UInt32, to out: inout [UInt8]) {
    out.append(UInt8(v >> 24)); out.append(UInt8((v >> 16) & 0xFF)); out.append(UInt8((v >> 8) & 0xFF)); out.append(UInt8(v & 0xFF))
}
