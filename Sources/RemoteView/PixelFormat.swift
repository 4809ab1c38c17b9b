/// An RFB pixel format (RFC 6143 7.4): how a viewer wants pixels laid out on the wire. Only
/// true-colour formats are served; a colour map is refused.
package struct PixelFormat: Sendable, Equatable {
    package var bitsPerPixel: UInt8
    package var depth: UInt8
    package var bigEndian: Bool
    package var trueColour: Bool
    package var redMax: UInt16, greenMax: UInt16, blueMax: UInt16
    package var redShift: UInt8, greenShift: UInt8, blueShift: UInt8

    package init(bitsPerPixel: UInt8, depth: UInt8, bigEndian: Bool, trueColour: Bool,
                redMax: UInt16, greenMax: UInt16, blueMax: UInt16, redShift: UInt8, greenShift: UInt8, blueShift: UInt8) {
        self.bitsPerPixel = bitsPerPixel
        self.depth = depth
        self.bigEndian = bigEndian
        self.trueColour = trueColour
        self.redMax = redMax
        self.greenMax = greenMax
        self.blueMax = blueMax
        self.redShift = redShift
        self.greenShift = greenShift
        self.blueShift = blueShift
    }

    /// The painter's own layout, XRGB8888 little-endian: what ServerInit announces, and raw
    /// rectangles in it are the frame's bytes as they are.
    package static let native = PixelFormat(bitsPerPixel: 32, depth: 24, bigEndian: false, trueColour: true,
                                           redMax: 255, greenMax: 255, blueMax: 255, redShift: 16, greenShift: 8, blueShift: 0)

    /// The 16 bytes of the wire format.
    package var bytes: [UInt8] {
        [bitsPerPixel, depth, bigEndian ? 1 : 0, trueColour ? 1 : 0,
         UInt8(redMax >> 8), UInt8(redMax & 0xFF), UInt8(greenMax >> 8), UInt8(greenMax & 0xFF),
         UInt8(blueMax >> 8), UInt8(blueMax & 0xFF), redShift, greenShift, blueShift, 0, 0, 0]
    }

    /// Parses the 16 wire bytes; nil for a format this server does not produce (a colour map, a
    /// size other than 8, 16 or 32 bits, a shift past the pixel).
    package init?(wire b: ArraySlice<UInt8>) {
        guard b.count >= 16 else { return nil }
        let i = b.startIndex
        func u16(_ k: Int) -> UInt16 { UInt16(b[i + k]) << 8 | UInt16(b[i + k + 1]) }
        self.init(bitsPerPixel: b[i], depth: b[i + 1], bigEndian: b[i + 2] != 0, trueColour: b[i + 3] != 0,
                  redMax: u16(4), greenMax: u16(6), blueMax: u16(8), redShift: b[i + 10], greenShift: b[i + 11], blueShift: b[i + 12])
        guard trueColour, [8, 16, 32].contains(bitsPerPixel),
              redShift < bitsPerPixel, greenShift < bitsPerPixel, blueShift < bitsPerPixel,
              redMax > 0, greenMax > 0, blueMax > 0 else { return nil }
    }

    package var bytesPerPixel: Int { Int(bitsPerPixel) / 8 }

    /// The wire value of an XRGB8888 pixel.
    @inline(__always)
    func value(_ p: UInt32) -> UInt32 {
        if self == .native { return p & 0xFF_FFFF }
        let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
        return ((r * UInt32(redMax) + 127) / 255) << redShift
            | ((g * UInt32(greenMax) + 127) / 255) << greenShift
            | ((b * UInt32(blueMax) + 127) / 255) << blueShift
    }

    /// Appends one pixel as the viewer reads it (bytesPerPixel bytes in its byte order).
    @inline(__always)
    func append(_ p: UInt32, to out: inout [UInt8]) {
        let v = value(p)
        switch bitsPerPixel {
        case 8:
            out.append(UInt8(truncatingIfNeeded: v))
        case 16:
            if bigEndian { out.append(UInt8(truncatingIfNeeded: v >> 8)); out.append(UInt8(truncatingIfNeeded: v)) }
            else { out.append(UInt8(truncatingIfNeeded: v)); out.append(UInt8(truncatingIfNeeded: v >> 8)) }
        default:
            if bigEndian {
                out.append(UInt8(truncatingIfNeeded: v >> 24)); out.append(UInt8(truncatingIfNeeded: v >> 16))
                out.append(UInt8(truncatingIfNeeded: v >> 8)); out.append(UInt8(truncatingIfNeeded: v))
            } else {
                out.append(UInt8(truncatingIfNeeded: v)); out.append(UInt8(truncatingIfNeeded: v >> 8))
                out.append(UInt8(truncatingIfNeeded: v >> 16)); out.append(UInt8(truncatingIfNeeded: v >> 24))
            }
        }
    }

    /// ZRLE's compressed pixel (RFC 6143 7.7.6): 3 bytes when a 32-bit true-colour pixel's
    /// colour fits in its low or its high three bytes, otherwise the whole pixel.
    var compressedPixel: CompressedPixel {
        guard bitsPerPixel == 32, depth <= 24 else { return .whole }
        let mask = (UInt32(redMax) << redShift) | (UInt32(greenMax) << greenShift) | (UInt32(blueMax) << blueShift)
        if mask & 0xFF00_0000 == 0 { return bigEndian ? .lastThree : .firstThree }
        if mask & 0x0000_00FF == 0 { return bigEndian ? .firstThree : .lastThree }
        return .whole
    }

    enum CompressedPixel { case whole, firstThree, lastThree }

    /// Tight's TPIXEL is three bytes R, G, B when the format is 32-bit, depth 24, 8 bits a channel.
    var tightThreeBytes: Bool {
        bitsPerPixel == 32 && depth == 24 && redMax == 255 && greenMax == 255 && blueMax == 255
    }
}
