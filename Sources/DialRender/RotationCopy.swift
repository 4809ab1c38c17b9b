import DialCore
import KioskSeams

/// Copies the finished logical frame `src` into `dst` (the scanout buffer, `rotation`'s panel
/// size), turning it as `DisplayRotation.panelPixel` says, and with `dimmed` every channel
/// halved (the idle screen's dim look). With `damage` (logical rectangles, best disjoint:
/// `Damage.union`) only those pixels are written, nil writes all of them. Every written pixel
/// is written once per rectangle and the destination is never read: dumb buffers are often
/// write-combined, where reads are an order of magnitude slower, so dimming happens here, on
/// the way in, not on the scanout buffer.
///
/// 0 degrees is one memcpy per row; 180 degrees walks each source row backwards; 90 and 270 are
/// a transpose in strips of 16 panel columns (one cache line per panel row), 4x4 blocks at a time.
public func copy(_ src: PixelBuffer, to dst: FrameTarget, rotation: DisplayRotation, dimmed: Bool = false,
                 damage: [PixelRect]? = nil) {
    let w = src.width, h = src.height
    let expected = rotation.swapsAxes ? (h, w) : (w, h)
    precondition(dst.width == expected.0 && dst.height == expected.1,
                 "destination is \(dst.width)x\(dst.height), rotation \(rotation.degrees) needs \(expected.0)x\(expected.1)")
    precondition(dst.stride >= dst.width * 4 && dst.stride % 4 == 0, "destination stride too small")
    for rect in damage ?? [PixelRect(x0: 0, y0: 0, x1: w, y1: h)] {
        // Clipped once here: the row loops below stay inside both buffers by construction.
        let r = rect.clipped(width: w, height: h)
        guard !r.isEmpty else { continue }
        if dimmed {
            copy(src, to: dst, r, rotation: rotation, Halve.self)
        } else {
            copy(src, to: dst, r, rotation: rotation, Keep.self)
        }
    }
}

/// What the copy does to each pixel, chosen at compile time so the plain copy stays a memcpy.
private protocol PixelMap {
    static var isIdentity: Bool { get }
    static func map(_ p: UInt32) -> UInt32
    static func map(_ v: SIMD4<UInt32>) -> SIMD4<UInt32>
}

private enum Keep: PixelMap {
    static var isIdentity: Bool { true }
    @inline(__always) static func map(_ p: UInt32) -> UInt32 { p }
    @inline(__always) static func map(_ v: SIMD4<UInt32>) -> SIMD4<UInt32> { v }
}

/// Halves every channel: one shift and mask per pixel (the dim look: readable at a quarter of
/// the light output on a typical panel gamma).
private enum Halve: PixelMap {
    static var isIdentity: Bool { false }
    @inline(__always) static func map(_ p: UInt32) -> UInt32 { (p >> 1) & 0x007F_7F7F }
    @inline(__always) static func map(_ v: SIMD4<UInt32>) -> SIMD4<UInt32> {
        (v &>> 1) & SIMD4(repeating: 0x007F_7F7F)
    }
}

/// Copies the logical rectangle `r` (already inside the source) to where it lands on the panel.
@inline(__always)
private func copy<M: PixelMap>(_ src: PixelBuffer, to dst: FrameTarget, _ r: PixelRect, rotation: DisplayRotation,
                               _ m: M.Type) {
    let w = src.width, h = src.height
    let sp = src.rowPitch
    let dp = dst.stride / 4
    let d = dst.base.assumingMemoryBound(to: UInt32.self)
    let p = rotation.panelRect(r, logicalWidth: w, logicalHeight: h)
    let count = r.x1 - r.x0
    src.withUnsafePixels { s in
        switch rotation {
        case .none:
            for y in r.y0..<r.y1 {
                let srow = s + y * sp + r.x0, drow = d + y * dp + r.x0
                if M.isIdentity {
                    drow.update(from: srow, count: count)
                } else {
                    for x in 0..<count { drow[x] = M.map(srow[x]) }
                }
            }
        case .half:
            for py in p.y0..<p.y1 {
                // Panel (px, py) shows logical (w - 1 - px, h - 1 - py).
                let srow = s + (h - 1 - py) * sp + (w - 1 - p.x0)
                let drow = d + py * dp + p.x0
                for k in 0..<count { drow[k] = M.map(srow[-k]) }
            }
        case .quarter:
            // Panel (px, py) shows logical (x: py, y: h - 1 - px): panel column px is source row
            // h - 1 - px, read left to right from x0 as py grows from p.y0.
            strips(p.x0, p.x1) { px0, px1 in
                transposeStrip(rows: { s + (h - 1 - px0 - $0) * sp + r.x0 }, width: px1 - px0,
                               to: d + p.y0 * dp + px0, pitch: dp, count: count, reversed: false, M.self)
            }
        case .threeQuarters:
            // Panel (px, py) shows logical (x: w - 1 - py, y: px): panel column px is source row
            // px, read right to left from x1 - 1 as py grows from p.y0.
            strips(p.x0, p.x1) { px0, px1 in
                transposeStrip(rows: { s + (px0 + $0) * sp + r.x0 }, width: px1 - px0,
                               to: d + p.y0 * dp + px0, pitch: dp, count: count, reversed: true, M.self)
            }
        }
    }
}

/// Width of a strip of panel columns: 16 pixels are one 64-byte cache line of the destination,
/// so every destination line is filled by one pass, while the 16 source rows it reads from
/// stream sequentially (a pattern hardware prefetchers follow).
private let stripWidth = 16

/// Calls `body` for each strip [px0, px1) of panel columns in [from, to), the strips aligned
/// to multiples of `stripWidth` so that a full strip fills whole cache lines.
@inline(__always)
private func strips(_ from: Int, _ to: Int, _ body: (Int, Int) -> Void) {
    var px0 = from
    while px0 < to {
        let px1 = min(to, (px0 / stripWidth + 1) * stripWidth)
        body(px0, px1)
        px0 = px1
    }
}

/// Writes `count` panel rows of a strip `width` columns wide: panel row `py`, strip column `k`
/// gets pixel `py` (or `count - 1 - py` when `reversed`) of source row `rows(k)`. Full strips go
/// in 4x4 blocks: four 16-byte loads from four source rows, a register transpose, four 16-byte
/// stores into four panel rows.
@inline(__always)
private func transposeStrip<M: PixelMap>(rows: (Int) -> UnsafePointer<UInt32>, width: Int, to dst: UnsafeMutablePointer<UInt32>,
                                         pitch: Int, count: Int, reversed: Bool, _ m: M.Type) {
    typealias V = SIMD4<UInt32>
    var py = 0
    if width == stripWidth {
        let r0 = rows(0), r1 = rows(1), r2 = rows(2), r3 = rows(3), r4 = rows(4), r5 = rows(5), r6 = rows(6), r7 = rows(7)
        let r8 = rows(8), r9 = rows(9), r10 = rows(10), r11 = rows(11), r12 = rows(12), r13 = rows(13), r14 = rows(14)
        let r15 = rows(15)
        while py + 4 <= count {
            // The four source pixels for panel rows py...py+3, in source order. All sixteen
            // vectors are formed first so that each panel row's 64-byte line is then written
            // in one run of four stores: write-combining buffers flush whole lines, and a line
            // written in pieces between other rows' stores may be flushed partial.
            let x = reversed ? count - 4 - py : py
            let g0 = quad(r0, r1, r2, r3, x, reversed, M.self), g1 = quad(r4, r5, r6, r7, x, reversed, M.self)
            let g2 = quad(r8, r9, r10, r11, x, reversed, M.self), g3 = quad(r12, r13, r14, r15, x, reversed, M.self)
            let row = dst + py * pitch
            line(row, g0.0, g1.0, g2.0, g3.0)
            line(row + pitch, g0.1, g1.1, g2.1, g3.1)
            line(row + 2 * pitch, g0.2, g1.2, g2.2, g3.2)
            line(row + 3 * pitch, g0.3, g1.3, g2.3, g3.3)
            py += 4
        }
    }
    // Narrow last strip and the last rows: one pixel at a time.
    while py < count {
        let i = reversed ? count - 1 - py : py
        let out = dst + py * pitch
        for k in 0..<width { out[k] = M.map(rows(k)[i]) }
        py += 1
    }
}

extension PixelBuffer {
    /// This frame turned by `rotation`, in a new buffer of the panel's size (for PNG previews
    /// and tests; the kiosk copies straight into the scanout buffer with `copy(_:to:rotation:)`).
    public func rotated(_ rotation: DisplayRotation) -> PixelBuffer {
        let size = rotation.swapsAxes ? (height, width) : (width, height)
        var out = PixelBuffer(width: size.0, height: size.1)
        out.withFrameTarget { copy(self, to: $0, rotation: rotation) }
        return out
    }
}

/// A 4x4 block turned: four 16-byte loads at `x` of four source rows, returned as the four
/// panel rows' vectors (panel row j holds lane j, or lane 3 - j when `reversed`, of each row).
@inline(__always)
private func quad<M: PixelMap>(_ ra: UnsafePointer<UInt32>, _ rb: UnsafePointer<UInt32>, _ rc: UnsafePointer<UInt32>,
                               _ rd: UnsafePointer<UInt32>, _ x: Int, _ reversed: Bool,
                               _ m: M.Type) -> (SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>) {
    typealias V = SIMD4<UInt32>
    let a = UnsafeRawPointer(ra + x).loadUnaligned(as: V.self)
    let b = UnsafeRawPointer(rb + x).loadUnaligned(as: V.self)
    let c = UnsafeRawPointer(rc + x).loadUnaligned(as: V.self)
    let e = UnsafeRawPointer(rd + x).loadUnaligned(as: V.self)
    let t0 = M.map(V(a[0], b[0], c[0], e[0])), t1 = M.map(V(a[1], b[1], c[1], e[1]))
    let t2 = M.map(V(a[2], b[2], c[2], e[2])), t3 = M.map(V(a[3], b[3], c[3], e[3]))
    return reversed ? (t3, t2, t1, t0) : (t0, t1, t2, t3)
}

/// One 64-byte panel line of a strip, written front to back.
@inline(__always)
private func line(_ row: UnsafeMutablePointer<UInt32>, _ v0: SIMD4<UInt32>, _ v1: SIMD4<UInt32>,
                  _ v2: SIMD4<UInt32>, _ v3: SIMD4<UInt32>) {
    let p = UnsafeMutableRawPointer(row)
    p.storeBytes(of: v0, as: SIMD4<UInt32>.self)
    p.storeBytes(of: v1, toByteOffset: 16, as: SIMD4<UInt32>.self)
    p.storeBytes(of: v2, toByteOffset: 32, as: SIMD4<UInt32>.self)
    p.storeBytes(of: v3, toByteOffset: 48, as: SIMD4<UInt32>.self)
}
