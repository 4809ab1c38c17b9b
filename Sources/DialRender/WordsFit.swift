import DialCore

/// Fitting the words around the dial into their boxes: the title and hint on one line in a band
/// of the frame, an item's description in the hub under its label. Text is made smaller down to
/// a readable size, then cut at a character (never inside a glyph cluster) and ended with an
/// ellipsis; `ellipsised` says so, for `check-config`'s warning.
public struct FittedWords {
    public let mask: TextMask?
    /// The text did not fit whole even at the smallest size.
    public let ellipsised: Bool
}

extension TextRenderer {
    /// `text` on one line no wider than `width` and no taller than `rows` / 1.5, at `nominalPx`
    /// or smaller down to `minPx`, else cut with an ellipsis at `minPx`.
    func bandLine(_ text: String, nominalPx: Double, minPx: Double, width: Double) -> FittedWords {
        guard !text.isEmpty else { return FittedWords(mask: nil, ellipsised: false) }
        // Only what can show on one line takes part (a long text is cut before shaping).
        let chars = Array(text.prefix(Self.maximumFittedScalars))
        var px = nominalPx
        if chars.count == text.count {
            while true {
                if self.width(text, px: px) <= width { return FittedWords(mask: lineMask(text, px: px), ellipsised: false) }
                if px <= minPx { break }
                px = max(minPx, px * 0.94)
            }
        }
        px = min(nominalPx, minPx)
        func line(_ k: Int) -> String { String(chars[0..<k]).trimmingTrailingSpaces + "\u{2026}" }
        var lo = 0, hi = chars.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if self.width(line(mid), px: px) <= width { lo = mid } else { hi = mid - 1 }
        }
        return FittedWords(mask: lineMask(line(lo), px: px), ellipsised: true)
    }

    /// `text` fitted in a circle of `radius` (`fittedMask`), saying whether it was cut.
    func circleWords(_ text: String, nominalPx: Double, minPx: Double, radius: Double) -> FittedWords {
        guard let fitted = fit(text, nominalPx: nominalPx, minPx: minPx, radius: radius) else {
            return FittedWords(mask: nil, ellipsised: false)
        }
        let shown = fitted.lines.joined(separator: " ")
        let cut = shown.hasSuffix("\u{2026}") && !text.hasSuffix("\u{2026}")
        return FittedWords(mask: rasterise(fitted.lines.map { shape($0, px64: fitted.px64) }, px64: fitted.px64), ellipsised: cut)
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}

/// The selected item's label and description in the hub: the label in the upper part, the
/// description in a circle below it, both inside the hub.
final class HubWords {
    private let text: TextRenderer
    private let theme: Theme
    private var cache: [Int: (label: TextMask, description: TextMask, labelDY: Int, descriptionDY: Int)?] = [:]
    private var geometry: DialGeometry?

    init(text: TextRenderer, theme: Theme) {
        self.text = text
        self.theme = theme
    }

    /// Where the two sit in a hub of radius 1: the label's circle centre and radius, the
    /// description's. Both circles stay within 0.85 of the hub's radius.
    static let label = (dy: -0.3, radius: 0.48)
    static let description = (dy: 0.3, radius: 0.55)

    /// The masks for item `i` (nil when it has no description: the painter's own hub label).
    func masks(_ i: Int, label: String, description: String?, geometry g: DialGeometry)
        -> (label: TextMask, description: TextMask, labelDY: Int, descriptionDY: Int)? {
        // Fitted for one hub: another geometry (a new mode) fits them again.
        if g != geometry {
            cache.removeAll()
            geometry = g
        }
        if let cached = cache[i] { return cached }
        guard let description, !description.isEmpty else { cache[i] = .some(nil); return nil }
        let sizes = Self.sizes(theme, g)
        let hub = g.hubRadius
        let l = text.circleWords(label, nominalPx: sizes.label, minPx: min(sizes.label, theme.minimumLabelPixels),
                                 radius: hub * Self.label.radius)
        let d = Self.fitDescription(text, description, theme: theme, geometry: g)
        guard let lm = l.mask, let dm = d.mask else { cache[i] = .some(nil); return nil }
        let entry = (lm, dm, Int((hub * Self.label.dy).rounded()), Int((hub * Self.description.dy).rounded()))
        cache[i] = entry
        return entry
    }

    static func fitDescription(_ text: TextRenderer, _ description: String, theme: Theme, geometry g: DialGeometry) -> FittedWords {
        let px = sizes(theme, g).description
        return text.circleWords(description, nominalPx: px, minPx: min(px, theme.minimumLabelPixels),
                                radius: g.hubRadius * Self.description.radius)
    }

    /// The label's size as the painter's hub label has it, the description's a little over half.
    static func sizes(_ theme: Theme, _ g: DialGeometry) -> (label: Double, description: Double) {
        let nominal = min(g.hubRadius * theme.hubLabelSizeRatio,
                          max(g.itemRadius * theme.hubLabelItemRatio, theme.minimumLabelPixels * 1.6)) * theme.labelScale
        return (nominal * 0.8, max(theme.minimumLabelPixels, nominal * 0.5))
    }

    func removeAll() { cache.removeAll() }
}
