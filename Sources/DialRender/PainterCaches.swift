import DialCore
import KioskSeams

/// What a `DialPainter` draws from, kept between frames, each cache bounded by bytes: a
/// colour-free disc-and-shadow sprite per radius step (shared by all items), a label mask per
/// item and label size, the hub's labels, selection rings per sprite radius and icons per item
/// and half-pixel radius; and the fonts and scaled icon sources they are made from. `prepare`
/// sizes the bounds to the frame and the work (`CacheBudget`) unless fixed bounds were given,
/// and builds what a spin draws, so its frames build nothing.
final class PainterCaches {
    private var items: [MenuItem]
    private let theme: Theme
    /// Items per ring (the selection rings' sizes depend on the widest spacing).
    private let ringSizes: [Int]
    /// Size of the frame, for the budget's ceiling.
    private let width: Int, height: Int

    private let catalog: FontCatalog
    let labelText: TextRenderer
    let hubText: TextRenderer
    /// Each item's icon at the largest size it can be drawn on this frame (the source image is
    /// not kept: a 4096x4096 icon would hold 64 MiB and cost 16 M reads per size made from it).
    private let iconSources: [IconSprite?]

    /// Disc sprites; `prepare` builds those of the radii a spin draws.
    let discs: DiscSpriteCache
    /// Item labels per label size (`labelKey`), selection rings per quarter-pixel radius and
    /// icons per half-pixel radius, each bounded by bytes (see `CacheBounds`, `CacheBudget`).
    private var labels: BoundedCache<LabelKey, TextMask?>
    /// Half pixels of radius between two label sizes (`labelKey`): 1 unless the labels of every
    /// size a spin shows would not fit in their bound (as the demo menu's ten long labels at
    /// 1920x1080 do not), then the finest step whose labels do, chosen by
    /// `prepare`; the grid is anchored on `labelAnchor`, the selected item's size at rest.
    private var labelStep = 1, labelAnchor = 0
    private var hubLabels: [Int: TextMask?] = [:]
    private var icons: BoundedCache<LabelKey, IconSprite>
    private var rings: BoundedCache<Int, TextMask>
    private let labelBound: Int, spritesAndLabels: Int
    /// True when `prepare` sizes the caches to the frame and the work (`CacheBudget`), false
    /// when they keep the `CacheBounds` they were made with.
    private let sizedToFrame: Bool

    private struct LabelKey: Hashable {
        let item: Int
        let halfPixels: Int
    }

    /// Caches for `items` on a `width` x `height` frame whose rings hold `ringSizes` items,
    /// with `iconSources` (per item) scaled for that frame; `bounds` nil sizes them at `prepare`.
    /// Throws when a font cannot be loaded.
    init(items: [MenuItem], theme: Theme, width: Int, height: Int, ringSizes: [Int], iconSources: [IconSprite?],
         bounds given: DialPainter.CacheBounds?) throws {
        self.items = items
        self.theme = theme
        self.width = width
        self.height = height
        self.ringSizes = ringSizes
        self.iconSources = iconSources
        catalog = try FontCatalog()
        labelText = try TextRenderer(catalog: catalog, fontName: theme.fontName)
        hubText = try TextRenderer(catalog: catalog, fontName: theme.hubFontName)
        sizedToFrame = given == nil
        let bounds = given ?? DialPainter.CacheBounds()
        discs = DiscSpriteCache(theme: theme, bound: bounds.sprites)
        labels = BoundedCache(bound: bounds.labels) { ($0?.byteCount ?? 0) + 64 }
        labelBound = bounds.labels
        spritesAndLabels = bounds.spritesAndLabels
        rings = BoundedCache(bound: bounds.rings) { $0.byteCount }
        icons = BoundedCache(bound: bounds.icons) { $0.byteCount }
    }

    /// The bounds the caches hold to now.
    var bounds: DialPainter.CacheBounds {
        var b = DialPainter.CacheBounds()
        b.sprites = discs.bound
        b.labels = labelBound
        b.spritesAndLabels = spritesAndLabels
        b.rings = rings.bound
        b.icons = icons.bound
        return b
    }

    /// Builds the sprites, labels and selection rings a spin of `geometry` draws (see
    /// `DialPainter.prepareCaches`), first sizing the caches when they follow the frame.
    func prepare(for geometry: DialGeometry, inflate: Inflate) {
        let low = geometry.itemRadius * min(inflate.minScale, inflate.maxScale)
        let high = geometry.itemRadius * max(inflate.minScale, inflate.maxScale)
        guard DiscSpriteCache.key(low) >= 4 else { return }
        if sizedToFrame { chooseSpriteBudget(low: low, high: high) }
        let keys = Array(stride(from: discs.key(low), through: discs.key(high), by: discs.step))
        // The two sizes of a ring at rest first: the item at 12 o'clock and the far ones.
        discs.prepare(keys, first: [keys.last!, keys.first!])
        if sizedToFrame {
            prebuildRings(selectionKeys(keys, geometry: geometry, inflate: inflate), sized: true)
            labels.bound = max(labelBound, budgetCeiling - discs.bound - rings.bound)
        } else {
            labels.bound = max(labelBound, spritesAndLabels - discs.bytes)
        }
        prebuildLabels(chooseLabelSizes(keys))
        if !sizedToFrame { prebuildRings(keys, sized: false) }
    }

    /// What sprites, labels and rings may hold together on this frame (`CacheBudget.ceiling`).
    private var budgetCeiling: Int { CacheBudget.ceiling(width: width, height: height) }

    /// Chooses the sprites' step and bound: the finest step whose sprites of every radius from
    /// `low` to `high` fit in the sprites' share of the ceiling (estimated from the sprites of
    /// the two ends: a sprite's bytes grow with the square of its radius), and a bound of half
    /// as much again for the sizes the show animation draws below the range, within the share.
    private func chooseSpriteBudget(low: Double, high: Double) {
        let lo = DiscSpriteCache.key(low), hi = DiscSpriteCache.key(high)
        // Both ends are kept when they lie on the chosen step (`prepare` would build them first).
        let ends = [lo, hi].map { (key: $0, sprite: discs.cached($0) ?? discs.built($0)) }
        let bytesLo = Double(ends[0].sprite.byteCount), bytesHi = Double(ends[1].sprite.byteCount)
        func bytes(_ k: Int) -> Double {
            hi == lo ? bytesHi : bytesLo + (bytesHi - bytesLo) * Double(k * k - lo * lo) / Double(hi * hi - lo * lo)
        }
        func estimate(_ step: Int) -> Int {
            let a = Int((Double(lo) / Double(step)).rounded()) * step, b = Int((Double(hi) / Double(step)).rounded()) * step
            return Int(stride(from: a, through: b, by: step).reduce(0.0) { $0 + bytes($1) })
        }
        let share = Int(Double(budgetCeiling) * CacheBudget.spriteShare)
        let step = CacheBudget.spriteStep(share: share, estimate: estimate)
        discs.step = step
        discs.bound = min(share, estimate(step) * 3 / 2)
        for end in ends where end.key % step == 0 { discs.insert(end.sprite, for: end.key) }
    }

    /// The sprite keys among `keys` at which the selection ring shows: the selected item within
    /// half the spacing of the ring with the fewest items from 12 o'clock (where the ring fades
    /// out, see `selectionStrength`), and a fifth more for a spin's rounding.
    private func selectionKeys(_ keys: [Int], geometry: DialGeometry, inflate: Inflate) -> [Int] {
        let fewest = ringSizes.filter { $0 >= 2 }.min() ?? 2
        let scale = inflate.scale(atAngle: Angle.top + 1.2 * Double.pi / Double(fewest))
        let from = discs.key(geometry.itemRadius * scale)
        return keys.filter { $0 >= from }
    }

    /// The budget `prepare` chose (or the fixed bounds the caches were made with).
    var budget: CacheBudget {
        CacheBudget(ceiling: sizedToFrame ? budgetCeiling : spritesAndLabels, sprites: discs.bound,
                    spriteStep: Double(discs.step) / 4, labels: labels.bound, labelStep: labelSizeStep,
                    rings: rings.bound, icons: icons.bound)
    }

    /// Builds the selection rings of the largest sizes of `keys` (the selected item is near
    /// 12 o'clock, where the items are largest), largest first, while they fit in their bound
    /// without pushing one out: otherwise the first spin builds one in each frame that shows a
    /// new size (a 1080p ring of the demo menu: about 90 k coverage tests). `sized`: `keys` are
    /// the sizes the selection shows at, and the bound becomes what they hold, within an eighth
    /// of the ceiling.
    private func prebuildRings(_ keys: [Int], sized: Bool) {
        guard theme.selectionWidth > 0 else { return }
        if sized { rings.bound = budgetCeiling / 8 }
        for key in keys.reversed() where !rings.contains(key) {
            let ring = makeRing(radius: Double(key) / 4)
            guard rings.bytes + rings.bytes(of: ring) <= rings.bound else { break }
            rings.insert(ring, for: key)
        }
        if sized { rings.bound = max(64 << 10, rings.bytes + rings.bytes / 8) }
    }

    /// Drops every sprite, label, selection ring and icon at a drawn size (`DialPainter.dropCaches`).
    func removeAll() {
        discs.removeAll()
        labels.removeAll()
        rings.removeAll()
        icons.removeAll()
        hubLabels.removeAll()
    }

    /// Forgets the hub's labels, which are sized to a geometry.
    func geometryChanged() { hubLabels.removeAll() }

    /// Fits each item's hub label and its label at scale 1 for a new geometry, outside any
    /// frame. The label fit at scale 1 also leaves the widths of the label at the minimum size
    /// in the renderer's memo, which is most of what fitting it at another radius costs later.
    func warm(_ g: DialGeometry) {
        let quarterPixels = Int((g.itemRadius * 4).rounded())
        let key = Int((Double(quarterPixels) / 4 * 2).rounded())
        for i in items.indices {
            _ = hubLabel(i, geometry: g)
            _ = label(labelKey(i, radius: Double(key) / 2), hasIcon: iconSources[i] != nil)
        }
    }

    /// The label sizes (half pixels) a spin over the sprites `keys` draws, after choosing the
    /// step between them: the finest of 0.5, 1, 1.5, 2, 3 and 4 pixels of radius whose labels
    /// are estimated to fit in the labels' bound (from the masks at the two sizes at rest, see
    /// below). A step of 2 pixels changes a 1080p label's type size by
    /// at most half a pixel; without it the demo menu fitted about 100 labels inside the frames
    /// of each spin, a few milliseconds each, and pushed out the ones the next spin needed.
    private func chooseLabelSizes(_ keys: [Int]) -> Set<Int> {
        let all = Set(keys.map { Int((Double($0) / 4 * 2).rounded()) })
        let low = all.min()!, high = all.max()!
        labelAnchor = high
        let labelled = items.indices.filter { !(theme.iconReplacesLabel && iconSources[$0] != nil) }
        // The masks of both sizes at rest, kept (they are the first a spin shows).
        func bytes(at h: Int) -> Int {
            labelled.reduce(0) { sum, i in
                let key = LabelKey(item: i, halfPixels: h)
                let mask = labels.contains(key) ? labels.get(key)! : fitLabel(key, hasIcon: iconSources[i] != nil)
                labels.insert(mask, for: key)
                return sum + labels.bytes(of: mask)
            }
        }
        let largest = Double(bytes(at: high)), smallest = Double(bytes(at: low))
        // Down to the grid size that the smallest size at rest is drawn with.
        func sizes(_ step: Int) -> [Int] { Array(stride(from: high, to: low - step, by: -step)) }
        // Between the two, a size's masks are estimated on the straight line: a mask's bytes
        // grow with its area (faster than its radius), so the line overestimates.
        labelStep = Self.labelSteps.first { step in
            let estimate = sizes(step).reduce(0.0) { sum, h in
                sum + smallest + (largest - smallest) * Double(max(0, h - low)) / Double(max(1, high - low))
            }
            return estimate <= Double(labels.bound)
        } ?? Self.labelSteps.last!
        return Set(sizes(labelStep))
    }

    /// The steps `chooseLabelSizes` tries, in half pixels of radius.
    private static let labelSteps = [1, 2, 3, 4, 6, 8]

    /// Pixels of radius between two label sizes, as the last `prepare` chose (0.5: every size).
    var labelSizeStep: Double { Double(labelStep) / 2 }

    /// The size (half pixels of radius) whose label a disc of `radius` shows, for tests.
    func labelHalfPixels(radius: Double) -> Int { labelKey(0, radius: radius).halfPixels }

    /// Item `i`'s label on a disc of `radius` (a sprite's), nil when too small to read.
    func itemLabel(_ i: Int, radius: Double) -> TextMask? {
        label(labelKey(i, radius: radius), hasIcon: iconSources[i] != nil)
    }

    /// Whether item `i` has an icon.
    func hasIcon(_ i: Int) -> Bool { iconSources[i] != nil }

    /// The label drawn on a disc of `radius`: fitted at its own half pixel, or, with a coarser
    /// step, at the largest size of the grid not above it (a label is never larger than the
    /// disc it was fitted in allows).
    private func labelKey(_ item: Int, radius: Double) -> LabelKey {
        let h = Int((radius * 2).rounded())
        guard labelStep > 1, h < labelAnchor else { return LabelKey(item: item, halfPixels: h) }
        let steps = (labelAnchor - h + labelStep - 1) / labelStep
        return LabelKey(item: item, halfPixels: labelAnchor - steps * labelStep)
    }

    /// Fits every item's label at each size of `all` (half pixels of radius, as `labelKey`
    /// gives them) while they fit in the labels' bound; the others are fitted in the frames that
    /// first draw them.
    private func prebuildLabels(_ all: Set<Int>) {
        // The sizes at rest first (largest and smallest), then inwards from both, nearest to
        // a size at rest first (the sizes a spin's first frames show), while they fit in the
        // bound without pushing out one of these sizes.
        let low = all.min()!, high = all.max()!
        let halves = all.sorted { a, b in
            let da = min(high - a, a - low), db = min(high - b, b - low)
            return da != db ? da < db : a > b
        }
        for h in halves {
            for i in items.indices where !(theme.iconReplacesLabel && iconSources[i] != nil) {
                let key = LabelKey(item: i, halfPixels: h)
                if labels.contains(key) { continue }
                let mask = fitLabel(key, hasIcon: iconSources[i] != nil)
                let size = labels.bytes(of: mask)
                guard labels.bytes + size <= labels.bound
                    || labels.bytes - labels.bytes(notKept: { all.contains($0.halfPixels) }) + size <= labels.bound
                else { return }
                labels.insert(mask, for: key)
            }
        }
    }

    /// What frames had to build because no cache held it (for the bench: each costs a frame
    /// time), counted since the painter was made.
    var builtInFrames: (sprites: Int, labels: Int, rings: Int) {
        (discs.builtOnDemandCount, labelsBuiltInFrames, ringsBuiltInFrames)
    }
    private var labelsBuiltInFrames = 0, ringsBuiltInFrames = 0

    /// The selection ring around the disc of `sprite`.
    func selectionRing(_ sprite: DiscSprite) -> TextMask {
        let key = Int((sprite.radius * 4).rounded())
        if let cached = rings.get(key) { return cached }
        ringsBuiltInFrames += 1
        let ring = makeRing(radius: sprite.radius)
        rings.insert(ring, for: key)
        return ring
    }

    /// The selection ring around a disc of `radius`.
    private func makeRing(radius: Double) -> TextMask {
        TextMask.ring(inner: radius + 1.5, outer: radius + 1.5 + theme.selectionWidth)
    }

    private func label(_ key: LabelKey, hasIcon: Bool) -> TextMask? {
        if let cached = labels.get(key) { return cached }
        labelsBuiltInFrames += 1
        let mask = fitLabel(key, hasIcon: hasIcon)
        labels.insert(mask, for: key)
        return mask
    }

    private func fitLabel(_ key: LabelKey, hasIcon: Bool) -> TextMask? {
        let r = Double(key.halfPixels) / 2
        let nominal = r * theme.labelSizeRatio * theme.labelScale * (hasIcon ? 0.75 : 1)
        let fit = r * (hasIcon ? 0.5 : 0.84)
        // Too small to read (items collapsing into the hub): no label at all.
        let mask = nominal < 5 ? nil : labelText.fittedMask(items[key.item].label, nominalPx: nominal,
                                                            minPx: min(nominal, theme.minimumLabelPixels), radius: fit)
        return mask
    }

    /// Item `i`'s label in the hub of `g`.
    /// The same items with other texts (another language): their labels are fitted again.
    func setTexts(_ texts: [MenuItem]) {
        items = texts
        labels.removeAll()
        hubLabels.removeAll()
    }

    func hubLabel(_ i: Int, geometry g: DialGeometry) -> TextMask? {
        if let cached = hubLabels[i] { return cached }
        // Tied to the item size so a big hub does not shout, but never below a readable size.
        let nominal = min(g.hubRadius * theme.hubLabelSizeRatio,
                          max(g.itemRadius * theme.hubLabelItemRatio, theme.minimumLabelPixels * 1.6)) * theme.labelScale
        let mask = hubText.fittedMask(items[i].label, nominalPx: nominal, minPx: min(nominal, theme.minimumLabelPixels),
                                      radius: g.hubRadius * 0.78)
        hubLabels[i] = mask
        return mask
    }

    /// Bytes the caches hold: disc sprites, item labels, selection rings, icons at drawn sizes.
    var bytes: (sprites: Int, labels: Int, rings: Int, icons: Int) {
        (discs.bytes, labels.bytes, rings.bytes, icons.bytes)
    }

    /// The font files of the labels and of the hub (after fontconfig resolved the family).
    var fontFiles: [String] { [labelText.shaper.primary.path, hubText.shaper.primary.path] }

    /// Unicode scalars the label renderers shaped so far (the cost of fitting), for tests.
    var shapedScalars: Int { labelText.shapedScalars + hubText.shapedScalars }

    /// Bytes of icon pixels the painter keeps per item (the scaled sources), for tests.
    var iconSourceBytes: [Int] { iconSources.map { $0?.byteCount ?? 0 } }

    /// Item `i`'s icon on a disc of `radius` (a sprite's), nil when it has none or too small.
    func icon(_ i: Int, radius: Double) -> IconSprite? {
        let key = LabelKey(item: i, halfPixels: Int((radius * 2).rounded()))
        if let cached = icons.get(key) { return cached }
        guard let source = iconSources[key.item] else { return nil }
        let box = Int((radius * DialPainter.iconBoxRatio(theme)).rounded())
        guard box >= 2 else { return nil }
        let sprite = IconSprite(source, box: box)
        icons.insert(sprite, for: key)
        return sprite
    }
}

extension DialPainter {
    /// Fixed bounds for the painter's caches (tests, and the bounds before `prepare` sizes
    /// them). The defaults keep a 1920x1080 kiosk's own memory (two frames, the painted one and
    /// the background, with the runtime and fonts) within its goal (docs/measurements.md).
    public struct CacheBounds: Sendable, Equatable {
        public var sprites = DiscSpriteCache.defaultBound
        /// The labels' least bound; `prepare` raises it to what the prepared sprites leave of
        /// `spritesAndLabels` (24 items at 1920x1080 fit every size a spin shows; the demo
        /// menu's 10 long labels do not, and its labels at the sizes not prepared are fitted in
        /// the frames that show them). 3.5 MiB, not 4: the selection rings `prepare` builds take
        /// up to their bound of 512 KiB out of the same memory.
        public var labels = 1 << 20
        public var spritesAndLabels = 3584 << 10
        public var rings = 512 << 10
        public var icons = 1 << 20
        public init() {}
    }
}
