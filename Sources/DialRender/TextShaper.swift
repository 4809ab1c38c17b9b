import CFreeType
import CHarfBuzz

/// One glyph placed on a line: which face, which glyph, and where (pixels, 1/64 precision).
struct PlacedGlyph {
    let face: FontFace
    let glyph: UInt32
    /// Pen position plus HarfBuzz offset, from the line's left edge, in 1/64 pixels.
    let x64: Int
    /// Upward offset from the baseline, in 1/64 pixels.
    let y64: Int
    /// Index of the first Unicode scalar of the text this glyph shows (HarfBuzz's cluster).
    let cluster: Int
    /// Pen advance after this glyph, in 1/64 pixels.
    let advance64: Int
}

/// A shaped line of text in visual (left-to-right) order.
struct ShapedLine {
    var glyphs: [PlacedGlyph]
    /// Total advance, in 1/64 pixels.
    var width64: Int
    var width: Double { Double(width64) / 64 }
}

/// Splits text into runs by the face that has its glyphs (the main face first, then fontconfig
/// fallbacks), shapes each run with HarfBuzz (kerning, ligatures, Arabic joining, Devanagari
/// conjuncts and reordering), and orders the runs for a right-to-left paragraph.
struct TextShaper {
    let catalog: FontCatalog
    let primary: FontFace

    /// `text` shaped at `px64` (1/64 pixel) size.
    func shape(_ text: String, px64: Int) -> ShapedLine {
        // Runs break where the face changes or the strong direction does (a minimal bidi: each
        // run is shaped in its own direction, neutrals such as spaces join the run before them).
        var runs: [(face: FontFace, rtl: Bool?, scalars: [Unicode.Scalar], start: Int)] = []
        var index = 0
        for s in text.unicodeScalars {
            defer { index += 1 }
            let face = faceFor(s, current: runs.last?.face)
            let rtl = strongDirection(s)
            // Digits inside right-to-left text read left to right ("2.50", not "05.2"): they
            // start a run of their own, which HarfBuzz shapes left to right (their script is
            // Common); the separators and spaces after them join it as neutrals.
            if s.properties.numericType == .decimal, let last = runs.last, last.rtl == true {
                runs.append((face, false, [s], index))
                continue
            }
            if let last = runs.last, last.face === face, rtl == nil || last.rtl == nil || last.rtl == rtl {
                runs[runs.count - 1].scalars.append(s)
                if last.rtl == nil { runs[runs.count - 1].rtl = rtl }
            } else {
                runs.append((face, rtl, [s], index))
            }
        }
        if paragraphIsRightToLeft(text) { runs.reverse() }
        var glyphs: [PlacedGlyph] = []
        var pen = 0
        for run in runs {
            run.face.setSize(px64: px64)
            let buffer = hb_buffer_create()
            defer { hb_buffer_destroy(buffer) }
            let codepoints = run.scalars.map { $0.value }
            codepoints.withUnsafeBufferPointer {
                hb_buffer_add_utf32(buffer, $0.baseAddress, Int32($0.count), 0, Int32($0.count))
            }
            hb_buffer_guess_segment_properties(buffer)
            hb_shape(run.face.hbFont, buffer, nil, 0)
            var count: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
                  let positions = hb_buffer_get_glyph_positions(buffer, &count) else { continue }
            for i in 0..<Int(count) {
                let p = positions[i]
                glyphs.append(PlacedGlyph(face: run.face, glyph: infos[i].codepoint, x64: pen + Int(p.x_offset),
                                          y64: Int(p.y_offset), cluster: run.start + Int(infos[i].cluster),
                                          advance64: Int(p.x_advance)))
                pen += Int(p.x_advance)
            }
        }
        return ShapedLine(glyphs: glyphs, width64: pen)
    }

    /// The face to draw `s` with. Marks, joiners, spaces and punctuation stay in the current
    /// run's face when it has them, so a Devanagari word and its matras shape together.
    private func faceFor(_ s: Unicode.Scalar, current: FontFace?) -> FontFace {
        if let current, current !== primary, current.hasGlyph(s) || isFormat(s), sticksToRun(s) {
            return current
        }
        if primary.hasGlyph(s) { return primary }
        if let current, current.hasGlyph(s) { return current }
        return catalog.fallback(for: s) ?? primary
    }

    private func sticksToRun(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format, .spaceSeparator,
             .otherPunctuation, .dashPunctuation, .decimalNumber:
            return true
        default:
            return false
        }
    }

    private func isFormat(_ s: Unicode.Scalar) -> Bool { s.properties.generalCategory == .format }

    /// True when the first strong character is Arabic, Hebrew or another right-to-left script.
    private func paragraphIsRightToLeft(_ text: String) -> Bool {
        for s in text.unicodeScalars {
            if let rtl = strongDirection(s) { return rtl }
        }
        return false
    }

    /// True for a right-to-left letter, false for another letter, nil for neutrals (spaces,
    /// digits, punctuation, marks), which take the direction around them.
    private func strongDirection(_ s: Unicode.Scalar) -> Bool? {
        let v = s.value
        // Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic, and the presentation forms.
        let rtlBlock = (0x0590...0x08FF).contains(v) || (0xFB1D...0xFDFF).contains(v) || (0xFE70...0xFEFF).contains(v)
        guard s.properties.isAlphabetic else { return nil }
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return nil
        default: return rtlBlock
        }
    }
}
