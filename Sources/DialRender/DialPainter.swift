import DialCore
import KioskSeams

/// Paints the dial: background, ring and hub (painted once per geometry and kept), then per
/// frame the selected label in the hub and the items, smallest first so the inflated item at
/// 12 o'clock lies on top of its neighbours.
///
/// Items are drawn from caches (`PainterCaches`, sized to the frame by `prepare`): a colour-free
/// disc-and-shadow sprite per radius step (shared by all items), a label mask per item and label
/// size, an icon per item and size.
/// `paint(_:)` keeps its own frame and only restores the background where the last frame drew.
///
/// A menu with rings inside rings has one painter: one frame and one background, and the items
/// of every ring (their icons loaded, their labels fitted) prepared at setup; the pose names the
/// ring it shows. Below the top ring the hub shows the label of the item that opened the ring.
///
/// A painter owns its FreeType and fontconfig handles and is used from one thread at a time.
public final class DialPainter {
    /// Every item the painter draws: each ring's slots (`MenuTree.slotItems(ofRing:)`), ring
    /// after ring; for a menu without nesting, the menu in the order of `DialPose.items`.
    public private(set) var items: [MenuItem]
    /// Per ring: which of `items` its slots are, and the item whose label the hub shows (nil:
    /// the selected slot's, as on the top ring).
    private let ringSlots: [MenuPath: (slots: [Int], hub: Int?)]
    /// Colours, sizes and fonts.
    public let theme: Theme
    /// Size of the logical (upright) frame, in pixels.
    public let width: Int
    public let height: Int
    /// The frame `paint(_:)` paints into (the shadow buffer that is copied to the screen).
    public private(set) var frame: PixelBuffer

    /// Each item's label colour, light or dark against its disc.
    /// The label and hub text renderers (the caches own them; the live badges draw with them too).
    var labelText: TextRenderer { caches.labelText }
    var hubText: TextRenderer { caches.hubText }
    /// The selected item's description under its label in the hub.
    let hubWords: HubWords
    /// The title, the hint and a round panel's edge, drawn into the background after the
    /// dial's own: kept with it, repainted with it.
    public var words: DialWords?
    private let labelColors: [UInt32]
    /// Each item's disc colour: its own, or the theme's `itemColorOverride`.
    private let discColors: [UInt32]

    /// The background of `box` only: outside it nothing is drawn after the background, so
    /// there the frame keeps it (the box is narrower than a wide panel: megabytes less at 1080p). Kept
    /// as `RunRows`: the hub's face, one colour along each row, costs no pixels. The pointers
    /// the restore reads hold while this value is not replaced (only `ensureBackground` and
    /// `reuseBuffers` replace it).
    private(set) var background = RunRows()
    private var backgroundGeometry: DialGeometry?
    /// The part of the frame per-frame drawing may touch (items, labels, rings, hub label).
    private(set) var box = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
    /// Rectangles where `frame` differs from `background`; nil when `frame` is not painted yet.
    private var dirty: [PixelRect]?
    /// Live items' badges, marks and value dial (LiveDrawing.swift).
    let live = LiveDrawing()

    /// What frames draw from: sprites, labels, selection rings, icons, fonts.
    private let caches: PainterCaches
    /// Disc sprites; `prepare` builds those of the radii a spin draws.
    var discs: DiscSpriteCache { caches.discs }

    /// A painter for one ring of `items` on a `width` x `height` frame. Throws when a font or
    /// an icon cannot be loaded.
    /// `bounds`: fixed bounds for the caches; nil (the default) lets `prepare` size them to the
    /// frame and the work (`cacheBudget`).
    public convenience init(items: [MenuItem], theme: Theme = Theme(), width: Int, height: Int,
                            bounds: CacheBounds? = nil) throws {
        try self.init(items: items, names: items.map(\.id), ringSlots: [.top: (Array(items.indices), nil)],
                      theme: theme, width: width, height: height, icons: IconCache(), bounds: bounds)
    }

    /// A painter for every ring of `menu`. Throws when a font or the icon of any item cannot be
    /// loaded, or the icons' distinct files decode to more than `IconCache.pixelBudget` pixels.
    /// `icons`: decoded icons to reuse (a reload's worker filled it); by default each distinct
    /// file is decoded once for this painter.
    public convenience init(menu: MenuTree, theme: Theme = Theme(), width: Int, height: Int,
                            icons: IconCache = IconCache(), bounds: CacheBounds? = nil) throws {
        var items: [MenuItem] = [], names: [String] = [], byPath: [MenuPath: Int] = [:]
        var ringSlots: [MenuPath: (slots: [Int], hub: Int?)] = [:]
        for ring in menu.ringPaths {
            let paths = menu.slots(ofRing: ring) ?? [], slotItems = menu.slotItems(ofRing: ring) ?? []
            var slots: [Int] = []
            for (path, item) in zip(paths, slotItems) {
                byPath[path] = items.count
                slots.append(items.count)
                items.append(item)
                names.append(path.description)
            }
            // `ringPaths` lists a ring after the ring holding its item.
            ringSlots[ring] = (slots, ring.isTop ? nil : byPath[ring])
        }
        try self.init(items: items, names: names, ringSlots: ringSlots, theme: theme, width: width, height: height,
                      icons: icons, bounds: bounds)
    }

    private init(items: [MenuItem], names: [String], ringSlots: [MenuPath: (slots: [Int], hub: Int?)],
                 theme: Theme, width: Int, height: Int, icons cache: IconCache, bounds given: CacheBounds?) throws {
        precondition(width > 0 && height > 0, "frame size must be positive")
        self.items = items
        self.ringSlots = ringSlots
        self.theme = theme
        self.width = width
        self.height = height
        let largestBox = Self.iconBox(width: width, height: height, theme: theme)
        let paths = items.compactMap(\.iconPath)
        let pixels = IconCache.declaredPixels(paths)
        if pixels > IconCache.pixelBudget {
            throw RenderError(.inputFile, "load the icons of \(paths.count) items",
                              "their distinct files decode to \(pixels) pixels, more than the budget of "
                                  + "\(IconCache.pixelBudget >> 20) megapixels")
        }
        let iconSources: [IconSprite?] = try zip(items, names).map { item, name in
            guard let path = item.iconPath else { return nil }
            do { return try cache.sprite(path, box: largestBox) } catch let e as RenderError {
                throw RenderError(.inputFile, "load the icon of item '\(name)' from \(path)", e.reason)
            }
        }
        labelColors = items.map {
            let disc = theme.itemColorOverride ?? $0.color
            return (disc.luminance >= theme.labelLuminanceThreshold ? theme.darkLabelColor : theme.lightLabelColor).xrgb
        }
        discColors = items.map { (theme.itemColorOverride ?? $0.color).xrgb }
        // Both made by the first `prepare` or `paint`, or taken from the painter this one
        // replaces (`reuseBuffers(of:)`).
        frame = PixelBuffer(width: 1, height: 1)
        caches = try PainterCaches(items: items, theme: theme, width: width, height: height,
                                   ringSizes: ringSlots.values.map(\.slots.count), iconSources: iconSources, bounds: given)
        hubWords = HubWords(text: caches.hubText, theme: theme)
    }

    /// The bounds the caches hold to.
    public var cacheBounds: CacheBounds { caches.bounds }

    /// Paints the background for `geometry`, and builds the disc sprite and every item's label
    /// for each radius `inflate` can give a shown item, now; otherwise the first `paint` does the
    /// background (tens of milliseconds on a large frame, more with long labels), and the frames
    /// of the first spin build the sprites and labels of the sizes they meet (about 1 M
    /// instructions a sprite, 50 k a label), and are late.
    public func prepare(for geometry: DialGeometry, inflate: Inflate = Inflate()) {
        ensureBackground(geometry)
        prepareCaches(for: geometry, inflate: inflate)
    }

    /// What `prepare` builds besides the background: the sprites, labels and selection rings,
    /// which need no frame. A reload's worker calls it off the loop on a painter the loop has
    /// not used yet (the painter is the worker's until it hands it over), so the loop's
    /// `reuseBuffers(of:)` and `prepare` then only paint the background.
    public func prepareCaches(for geometry: DialGeometry, inflate: Inflate = Inflate()) {
        caches.prepare(for: geometry, inflate: inflate)
    }

    /// The budget `prepare` chose (or the fixed bounds the painter was made with), for `bench`.
    public var cacheBudget: CacheBudget { caches.budget }

    /// Takes the frame of `old`, the painter this one replaces (a reload), and drops its
    /// background, when it has the same size and this one has painted nothing yet: call it
    /// before `prepare`, so a reload never holds two frames and two backgrounds. `old` keeps
    /// working: its next frame repaints its background into buffers of its own.
    public func reuseBuffers(of old: DialPainter) {
        guard old !== self, old.width == width, old.height == height, backgroundGeometry == nil,
              frame.width != width || frame.height != height else { return }
        swap(&frame, &old.frame)
        // Built anew by `prepare` (its runs depend on what is painted); the old one's goes now.
        old.background = RunRows()
        old.backgroundGeometry = nil
        old.dirty = nil
    }

    /// Drops the sprites, labels, selection rings and icons at drawn sizes (a few MiB at
    /// 1920x1080); the frame and background stay, and a later `paint` builds what it draws.
    /// Call it on the painter a reload replaces before the new one is built: the new painter's
    /// thousands of small blocks then do not interleave on the heap with the old one's, whose
    /// freeing would leave pages that are partly free and cannot be given back (with both
    /// alive, anonymous memory kept rising across reloads; with the old one's dropped it stays
    /// flat: docs/measurements.md).
    public func dropCaches() {
        caches.removeAll()
    }

    /// Paints `pose` into `frame`, restoring only what the previous frame covered. Returns the
    /// frame's damage: rectangles (they may overlap; `Damage.union` makes them disjoint) holding
    /// every pixel that may differ from the previous `frame` (what the last frame drew and what
    /// this one drew), or nil when all of it may (the first frame, a new geometry).
    @discardableResult
    public func paint(_ pose: DialPose) -> [PixelRect]? {
        ensureBackground(pose.geometry)
        let placed = placements(pose)
        let ops = drawOps(pose, placed)
        let spans = ops.map { op in let r = op.rect; return r.y0..<max(r.y0, r.y1) }
        let opaque = placed.filter { $0.opacity == 255 }.map { p in
            OpaqueDisc(solid: DiscSprite.SolidRows(p.sprite, x: p.x + box.x0, y: p.y + box.y0),
                       rect: p.sprite.rect(atX: p.x + box.x0, y: p.y + box.y0))
        }
        let restored: [PixelRect]?
        if let dirty {
            let rects = Damage.union(dirty, width: width, height: height)
            // Band by band, so what the restore wrote is still in the CPU's cache when the
            // blits read it back (a 1080p spin restores and blends megabytes a frame).
            for top in stride(from: 0, to: box.y1 - box.y0, by: Self.bandRows) {
                let rows = top..<min(top + Self.bandRows, box.y1 - box.y0)
                withExtendedLifetime(placed) {
                    restore(rects, rows: (rows.lowerBound + box.y0)..<(rows.upperBound + box.y0), under: opaque)
                }
                draw(ops, spans: spans, into: &frame, rows: rows)
            }
            // What the last frame drew, as it drew it: the copier's union makes it disjoint
            // together with the frames before (a union's bands would only add rectangles).
            restored = dirty
        } else {
            restored = nil
            restoreBox(into: &frame)
            draw(ops, spans: spans, into: &frame, rows: 0..<(box.y1 - box.y0))
        }
        let drawn = touched(by: ops)
        dirty = drawn
        // Only live states changed: the rest of the frame is painted as it was.
        let stateOnly = live.stateOnlyDamage(pose, theme: theme, width: width, height: height)
        return restored.map { stateOnly ?? ($0 + drawn) }
    }

    /// Fetches what `paint(pose)` would draw (building what no cache holds, as a frame does)
    /// without drawing it: what tests of a spin on a large frame count.
    func lookUp(_ pose: DialPose) {
        _ = drawOps(pose, placements(pose))
    }

    /// Paints `pose` into `buffer` (of the painter's size) from scratch.
    public func paint(_ pose: DialPose, into buffer: inout PixelBuffer) {
        precondition(buffer.width == width && buffer.height == height, "buffer size differs from the painter's")
        ensureBackground(pose.geometry)
        // Outside the box the frame holds the background.
        buffer.copyRect(from: frame, PixelRect(x0: 0, y0: 0, x1: width, y1: height))
        restoreBox(into: &buffer)
        let ops = drawOps(pose, placements(pose))
        draw(ops, spans: ops.map { _ in Int.min..<Int.max }, into: &buffer, rows: 0..<(box.y1 - box.y0))
    }

    // MARK: - Background

    private func ensureBackground(_ g: DialGeometry) {
        guard backgroundGeometry != g else { return }
        backgroundGeometry = g
        dirty = nil
        caches.geometryChanged()
        box = Self.drawingBox(g, theme: theme, width: width, height: height)
        // Painted into the frame (all of it is repainted now), then the box kept: no second
        // frame-sized buffer, even for a moment.
        var b = PixelBuffer(width: 1, height: 1)
        swap(&b, &frame)
        if b.width != width || b.height != height { b = PixelBuffer(width: width, height: height) }
        b.fillVerticalGradient(top: theme.backgroundTop, bottom: theme.backgroundBottom)
        let c = g.center
        let half = theme.ringWidthRatio * g.itemRadius / 2
        let inner = g.ringRadius - half, outer = g.ringRadius + half
        // A soft glow behind the dial lifts it off the background.
        b.paintRadial(center: c, reach: outer * 1.6, color: theme.glowColor) { d in
            Coverage.softDisc(distance: d, radius: outer * 0.95, blur: outer * 0.6) * theme.glowOpacity
        }
        // The track's own soft shadow, a band slightly below it (a disc shadow would darken the
        // whole inside of the ring).
        let blur = half * 0.3
        b.paintRadial(center: Point(x: c.x, y: c.y + half * 0.12), reach: outer + blur + 2, hole: inner - blur - 1,
                      color: RGBColor(hex: 0)) { d in
            Coverage.softDisc(distance: d, radius: outer, blur: blur)
                * (1 - Coverage.softDisc(distance: d, radius: inner, blur: blur)) * 0.45
        }
        b.strokeRing(center: c, inner: inner, outer: outer, color: theme.ringColor)
        b.strokeRing(center: c, inner: outer - 1.2, outer: outer, color: theme.ringEdgeColor, opacity: 0.8)
        b.strokeRing(center: c, inner: inner, outer: inner + 1.2, color: theme.ringEdgeColor, opacity: 0.5)
        let hub = g.hubRadius
        b.dropShadow(center: Point(x: c.x, y: c.y + hub * 0.03), radius: hub, blur: hub * 0.08, opacity: 0.6)
        b.fillDisc(center: c, radius: hub, top: theme.hubColor.mixed(with: theme.hubRimColor, 0.22),
                   bottom: theme.hubColor.mixed(with: RGBColor(hex: 0), 0.3))
        // A rim, and a hairline inside the rim.
        b.strokeRing(center: c, inner: hub - 3, outer: hub, color: theme.hubRimColor)
        b.strokeRing(center: c, inner: hub - 6, outer: hub - 4.8, color: theme.hubRimColor, opacity: 0.35)
        words?.paint(into: &b, geometry: g)
        frame = b
        // The old one goes first: never two backgrounds at once.
        background = RunRows()
        background = RunRows(frame, rect: box)
        caches.warm(g)
    }

    /// Writes the background of the whole drawing box into `buffer` (of the painter's size).
    private func restoreBox(into buffer: inout PixelBuffer) {
        let bx = box.x0, by = box.y0, w = box.x1 - box.x0, pitch = buffer.rowPitch
        let bg = background.reader
        defer { withExtendedLifetime(background) {} }
        buffer.withUnsafeMutablePixels { d in
            for y in 0..<(box.y1 - box.y0) { bg.restore(row: y, from: 0, to: w, into: d + (y + by) * pitch + bx) }
        }
    }

    /// Where per-frame drawing may land for `g`: around the ring by the largest disc with its
    /// shadow and selection ring, with room for the show animation's overshoot (items fly up
    /// to 10% of the ring radius past their place: 15% here) and discs up to 1.66 item radii
    /// (the inflate range ends at 1.33). Drawing is clipped to it. The whole frame when the
    /// box would be most of it.
    static func drawingBox(_ g: DialGeometry, theme: Theme, width: Int, height: Int) -> PixelRect {
        let disc = g.itemRadius * 1.66
        let reach = g.ringRadius * 1.15 + disc * (1 + theme.shadowBlurRatio + abs(theme.shadowOffsetRatio))
            + theme.selectionWidth + 8
        let c = g.center
        let box = PixelRect(x0: Int((c.x - reach).rounded(.down)), y0: Int((c.y - reach).rounded(.down)),
                            x1: Int((c.x + reach).rounded(.up)), y1: Int((c.y + reach).rounded(.up)))
            .clipped(width: width, height: height)
        guard !box.isEmpty, box.area * 10 < width * height * 9 else { return PixelRect(x0: 0, y0: 0, x1: width, y1: height) }
        return box
    }

    // MARK: - Per-frame drawing

    /// Rows of the drawing box restored and drawn together (a band of a 1080p box that stays
    /// inside a core's L2 cache; chosen with `bench` against 64 and 32 rows, docs/measurements.md).
    static let bandRows = 128

    /// One item disc as a frame draws it: `index` into the pose's items, the centre in the
    /// drawing box's coordinates.
    private struct Placement {
        let index: Int
        let sprite: DiscSprite
        let x: Int, y: Int
        let opacity: UInt32
    }

    /// The discs `pose` draws, in drawing order (smallest first), their sprites fetched.
    private func placements(_ pose: DialPose) -> [Placement] {
        let slots = (ringSlots[pose.ring] ?? ([], nil)).slots
        let order = pose.items.indices.filter { $0 < slots.count }.sorted { pose.items[$0].scale < pose.items[$1].scale }
        let g = pose.geometry
        return order.compactMap { i in
            let ip = pose.items[i]
            let radius = g.itemRadius * ip.scale
            let opacity = PixelMath.byte(ip.alpha)
            guard opacity > 0, radius >= 1 else { return nil }
            return Placement(index: i, sprite: caches.discs.sprite(radius: radius),
                             x: Int(ip.center.x.rounded()) - box.x0, y: Int(ip.center.y.rounded()) - box.y0, opacity: opacity)
        }
    }

    /// Copies the background back into the disjoint `rects` of the frame, except under the
    /// opaque middles of the discs about to be drawn at full opacity: those pixels are set
    /// whatever they held (the discs drawn before only blend into them), so restoring them
    /// first would write them twice. A spin's discs move a few pixels a frame, so most of what
    /// the last frame drew is under this frame's discs.
    private func restore(_ rects: [PixelRect], rows: Range<Int>, under opaque: [OpaqueDisc]) {
        let bx = box.x0, by = box.y0
        let dp = frame.rowPitch
        var spans: [(Int, Int)] = [], over: [OpaqueDisc] = []
        let s = background.reader
        defer { withExtendedLifetime(background) {} }
        frame.withUnsafeMutablePixels { d in
            for r in rects where r.y0 < rows.upperBound && r.y1 > rows.lowerBound {
                over.removeAll(keepingCapacity: true)
                for p in opaque where p.rect.x0 < r.x1 && r.x0 < p.rect.x1 && p.rect.y0 < r.y1 && r.y0 < p.rect.y1 {
                    over.append(p)
                }
                for y in max(r.y0, rows.lowerBound)..<min(r.y1, rows.upperBound) {
                    spans.removeAll(keepingCapacity: true)
                    for p in over {
                        if let span = p.solid.span(row: y) { spans.append(span) }
                    }
                    if spans.count > 1 { spans.sort { $0.0 < $1.0 } }
                    let dst = d + y * dp, row = y - by
                    var x = r.x0
                    for (a, b) in spans where b > x {
                        if a > x { s.restore(row: row, from: x - bx, to: min(a, r.x1) - bx, into: dst + x) }
                        x = b
                        if x >= r.x1 { break }
                    }
                    if x < r.x1 { s.restore(row: row, from: x - bx, to: r.x1 - bx, into: dst + x) }
                }
            }
        }
    }

    /// A disc drawn at full opacity, in frame coordinates, for `restore`. The sprite is held by
    /// the frame's placements; not retaining it here keeps reference counting out of the
    /// restore's row loop (it was a tenth of a 1080p frame's time).
    private struct OpaqueDisc {
        let solid: DiscSprite.SolidRows
        let rect: PixelRect
    }

    /// One blit of a frame, in the drawing box's coordinates.
    enum DrawOp {
        case disc(DiscSprite, x: Int, y: Int, color: UInt32, opacity: UInt32)
        case mask(TextMask, x: Int, y: Int, color: UInt32, alpha: UInt32)
        case icon(IconSprite, x: Int, y: Int, opacity: UInt32)

        /// The pixels it may touch, in the box's coordinates.
        var rect: PixelRect {
            switch self {
            case .disc(let s, let x, let y, _, _): return s.rect(atX: x, y: y)
            case .mask(let m, let x, let y, _, _): return m.rect(atX: x, y: y)
            case .icon(let i, let x, let y, _): return i.rect(atX: x, y: y)
            }
        }
    }

    /// What `pose` draws over the background, in drawing order: the hub label, then per disc
    /// (smallest first) the disc, its selection ring and its icon and label.
    private func drawOps(_ pose: DialPose, _ placed: [Placement]) -> [DrawOp] {
        var ops: [DrawOp] = []
        let g = pose.geometry
        // A ring this painter was not made for has nothing to draw.
        let ring = ringSlots[pose.ring] ?? ([], nil)
        let slots = ring.slots
        let hubItem = ring.hub ?? pose.selected.flatMap { slots.indices.contains($0) ? slots[$0] : nil }
        if let hubItem, pose.visibility > 0, pose.valueDial == nil, ring.hub == nil,
           let words = hubWords.masks(hubItem, label: items[hubItem].label, description: items[hubItem].description, geometry: g) {
            // A description takes the lower part of the hub, the label moves up.
            let x = Int(g.center.x.rounded()) - box.x0, y = Int(g.center.y.rounded()) - box.y0
            let alpha = PixelMath.byte(pose.visibility)
            ops.append(.mask(words.label, x: x, y: y + words.labelDY, color: theme.hubTextColor.xrgb, alpha: alpha))
            ops.append(.mask(words.description, x: x, y: y + words.descriptionDY, color: theme.hubTextColor.xrgb, alpha: alpha))
        } else if let hubItem, pose.visibility > 0, pose.valueDial == nil, let mask = caches.hubLabel(hubItem, geometry: g) {
            ops.append(.mask(mask, x: Int(g.center.x.rounded()) - box.x0, y: Int(g.center.y.rounded()) - box.y0,
                             color: theme.hubTextColor.xrgb, alpha: PixelMath.byte(pose.visibility)))
        }
        hubLiveOps(pose, &ops)
        for placement in placed {
            let i = placement.index, ip = pose.items[i]
            let x = placement.x, y = placement.y, opacity = placement.opacity, sprite = placement.sprite
            let state = i < pose.states.count ? pose.states[i] : nil
            ops.append(.disc(sprite, x: x, y: y, color: liveDiscColor(discColors[slots[i]], state), opacity: opacity))
            if i == pose.selected {
                let strength = selectionStrength(pose, i)
                if strength > 0 && theme.selectionWidth > 0 {
                    ops.append(.mask(caches.selectionRing(sprite), x: x, y: y, color: theme.selectionColor.xrgb,
                                     alpha: PixelMath.byte(strength * ip.alpha)))
                }
            }
            contentOps(slots[i], radius: sprite.radius, x: x, y: y, opacity: liveLabelAlpha(opacity, state), &ops)
            badgeOps(state, item: slots[i], radius: sprite.radius, x: x, y: y, opacity: opacity, &ops)
        }
        return ops
    }

    /// Runs `ops`, whose rows are `spans` (`y0 ..< y1` of each op's rect), on the rows `rows` of
    /// the drawing box in `buffer` (the blits clip to them). An op outside the rows is passed
    /// over without touching its payload (a mask holds four arrays to retain and release).
    private func draw(_ ops: [DrawOp], spans: [Range<Int>], into buffer: inout PixelBuffer, rows: Range<Int>) {
        let pitch = buffer.rowPitch, w = box.x1 - box.x0, h = rows.count, top = rows.lowerBound
        guard h > 0 else { return }
        let bx = box.x0, by = box.y0
        buffer.withUnsafeMutablePixels { frame in
            let p = frame + (by + top) * pitch + bx
            for k in ops.indices where spans[k].overlaps(rows) {
                switch ops[k] {
                case .disc(let s, let x, let y, let color, let opacity):
                    s.blit(into: p, pitch: pitch, clipWidth: w, clipHeight: h, x: x, y: y - top, color: color, opacity: opacity)
                case .mask(let m, let x, let y, let color, let alpha):
                    m.blit(into: p, pitch: pitch, clipWidth: w, clipHeight: h, x: x, y: y - top, color: color, alpha: alpha)
                case .icon(let i, let x, let y, let opacity):
                    i.blit(into: p, pitch: pitch, clipWidth: w, clipHeight: h, x: x, y: y - top, opacity: opacity)
                }
            }
        }
    }

    /// The frame rectangles `ops` touch, clipped to the drawing box: a disc's as bands that leave
    /// out its square's corners; what is drawn inside the disc drawn last (its label, icon,
    /// selection ring) not again.
    private func touched(by ops: [DrawOp]) -> [PixelRect] {
        let bx = box.x0, by = box.y0, w = box.x1 - box.x0, h = box.y1 - box.y0
        var out: [PixelRect] = [], bands: [PixelRect] = []
        func add(_ r: PixelRect) {
            let c = r.clipped(width: w, height: h)
            if !c.isEmpty { out.append(PixelRect(x0: c.x0 + bx, y0: c.y0 + by, x1: c.x1 + bx, y1: c.y1 + by)) }
        }
        for op in ops {
            if case .disc(let s, let x, let y, _, _) = op {
                bands.removeAll(keepingCapacity: true)
                // Cut on the frame's rows: a turned copy goes in strips of 16 panel columns
                // (frame rows) from a multiple of 16, and a band that straddles strips leaves
                // narrow ones, copied a pixel at a time.
                // A disc of a few grid rows keeps its square: on a small frame its corners save
                // less than the extra rectangles cost the unions and the restore's rows.
                if s.size < 4 * Self.damageGrid {
                    bands.append(s.rect(atX: x, y: y))
                } else {
                    s.inkBands(atX: x, y: y + by, grid: Self.damageGrid, into: &bands)
                    for i in bands.indices { bands[i].y0 -= by; bands[i].y1 -= by }
                }
                bands.forEach(add)
            } else if !Self.held(op.rect, by: bands) {
                add(op.rect)
            }
        }
        return out
    }

    /// Rows of the grid a disc's bands are cut on (`DiscSprite.inkBands`), a multiple of the
    /// turned copy's 16-column strips.
    static let damageGrid = 32

    /// True when the bands (top to bottom, disjoint) hold every pixel of `r`.
    private static func held(_ r: PixelRect, by bands: [PixelRect]) -> Bool {
        var y = r.y0
        for b in bands where b.y1 > y {
            guard b.y0 <= y, b.x0 <= r.x0, r.x1 <= b.x1 else { return false }
            y = b.y1
            if y >= r.y1 { return true }
        }
        return r.isEmpty
    }

    /// The item's icon and label inside its disc.
    private func contentOps(_ i: Int, radius: Double, x: Int, y: Int, opacity: UInt32, _ ops: inout [DrawOp]) {
        var labelY = y
        if caches.hasIcon(i), let icon = caches.icon(i, radius: radius) {
            let iy = theme.iconReplacesLabel ? y : y - Int((radius * 0.22).rounded())
            ops.append(.icon(icon, x: x, y: iy, opacity: opacity))
            if theme.iconReplacesLabel { return }
            labelY = y + Int((radius * 0.5).rounded())
        }
        if let mask = caches.itemLabel(i, radius: radius) {
            ops.append(.mask(mask, x: x, y: labelY, color: labelColors[i], alpha: opacity))
        }
    }

    /// 0...1: how close the selected item is to 12 o'clock, reaching 0 half-way to a neighbour,
    /// where the selection passes on, so the ring never pops. Uses the half-angle identity on
    /// the directions to the neighbouring item instead of trigonometry.
    private func selectionStrength(_ pose: DialPose, _ i: Int) -> Double {
        let n = pose.items.count
        guard n >= 2 else { return 1 }
        let c = pose.geometry.center
        func direction(_ k: Int) -> (Double, Double)? {
            let dx = pose.items[k].center.x - c.x, dy = pose.items[k].center.y - c.y
            let d = (dx * dx + dy * dy).squareRoot()
            return d > 1e-6 ? (dx / d, dy / d) : nil
        }
        guard let u = direction(i), let v = direction((i + 1) % n) else { return 0 }
        let cosSpacing = u.0 * v.0 + u.1 * v.1
        let cosHalf = ((1 + cosSpacing) / 2).squareRoot()
        let cosToTop = -u.1
        guard cosHalf < 1 else { return 1 }
        let t = max(0, min(1, (cosToTop - cosHalf) / (1 - cosHalf) * 1.6))
        return t * t * (3 - 2 * t)
    }

    // MARK: - Caches

    /// Pixels of radius between two label sizes, as the last `prepare` chose (0.5: every size).
    public var labelSizeStep: Double { caches.labelSizeStep }

    /// The size (half pixels of radius) whose label a disc of `radius` shows, for tests.
    func labelHalfPixels(radius: Double) -> Int { caches.labelHalfPixels(radius: radius) }

    /// What frames had to build because no cache held it (for the bench: each costs a frame
    /// time), counted since the painter was made.
    public var builtInFrames: (sprites: Int, labels: Int, rings: Int) { caches.builtInFrames }

    /// Shows `texts` (the same items in another language; only their texts differ) from the
    /// next frame on: the labels are fitted again, the background with its title and hint is
    /// repainted (that frame's damage is the whole frame). Nothing else changes.
    public func setTexts(_ texts: [MenuItem]) {
        precondition(texts.count == items.count, "one text per item")
        items = texts
        caches.setTexts(texts)
        hubWords.removeAll()
        backgroundGeometry = nil
    }

    /// Bytes the painter's caches hold: disc sprites, item labels, selection rings, icons at
    /// drawn sizes (frames and background not counted: two frames' worth).
    public var cacheBytes: (sprites: Int, labels: Int, rings: Int, icons: Int) { caches.bytes }

    /// An icon's box as a fraction of its disc's radius.
    static func iconBoxRatio(_ theme: Theme) -> Double { theme.iconReplacesLabel ? 1.15 : 0.85 }

    /// The square every icon is scaled to fit once, at build: the largest it can be drawn on a
    /// `width` x `height` frame (a disc never outgrows the frame's short side, so neither does
    /// its icon). A reload's worker decodes at this box ahead of the painter.
    public static func iconBox(width: Int, height: Int, theme: Theme) -> Int {
        Int((Double(min(width, height)) / 2 * iconBoxRatio(theme)).rounded(.up))
    }

    /// The font files of the labels and of the hub (after fontconfig resolved the family).
    public var fontFiles: [String] { caches.fontFiles }

    /// Unicode scalars the label renderers shaped so far (the cost of fitting), for tests.
    var shapedScalars: Int { caches.shapedScalars }

    /// Bytes of icon pixels the painter keeps per item (the scaled sources), for tests.
    var iconSourceBytes: [Int] { caches.iconSourceBytes }
}
