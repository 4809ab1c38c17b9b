import DialCore
import KioskSeams
import RealModule

/// The PIN ring on the glass: the twelve slots (0-9, delete, OK) round the ring with the one at
/// 12 o'clock raised, and in the hub one dot per digit entered (with hollow dots for the rest of
/// a PIN of known length), never a digit; a line under the dots for the lock's news ("3 tries
/// left", "locked for 30 s"). A frame of its own, painted whole: the ring is open for seconds,
/// and a frame is a few discs and twelve short labels. Owns its own font handles; used from the
/// painter's thread.
public final class PINRingPainter {
    public let theme: Theme
    public private(set) var frame: PixelBuffer
    private let text: TextRenderer
    private var labels: [Int: TextMask] = [:]
    private var labelPixels = 0.0

    public init(theme: Theme = Theme(), width: Int, height: Int) throws {
        self.theme = theme
        frame = PixelBuffer(width: width, height: height)
        text = try TextRenderer(catalog: try FontCatalog(), fontName: theme.hubFontName)
    }

    /// What each slot says: its digit, then delete and OK.
    public static func label(_ slot: PINRing.Slot) -> String {
        switch slot {
        case .digit(let d): String(d)
        case .delete: "\u{2190}"
        case .ok: "OK"
        }
    }

    /// Where slot `index` stands with `selected` at 12 o'clock: clockwise from the top.
    public static func slotCenter(_ index: Int, selected: Int, geometry g: DialGeometry) -> Point {
        let n = PINRing.slots.count
        let turns = Double(((index - selected) % n + n) % n) / Double(n)
        let angle = turns * 2 * Double.pi
        return Point(x: g.center.x + g.ringRadius * Double.sin(angle), y: g.center.y - g.ringRadius * Double.cos(angle))
    }

    /// Paints `pose` on `g` with `note` under the dots; returns the whole frame as damage.
    @discardableResult
    public func paint(_ pose: PINRingPose, geometry g: DialGeometry, note: String? = nil) -> PixelRect {
        frame.fillVerticalGradient(top: theme.backgroundTop, bottom: theme.backgroundBottom)
        let slotRadius = min(g.itemRadius, g.ringRadius * Double.pi / Double(PINRing.slots.count) * 0.8)
        let band = slotRadius * theme.ringWidthRatio
        frame.strokeRing(center: g.center, inner: g.ringRadius - band, outer: g.ringRadius + band, color: theme.ringColor)
        let px = max(theme.minimumLabelPixels, slotRadius * 0.9 * theme.labelScale)
        if px != labelPixels {
            labels = [:]
            labelPixels = px
        }
        // The raised slot's label in whichever dark colour stands out most on the selection
        // colour (the high-contrast look's label colour is white, its selection yellow).
        let raisedLabel = [theme.darkLabelColor, RGBColor(hex: 0)].max {
            RGBColor.contrastRatio($0, theme.selectionColor) < RGBColor.contrastRatio($1, theme.selectionColor)
        }!
        for (i, slot) in PINRing.slots.enumerated() {
            let c = Self.slotCenter(i, selected: pose.selected, geometry: g)
            let top = i == pose.selected
            let r = top ? slotRadius * 1.2 : slotRadius
            frame.fillDisc(center: c, radius: r, color: top ? theme.selectionColor : theme.hubColor)
            if top { frame.strokeRing(center: c, inner: r - theme.selectionWidth, outer: r, color: theme.hubRimColor) }
            if labels[i] == nil { labels[i] = text.lineMask(Self.label(slot), px: px) }
            if let mask = labels[i] {
                frame.draw(mask, x: Int(c.x.rounded()), y: Int(c.y.rounded()),
                           color: top ? raisedLabel : theme.hubTextColor)
            }
        }
        frame.fillDisc(center: g.center, radius: g.hubRadius, color: theme.hubColor)
        frame.strokeRing(center: g.center, inner: g.hubRadius - 2, outer: g.hubRadius, color: theme.hubRimColor)
        paintDots(pose, geometry: g)
        if let note, let mask = text.fittedMask(note, nominalPx: max(9, g.hubRadius * 0.16), minPx: 9, radius: g.hubRadius * 0.7) {
            frame.draw(mask, x: Int(g.center.x.rounded()), y: Int((g.center.y + g.hubRadius * 0.45).rounded()), color: theme.hubTextColor)
        }
        return PixelRect(x0: 0, y0: 0, x1: frame.width, y1: frame.height)
    }

    /// One filled dot per digit entered and, for a PIN of known length, a hollow one for each
    /// still to come, in a row across the hub (two rows past eight).
    private func paintDots(_ pose: PINRingPose, geometry g: DialGeometry) {
        let shown = max(pose.count, pose.length ?? 0)
        guard shown > 0 else { return }
        let perRow = shown > 8 ? (shown + 1) / 2 : shown
        let spacing = min(g.hubRadius * 1.5 / Double(max(perRow, 4)), g.hubRadius * 0.3)
        let r = spacing * 0.32
        for i in 0..<shown {
            let row = i / perRow, column = i % perRow
            let inRow = row == 0 ? min(perRow, shown) : shown - perRow
            let x = g.center.x + (Double(column) - Double(inRow - 1) / 2) * spacing
            let y = g.center.y - (shown > perRow ? (row == 0 ? spacing * 0.6 : -spacing * 0.6) : 0)
            if i < pose.count {
                frame.fillDisc(center: Point(x: x, y: y), radius: r, color: theme.hubTextColor)
            } else {
                frame.strokeRing(center: Point(x: x, y: y), inner: r * 0.7, outer: r, color: theme.hubTextColor)
            }
        }
    }
}
