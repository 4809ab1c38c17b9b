import DialCore
import KioskSeams
import RealModule

/// What live items add to a painter's frame: a badge under an item's label (its live text on a
/// dark pill, so it reads on any disc colour), an unavailable item dimmed with a mark, the
/// selected item's text in the hub, and an open value dial (the target large in the hub with
/// its unit, an arc from minimum to maximum, the measured value as a tick).
///
/// The masks are kept per text and size, a few hundred at most. The painter's frame is painted
/// the same way whatever changed, so when only states changed between two poses the damage is
/// the changed items' rectangles (and the hub's), not everything drawn.
final class LiveDrawing {
    /// Masks kept at most; past it the cache starts again (live texts change, sizes do not).
    static let cacheEntries = 256

    private struct Key: Hashable {
        let text: String
        let px: Int
        let hub: Bool
    }

    private var texts: [Key: TextMask?] = [:]
    private var pills: [Int: TextMask] = [:]
    private var arcs: [Int: TextMask] = [:]
    /// The pose of the last frame, to find what changed.
    private var last: DialPose?

    /// A pose's text rendered once per text and size.
    func text(_ text: String, px: Double, radius: Double, hub: Bool, renderer: TextRenderer) -> TextMask? {
        let key = Key(text: text, px: Int((px * 2).rounded()), hub: hub)
        if let cached = texts[key] { return cached }
        if texts.count >= Self.cacheEntries { texts.removeAll(keepingCapacity: true) }
        let mask = renderer.fittedMask(text, nominalPx: px, minPx: min(px, 7), radius: radius)
        texts[key] = mask
        return mask
    }

    /// A rounded pill of `width` x `height` anchored on its centre.
    func pill(width: Int, height: Int) -> TextMask {
        let key = width << 16 | height
        if let cached = pills[key] { return cached }
        if pills.count >= Self.cacheEntries { pills.removeAll(keepingCapacity: true) }
        let r = Double(height) / 2
        var coverage = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                let cx = min(max(px, r), Double(width) - r)
                let d = ((px - cx) * (px - cx) + (py - r) * (py - r)).squareRoot()
                coverage[y * width + x] = UInt8(PixelMath.byte(max(0, min(1, r - d + 0.5))))
            }
        }
        let mask = TextMask(width: width, height: height, coverage: coverage, originX: -width / 2, originY: -height / 2)
        pills[key] = mask
        return mask
    }

    /// The part of the annulus `inner`...`outer` from the value dial's start (7:30 on a clock)
    /// clockwise over `fraction` of its 270 degrees.
    func arc(inner: Double, outer: Double, fraction: Double) -> TextMask {
        let key = Int((fraction * 1000).rounded()) << 32 | Int((inner * 4).rounded()) << 16 | Int((outer * 4).rounded())
        if let cached = arcs[key] { return cached }
        if arcs.count >= Self.cacheEntries { arcs.removeAll(keepingCapacity: true) }
        let half = Int(outer.rounded(.up)) + 1, size = 2 * half
        var coverage = [UInt8](repeating: 0, count: size * size)
        let sweep = 270.0 * max(0, min(1, fraction))
        for y in 0..<size {
            for x in 0..<size {
                let dx = Double(x - half) + 0.5, dy = Double(y - half) + 0.5
                let d = (dx * dx + dy * dy).squareRoot()
                guard d > inner - 1, d < outer + 1 else { continue }
                if Self.arcDegrees(dx: dx, dy: dy) > sweep { continue }
                coverage[y * size + x] = UInt8(PixelMath.byte(Coverage.ring(distance: d, inner: inner, outer: outer)))
            }
        }
        let mask = TextMask(width: size, height: size, coverage: coverage, originX: -half, originY: -half)
        arcs[key] = mask
        return mask
    }

    /// Degrees clockwise from the arc's start (down-left, 225 degrees from 12 o'clock
    /// anticlockwise) to the direction (`dx`, `dy`), 0 ..< 360.
    static func arcDegrees(dx: Double, dy: Double) -> Double {
        // Clockwise from 12 o'clock, in screen coordinates (y down).
        var fromTop = Double.atan2(y: dx, x: -dy) * 180 / .pi
        if fromTop < 0 { fromTop += 360 }
        var d = fromTop - 225
        if d < 0 { d += 360 }
        return d
    }

    /// The point at `fraction` of the arc, `radius` from the centre.
    static func arcPoint(fraction: Double, radius: Double) -> (x: Double, y: Double) {
        let fromTop = (225 + 270 * max(0, min(1, fraction))) * .pi / 180
        return (Double.sin(fromTop) * radius, -Double.cos(fromTop) * radius)
    }

    /// The damage of `pose` when only live states changed since the last frame (the same
    /// geometry, item poses, selection, rotation, visibility and ring): the rectangles of the
    /// items whose state changed, and the hub's when what it shows changed. Nil when more than
    /// states changed (the painter's own damage stands). Remembers `pose`.
    func stateOnlyDamage(_ pose: DialPose, theme: Theme, width: Int, height: Int) -> [PixelRect]? {
        defer { last = pose }
        guard let last, last.geometry == pose.geometry, last.items == pose.items, last.selected == pose.selected,
              last.rotation == pose.rotation, last.visibility == pose.visibility, last.ring == pose.ring else { return nil }
        var rects: [PixelRect] = []
        let g = pose.geometry
        func state(_ p: DialPose, _ i: Int) -> ItemState? { i < p.states.count ? p.states[i] : nil }
        for i in pose.items.indices where state(last, i)?.looksLike(state(pose, i) ?? ItemState()) == false
            || (state(last, i) == nil) != (state(pose, i) == nil) {
            let ip = pose.items[i]
            let reach = g.itemRadius * ip.scale * (1 + theme.shadowBlurRatio + abs(theme.shadowOffsetRatio))
                + theme.selectionWidth + 4
            rects.append(Self.square(ip.center, reach, width, height))
        }
        let selectedChanged = pose.selected.map { state(last, $0) != state(pose, $0) } ?? false
        if selectedChanged || last.valueDial != pose.valueDial {
            rects.append(Self.square(g.center, Self.valueArcOuter(g) + 4, width, height))
        }
        return rects
    }

    private static func square(_ c: Point, _ reach: Double, _ width: Int, _ height: Int) -> PixelRect {
        PixelRect(x0: Int((c.x - reach).rounded(.down)), y0: Int((c.y - reach).rounded(.down)),
                  x1: Int((c.x + reach).rounded(.up)), y1: Int((c.y + reach).rounded(.up))).clipped(width: width, height: height)
    }

    /// The value dial's arc lies just outside the hub.
    static func valueArcInner(_ g: DialGeometry) -> Double { g.hubRadius + 3 }
    static func valueArcOuter(_ g: DialGeometry) -> Double { g.hubRadius + 3 + max(4, g.hubRadius * 0.07) }
}

extension DialPainter {
    /// An unavailable item's disc: halfway to the background, so it reads as off. A theme with
    /// one disc colour for every item (high contrast) keeps its disc and label, and so its 7:1;
    /// the mark and the badge say it is off.
    func liveDiscColor(_ color: UInt32, _ state: ItemState?) -> UInt32 {
        guard let state, !state.available, theme.itemColorOverride == nil else { return color }
        let c = RGBColor(hex: color), b = theme.backgroundBottom
        return c.mixed(with: b, 0.6).xrgb
    }

    /// The label's opacity on an unavailable disc (kept whole in high contrast).
    func liveLabelAlpha(_ alpha: UInt32, _ state: ItemState?) -> UInt32 {
        guard let state, !state.available, theme.itemColorOverride == nil else { return alpha }
        return alpha * 3 / 5
    }

    /// A disc's badge (its live text, or a value item's value with its unit) under the label on
    /// a dark pill, and an unavailable item's mark (a small ring with a bar) at its upper right.
    func badgeOps(_ state: ItemState?, item: Int, radius r: Double, x: Int, y: Int, opacity: UInt32, _ ops: inout [DrawOp]) {
        guard let state, r >= 12 else { return }
        let text = Self.withAge(state.text ?? Self.valueText(state, items[item].value), state)
        if let text, let mask = live.text(text, px: max(7, r * 0.24), radius: r * 0.62, hub: false, renderer: labelText) {
            let by = y + Int((r * 0.56).rounded())
            let pill = live.pill(width: mask.width + Int(r * 0.16) + 4, height: mask.height + 4)
            ops.append(.mask(pill, x: x, y: by, color: 0x000000, alpha: opacity * 3 / 4))
            ops.append(.mask(mask, x: x, y: by, color: 0xFFFFFF, alpha: opacity))
        }
        if !state.available {
            let mr = max(4, r * 0.16)
            let mx = x + Int((r * 0.62).rounded()), my = y - Int((r * 0.62).rounded())
            ops.append(.mask(live.pill(width: Int(mr * 2), height: Int(mr * 2)), x: mx, y: my, color: 0x000000, alpha: opacity))
            ops.append(.mask(TextMask.ring(inner: mr * 0.55, outer: mr * 0.85), x: mx, y: my, color: 0xFFFFFF, alpha: opacity))
            ops.append(.mask(live.pill(width: Int(mr * 1.5), height: max(2, Int(mr * 0.3))), x: mx, y: my,
                             color: 0xFFFFFF, alpha: opacity))
        }
    }

    /// `text` with the state's age after it ("on · 12 min old") when it is stale.
    static func withAge(_ text: String?, _ state: ItemState) -> String? {
        guard let age = state.ageText else { return text }
        return text.map { $0 + " · " + age } ?? age
    }

    /// "21.5 °C" for a value item's state.
    static func valueText(_ state: ItemState, _ settings: ValueSettings?) -> String? {
        guard let settings, let v = state.value else { return nil }
        return settings.text(v) + (settings.unit.map { " " + $0 } ?? "")
    }

    /// The hub's part: while an item with live text is selected its text under the hub label;
    /// an open value dial instead of the label (the item's label small, the target large with
    /// its unit, the arc and the measured value's tick).
    func hubLiveOps(_ pose: DialPose, _ ops: inout [DrawOp]) {
        let g = pose.geometry
        let cx = Int(g.center.x.rounded()) - box.x0, cy = Int(g.center.y.rounded()) - box.y0
        let alpha = PixelMath.byte(pose.visibility)
        let color = theme.hubTextColor.xrgb
        if let v = pose.valueDial {
            let big = max(12, g.hubRadius * 0.36) * theme.labelScale
            if let mask = live.text(v.text, px: big, radius: g.hubRadius * 0.8, hub: true, renderer: hubText) {
                ops.append(.mask(mask, x: cx, y: cy + Int((g.hubRadius * 0.08).rounded()), color: color, alpha: 255))
            }
            if let mask = live.text(v.label, px: max(9, g.hubRadius * 0.14), radius: g.hubRadius * 0.6, hub: true,
                                    renderer: hubText) {
                ops.append(.mask(mask, x: cx, y: cy - Int((g.hubRadius * 0.42).rounded()), color: color, alpha: 255))
            }
            let inner = LiveDrawing.valueArcInner(g), outer = LiveDrawing.valueArcOuter(g)
            ops.append(.mask(live.arc(inner: inner, outer: outer, fraction: 1), x: cx, y: cy,
                             color: theme.hubRimColor.xrgb, alpha: 255))
            ops.append(.mask(live.arc(inner: inner, outer: outer, fraction: v.fraction(v.shown)), x: cx, y: cy,
                             color: theme.selectionColor.xrgb, alpha: 255))
            if let current = v.current {
                let p = LiveDrawing.arcPoint(fraction: v.fraction(current), radius: (inner + outer) / 2)
                let size = Int(((outer - inner) * 1.8).rounded())
                ops.append(.mask(live.pill(width: size, height: size), x: cx + Int(p.x.rounded()), y: cy + Int(p.y.rounded()),
                                 color: theme.hubTextColor.xrgb, alpha: 255))
            }
            return
        }
        guard pose.visibility > 0, let selected = pose.selected, selected < pose.states.count,
              let state = pose.states[selected] else { return }
        let text = Self.withAge(state.text ?? (state.available ? nil : "unavailable"), state)
        if let text, let mask = live.text(text, px: max(9, g.hubRadius * 0.13), radius: g.hubRadius * 0.7, hub: true,
                                          renderer: hubText) {
            ops.append(.mask(mask, x: cx, y: cy + Int((g.hubRadius * 0.5).rounded()), color: color, alpha: alpha))
        }
    }
}
