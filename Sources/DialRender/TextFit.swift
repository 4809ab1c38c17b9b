/// The lines a label is drawn as, and their size.
struct FittedText: Equatable {
    var lines: [String]
    var px64: Int
}

/// Fitting a label into a circle with work bounded by what can show, not by the label's length:
/// the whole text is shaped once per size tried, two-line breaks are measured from that one
/// shaping and only the plausible ones shaped for real, the ellipsis cut is a binary search, and
/// text beyond `maximumFittedScalars` never takes part.
extension TextRenderer {
    /// No disc holds more characters than this on two lines at a readable size (the largest item
    /// on a 4K panel holds about 400 of the narrowest glyphs at 9 px), so longer labels are cut
    /// here and always end in an ellipsis.
    static let maximumFittedScalars = 1024

    /// A shaped line width counts as plausible for a break when its estimate from the whole
    /// line's shaping is within this fraction (plus one em) of the room: the estimate misses
    /// kerning across the break and a font fallback that differs at the start of a line.
    private static let estimateSlack = 0.25

    /// See `fittedMask`: the lines and size, without rasterising.
    func fit(_ text: String, nominalPx: Double, minPx: Double, radius: Double) -> FittedText? {
        guard !text.isEmpty, nominalPx >= 1 else { return nil }
        // Counted in Unicode scalars: one character may carry thousands of combining marks.
        var chars: [Character] = [], scalars = 0, cut = false
        for c in text {
            scalars += c.unicodeScalars.count
            if scalars > Self.maximumFittedScalars { cut = true; break }
            chars.append(c)
        }
        if !cut && couldFitWhole(chars, minPx: minPx, radius: radius) {
            var px = nominalPx
            while true {
                let px64 = Int((px * 64).rounded())
                if let lines = wholeLines(chars, px: px, px64: px64, radius: radius) { return FittedText(lines: lines, px64: px64) }
                if px <= minPx { break }
                px = max(minPx, px * 0.94)
            }
        }
        return ellipsized(chars, through: cut ? chars.count : chars.count - 1, px: minPx, radius: radius)
    }

    /// The widest line that fits `lines` lines at `px` in a circle of `radius`, in 1/64 px
    /// (negative when not even the height fits).
    private func room64(lines: Int, px: Double, radius: Double) -> Double {
        let h = px * (Self.fitHeight + Self.lineAdvance * Double(lines - 1))
        let half2 = radius * radius - (h / 2) * (h / 2)
        return half2 < 0 ? -1 : 2 * half2.squareRoot() * 64
    }

    /// False when the text on one line at `minPx` is far longer than two lines can hold: then
    /// no larger size fits either (widths grow with the size, the room does not), and the size
    /// search is skipped. The minimum-size width is remembered across radii.
    private func couldFitWhole(_ chars: [Character], minPx: Double, radius: Double) -> Bool {
        let px64 = Int((minPx * 64).rounded())
        let room = room64(lines: 1, px: minPx, radius: radius)
        return Double(width(String(chars), px64: px64)) <= 2.5 * max(0, room) + 2 * Double(px64)
    }

    /// `chars` on one line, or broken at a space into the two lines with the narrowest wider
    /// line (the most balanced break among equals), when that fits at `px`; else nil.
    private func wholeLines(_ chars: [Character], px: Double, px64: Int, radius: Double) -> [String]? {
        let text = String(chars)
        let line = shape(text, px64: px64)
        remember(text, px64, line.width64)
        if Double(line.width64) <= room64(lines: 1, px: px, radius: radius) { return [text] }
        let room = room64(lines: 2, px: px, radius: radius)
        guard room > 0 else { return nil }
        // Advance per scalar from the one shaping, summed: the width of any stretch of the text.
        var prefix = [Int](repeating: 0, count: text.unicodeScalars.count + 1)
        for g in line.glyphs where g.cluster < prefix.count - 1 { prefix[g.cluster + 1] += g.advance64 }
        for i in 1..<prefix.count { prefix[i] += prefix[i - 1] }
        var scalarStart = [0]
        for c in chars { scalarStart.append(scalarStart[scalarStart.count - 1] + c.unicodeScalars.count) }
        func estimate(_ from: Int, _ to: Int) -> Int { prefix[scalarStart[to]] - prefix[scalarStart[from]] }

        var splits: [(balance: Int, a: Range<Int>, b: Range<Int>)] = []
        for (i, c) in chars.enumerated() where c == " " {
            let a = trimmed(chars, 0..<i), b = trimmed(chars, (i + 1)..<chars.count)
            if !a.isEmpty && !b.isEmpty { splits.append((abs(a.count - b.count), a, b)) }
        }
        let plausible = room * (1 + Self.estimateSlack) + Double(px64)
        var best: (lines: [String], widest: Int)?
        for split in splits.sorted(by: { $0.balance < $1.balance })
        where Double(max(estimate(split.a.lowerBound, split.a.upperBound), estimate(split.b.lowerBound, split.b.upperBound))) <= plausible {
            let a = String(chars[split.a]), b = String(chars[split.b])
            let widest = max(width(a, px64: px64), width(b, px64: px64))
            if Double(widest) <= room, best == nil || widest < best!.widest { best = ([a, b], widest) }
        }
        return best?.lines
    }

    /// The longest start of `chars` (at most `through` characters, trailing spaces dropped)
    /// that fits on one line at `px` with an ellipsis after it; the ellipsis alone when none
    /// does. A binary search: a longer start is never narrower.
    private func ellipsized(_ chars: [Character], through upper: Int, px: Double, radius: Double) -> FittedText {
        let px64 = Int((px * 64).rounded())
        let room = room64(lines: 1, px: px, radius: radius)
        func line(_ k: Int) -> String {
            String(chars[trimmed(chars, 0..<k)]) + "\u{2026}"
        }
        func fits(_ k: Int) -> Bool { Double(width(line(k), px64: px64)) <= room }
        var lo = 0, hi = upper
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if fits(mid) { lo = mid } else { hi = mid - 1 }
        }
        return FittedText(lines: [line(lo)], px64: px64)
    }

    /// `range` of `chars` without leading and trailing spaces.
    private func trimmed(_ chars: [Character], _ range: Range<Int>) -> Range<Int> {
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi && chars[lo] == " " { lo += 1 }
        while hi > lo && chars[hi - 1] == " " { hi -= 1 }
        return lo..<hi
    }

    /// The shaped width of `text` at `px64`, remembered.
    private func width(_ text: String, px64: Int) -> Int {
        if let known = widths[WidthKey(text: text, px64: px64)] { return known }
        let w = shape(text, px64: px64).width64
        remember(text, px64, w)
        return w
    }

    private func remember(_ text: String, _ px64: Int, _ width64: Int) {
        // Bounded: a painter animating many sizes would otherwise grow this without end.
        if widths.count > 4096 { widths.removeAll(keepingCapacity: true) }
        widths[WidthKey(text: text, px64: px64)] = width64
    }
}
