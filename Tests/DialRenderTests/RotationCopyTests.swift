import DialCore
@testable import KioskSeams
@testable import DialRender
import Testing

@Suite struct RotationCopyTests {
    /// A frame whose every pixel names its own position.
    private func numbered(width: Int, height: Int) -> PixelBuffer {
        var b = PixelBuffer(width: width, height: height)
        for y in 0..<height { for x in 0..<width { b[x, y] = UInt32(y << 12 | x) } }
        return b
    }

    @Test func knownCornersLandWhereTheyShould() {
        let src = numbered(width: 4, height: 3)
        let topLeft = src[0, 0], topRight = src[3, 0]
        let q = src.rotated(.quarter)            // 90 degrees clockwise: 3 x 4
        #expect(q.width == 3 && q.height == 4)
        #expect(q[2, 0] == topLeft)              // the top-left corner goes to the top-right
        #expect(q[2, 3] == topRight)             // the top-right corner goes to the bottom-right
        let h = src.rotated(.half)
        #expect(h[3, 2] == topLeft)
        #expect(h[0, 2] == topRight)
        let t = src.rotated(.threeQuarters)      // 270 degrees: top-left goes to bottom-left
        #expect(t[0, 3] == topLeft)
        #expect(t[0, 0] == topRight)
        #expect(src.rotated(.none).samePixels(as: src))
    }

    @Test(arguments: DisplayRotation.allCases)
    func everyPixelFollowsTheSharedMapping(rotation: DisplayRotation) {
        // Larger than one 64-pixel tile and odd-sized, so tile edges are exercised.
        let w = 131, h = 70
        let src = numbered(width: w, height: h)
        let (pw, ph) = rotation.swapsAxes ? (h, w) : (w, h)
        // A padded destination pre-filled with a sentinel: every visible pixel must be written
        // once with the mapped source pixel, and the padding never touched.
        var dst = PixelBuffer(width: pw, height: ph, stride: (pw + 5) * 4, fill: 0xDEAD_BEEF)
        dst.withFrameTarget { copy(src, to: $0, rotation: rotation) }
        for y in 0..<h {
            for x in 0..<w {
                let p = rotation.panelPixel(x: x, y: y, logicalWidth: w, logicalHeight: h)
                #expect(dst[p.x, p.y] == src[x, y])
            }
        }
        dst.withUnsafePixels { p in
            for y in 0..<ph { for x in pw..<(pw + 5) { #expect(p[y * dst.rowPitch + x] == 0xDEAD_BEEF) } }
        }
    }

    @Test(arguments: DisplayRotation.allCases)
    func dimmedCopyHalvesEveryChannelWhateverTheTargetHeld(rotation: DisplayRotation) {
        // Odd sizes and full-range channels, into a destination poisoned with all ones: the
        // result depends on the source alone, and the padding is never written.
        let w = 37, h = 21
        var src = PixelBuffer(width: w, height: h)
        for y in 0..<h { for x in 0..<w { src[x, y] = UInt32(truncatingIfNeeded: (x * 0x9E3779B1) ^ (y * 0x85EBCA77)) & 0xFFFFFF } }
        let (pw, ph) = rotation.swapsAxes ? (h, w) : (w, h)
        var dst = PixelBuffer(width: pw, height: ph, stride: (pw + 3) * 4, fill: 0xFFFF_FFFF)
        dst.withFrameTarget { copy(src, to: $0, rotation: rotation, dimmed: true) }
        for y in 0..<h {
            for x in 0..<w {
                let p = rotation.panelPixel(x: x, y: y, logicalWidth: w, logicalHeight: h)
                #expect(dst[p.x, p.y] == (src[x, y] >> 1) & 0x7F7F7F)
            }
        }
        dst.withUnsafePixels { p in
            for y in 0..<ph { for x in pw..<(pw + 3) { #expect(p[y * dst.rowPitch + x] == 0xFFFF_FFFF) } }
        }
    }

    @Test func turningFourQuartersIsIdentity() {
        let src = numbered(width: 97, height: 65)
        let back = src.rotated(.quarter).rotated(.quarter).rotated(.quarter).rotated(.quarter)
        #expect(back.samePixels(as: src))
        #expect(src.rotated(.quarter).rotated(.threeQuarters).samePixels(as: src))
    }
}
