import DialCore

/// Copies the finished logical frame `src` into `dst` (the scanout buffer, `rotation`'s panel
/// size), turning it as `DisplayRotation.panelPixel` says. Every destination pixel is written
/// exactly once, in address order within each tile, and the destination is never read: dumb
/// buffers are often write-combined, where reads are an order of magnitude slower.
///
/// 0 degrees is one memcpy per row; 180 degrees walks each source row backwards; 90 and 270 are
/// a transpose done in tiles small enough that the source column walk stays in cache.
public func copy(_ src: PixelBuffer, to dst: FrameTarget, rotation: DisplayRotation) {
    let w = src.width, h = src.height
    let expected = rotation.swapsAxes ? (h, w) : (w, h)
    precondition(dst.width == expected.0 && dst.height == expected.1,
                 "destination is \(dst.width)x\(dst.height), rotation \(rotation.degrees) needs \(expected.0)x\(expected.1)")
    precondition(dst.stride >= dst.width * 4 && dst.stride % 4 == 0, "destination stride too small")
    let sp = src.rowPitch
    let dp = dst.stride / 4
    let d = dst.base.assumingMemoryBound(to: UInt32.self)
    src.withUnsafePixels { s in
        switch rotation {
        case .none:
            for y in 0..<h { (d + y * dp).update(from: s + y * sp, count: w) }
        case .half:
            for py in 0..<h {
                let srow = s + (h - 1 - py) * sp + (w - 1)
                let drow = d + py * dp
                for px in 0..<w { drow[px] = srow[-px] }
            }
        case .quarter:
            // Panel (px, py) shows logical (x: py, y: h - 1 - px).
            transpose(rows: w, columns: h) { py, px0, px1 in
                let drow = d + py * dp
                var sp0 = s + (h - 1 - px0) * sp + py
                for px in px0..<px1 {
                    drow[px] = sp0.pointee
                    sp0 -= sp
                }
            }
        case .threeQuarters:
            // Panel (px, py) shows logical (x: w - 1 - py, y: px).
            transpose(rows: w, columns: h) { py, px0, px1 in
                let drow = d + py * dp
                var sp0 = s + px0 * sp + (w - 1 - py)
                for px in px0..<px1 {
                    drow[px] = sp0.pointee
                    sp0 += sp
                }
            }
        }
    }
}

/// Visits a `rows` x `columns` destination in tiles: for each tile, each of its rows with the
/// column range [px0, px1). 64 destination rows read 64 neighbouring source columns, 256 bytes
/// of each source row, so one tile's reads fit in L1.
@inline(__always)
private func transpose(rows: Int, columns: Int, _ body: (Int, Int, Int) -> Void) {
    let tile = 64
    var ty = 0
    while ty < rows {
        let ty1 = min(rows, ty + tile)
        var tx = 0
        while tx < columns {
            let tx1 = min(columns, tx + tile)
            for py in ty..<ty1 { body(py, tx, tx1) }
            tx = tx1
        }
        ty = ty1
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
