import CFreeType

/// A rasterised glyph: coverage and its placement relative to the pen on the baseline.
struct GlyphBitmap {
    let width: Int
    let height: Int
    let left: Int
    let top: Int
    let coverage: [UInt8]
}

/// Labels in one font: shaping, fitting into a circle, and rasterising with a glyph cache keyed
/// by face, size and glyph (so a label drawn at a size it was drawn at before costs no FreeType
/// call).
final class TextRenderer {
    let shaper: TextShaper
    /// Bounded: labels fitted at every radius of a spin use a new size each, and over months
    /// every size of every glyph would stay.
    private var glyphs = BoundedCache<GlyphKey, GlyphBitmap>(bound: TextRenderer.glyphCacheBound) { $0.coverage.count + 48 }
    /// Bytes of glyph bitmaps kept.
    static let glyphCacheBound = 256 << 10
    /// Widths of lines already shaped while fitting, by text and size: refitting a label at
    /// another radius probes mostly the same lines (see TextFit.swift).
    var widths: [WidthKey: Int] = [:]
    /// Unicode scalars shaped so far: the work fitting did (tests bound it per frame).
    private(set) var shapedScalars = 0

    struct WidthKey: Hashable {
        let text: String
        let px64: Int
    }

    private struct GlyphKey: Hashable {
        let face: Int
        let px64: Int
        let glyph: UInt32
    }

    /// Vertical metrics as fractions of the pixel size: the distance between baselines, the
    /// height used when fitting (about cap height plus descenders), and the baseline's drop below
    /// the line's visual centre.
    static let lineAdvance = 1.12
    static let fitHeight = 1.02
    static let baselineBelowCentre = 0.36

    init(catalog: FontCatalog, fontName: String) throws {
        shaper = TextShaper(catalog: catalog, primary: try catalog.face(named: fontName))
    }

    /// `text` laid out to fit inside a circle of `radius` around its anchor: at the largest size
    /// from `nominalPx` down to `minPx` where it fits on one line or, broken at a space, on two;
    /// failing that, on one line at `minPx` cut short with an ellipsis. Nil for empty text.
    func fittedMask(_ text: String, nominalPx: Double, minPx: Double, radius: Double) -> TextMask? {
        guard let fitted = fit(text, nominalPx: nominalPx, minPx: minPx, radius: radius) else { return nil }
        return rasterise(fitted.lines.map { shape($0, px64: fitted.px64) }, px64: fitted.px64)
    }

    /// `text` shaped at `px64`, counted.
    func shape(_ text: String, px64: Int) -> ShapedLine {
        shapedScalars += text.unicodeScalars.count
        return shaper.shape(text, px64: px64)
    }

    /// `text` on one line at `px`, unfitted.
    func lineMask(_ text: String, px: Double) -> TextMask? {
        guard !text.isEmpty else { return nil }
        let px64 = Int((px * 64).rounded())
        return rasterise([shape(text, px64: px64)], px64: px64)
    }

    /// Width of `text` on one line at `px`, in pixels.
    func width(_ text: String, px: Double) -> Double {
        shape(text, px64: Int((px * 64).rounded())).width
    }

    /// Composes the glyphs of `lines`, each centred horizontally, the block centred vertically
    /// on the anchor.
    func rasterise(_ lines: [ShapedLine], px64: Int) -> TextMask? {
        let px = Double(px64) / 64
        let advance = px * Self.lineAdvance
        let firstBaseline = -advance * Double(lines.count - 1) / 2 + px * Self.baselineBelowCentre
        var placed: [(GlyphBitmap, Int, Int)] = []
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        for (n, line) in lines.enumerated() {
            let baseline = firstBaseline + advance * Double(n)
            let left64 = -line.width64 / 2
            for g in line.glyphs {
                let bitmap = glyph(g, px64: px64)
                guard bitmap.width > 0, bitmap.height > 0 else { continue }
                let gx = Int((Double(left64 + g.x64) / 64).rounded()) + bitmap.left
                let gy = Int((baseline - Double(g.y64) / 64).rounded()) - bitmap.top
                placed.append((bitmap, gx, gy))
                x0 = min(x0, gx); y0 = min(y0, gy)
                x1 = max(x1, gx + bitmap.width); y1 = max(y1, gy + bitmap.height)
            }
        }
        guard !placed.isEmpty else { return nil }
        let w = x1 - x0, h = y1 - y0
        var coverage = [UInt8](repeating: 0, count: w * h)
        for (bitmap, gx, gy) in placed {
            for row in 0..<bitmap.height {
                let dst = (gy - y0 + row) * w + (gx - x0)
                let src = row * bitmap.width
                for col in 0..<bitmap.width {
                    let sum = Int(coverage[dst + col]) + Int(bitmap.coverage[src + col])
                    coverage[dst + col] = UInt8(min(255, sum))
                }
            }
        }
        return TextMask(width: w, height: h, coverage: coverage, originX: x0, originY: y0)
    }

    /// The glyph's bitmap from the cache, rendered on first use (FT_Load_Glyph, FT_Render_Glyph).
    private func glyph(_ g: PlacedGlyph, px64: Int) -> GlyphBitmap {
        let key = GlyphKey(face: g.face.id, px64: px64, glyph: g.glyph)
        if let cached = glyphs.get(key) { return cached }
        let face = g.face
        face.setSize(px64: px64)
        // Light hinting (FT_LOAD_TARGET_LIGHT): vertical-only snapping, keeps shapes and spacing.
        let loadTargetLight: Int32 = 1 << 16
        var bitmap = GlyphBitmap(width: 0, height: 0, left: 0, top: 0, coverage: [])
        if FT_Load_Glyph(face.face, g.glyph, loadTargetLight) == 0,
           FT_Render_Glyph(face.face.pointee.glyph, FT_RENDER_MODE_NORMAL) == 0 {
            let slot = face.face.pointee.glyph.pointee
            let bm = slot.bitmap
            let w = Int(bm.width), h = Int(bm.rows), pitch = Int(bm.pitch)
            var cov = [UInt8](repeating: 0, count: w * h)
            if let buf = bm.buffer, w > 0 {
                for row in 0..<h {
                    let src = pitch >= 0 ? buf + row * pitch : buf + (h - 1 - row) * -pitch
                    for col in 0..<w { cov[row * w + col] = src[col] }
                }
            }
            bitmap = GlyphBitmap(width: w, height: h, left: Int(slot.bitmap_left), top: Int(slot.bitmap_top), coverage: cov)
        }
        glyphs.insert(bitmap, for: key)
        return bitmap
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
