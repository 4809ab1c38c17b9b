import DialCore

/// Copies the finished logical frame `src` into `dst` (the scanout buffer, `rotation`'s panel
/// size), turning it as `DisplayRotation.panelPixel` says. Every destination pixel is written
/// exactly once and the destination is never read: dumb
/// buffers are often write-combined, where reads are an order of magnitude slower.
///
/// 0 degrees is one memcpy per row; 180 degrees walks each source row backwards; 90 and 270 are
/// a transpose in strips of 16 panel columns (one cache line per panel row).
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
            // Panel (px, py) shows logical (x: py, y: h - 1 - px): panel column px is source row
            // h - 1 - px, read left to right as py grows.
            strips(panelWidth: h, panelHeight: w) { px0, px1 in
                var rows: [UnsafePointer<UInt32>] = []
                for px in px0..<px1 { rows.append(s + (h - 1 - px) * sp) }
                copyStrip(rows, to: d + px0, pitch: dp, count: w, step: 1, start: 0)
            }
        case .threeQuarters:
            // Panel (px, py) shows logical (x: w - 1 - py, y: px): panel column px is source row
            // px, read right to left as py grows.
            strips(panelWidth: h, panelHeight: w) { px0, px1 in
                var rows: [UnsafePointer<UInt32>] = []
                for px in px0..<px1 { rows.append(s + px * sp) }
                copyStrip(rows, to: d + px0, pitch: dp, count: w, step: -1, start: w - 1)
            }
        }
    }
}

/// Width of a strip of panel columns: 16 pixels are one 64-byte cache line of the destination,
/// so every destination write fills whole lines, while the 16 source rows it reads from stream
/// sequentially (a pattern hardware prefetchers follow).
private let stripWidth = 16

/// Calls `body` for each strip [px0, px1) of panel columns.
@inline(__always)
private func strips(panelWidth: Int, panelHeight: Int, _ body: (Int, Int) -> Void) {
    var px0 = 0
    while px0 < panelWidth {
        let px1 = min(panelWidth, px0 + stripWidth)
        body(px0, px1)
        px0 = px1
    }
}

/// Writes `count` panel rows of one strip: panel row `py`, column `k` of the strip, gets pixel
/// `start + step * py` of source row `rows[k]`.
@inline(__always)
private func copyStrip(_ rows: [UnsafePointer<UInt32>], to dst: UnsafeMutablePointer<UInt32>, pitch: Int,
                       count: Int, step: Int, start: Int) {
    rows.withUnsafeBufferPointer { r in
        let n = r.count
        var out = dst
        var i = start
        if n == stripWidth {
            for _ in 0..<count {
                // Sixteen loads gathered into a 64-byte vector, stored as one cache line.
                var v = SIMD16<UInt32>()
                for k in 0..<16 { v[k] = r[k][i] }
                UnsafeMutableRawPointer(out).storeBytes(of: v, as: SIMD16<UInt32>.self)
                out += pitch
                i += step
            }
        } else {
            for _ in 0..<count {
                for k in 0..<n { out[k] = r[k][i] }
                out += pitch
                i += step
            }
        }
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
