import DialCore
import DialRender
import KioskConfiguration
import KioskFeatures

/// What one configuration makes for one frame: the dial's parameters and the painter's theme.
/// `run`, `render` and `simulate` all build from here, so the same file and the same state give
/// the same picture everywhere (the VM test compares `run`'s scanout with `render`).
package struct DialSetup: Sendable {
    package let config: KioskConfig
    /// The logical (upright) frame the dial is laid out on.
    package let width: Int
    package let height: Int
    package let menu: MenuTree
    /// The language the texts are shown in (nil: the default).
    let language: String?

    /// `menu` replaces the configuration's (tests of nesting, until the parser reads it).
    package init(config: KioskConfig, width: Int, height: Int, menu: MenuTree? = nil, language: String? = nil) {
        self.config = config
        self.width = width
        self.height = height
        self.language = language
        self.menu = (menu ?? config.menu).translated(to: language)
    }

    /// The top ring's items.
    var items: [MenuItem] { menu.top.map(\.item) }

    /// Where every ring sits: one geometry, fitted to the ring with the most slots. The track
    /// keeps its size across a ring change, and the painter keeps one background and one set of
    /// fitted labels (another geometry repaints the background and refits every label, tens of
    /// milliseconds that would land in the middle of the change).
    package var geometry: DialGeometry {
        .fitting(width: width, height: height, count: menu.largestRing, maxScale: config.physics.inflate.maxScale,
                 shape: config.display.shape)
    }

    /// A dial at rest on top item `index` (the default item when nil).
    package func makeDial(restingOn index: Int? = nil) -> MenuDial {
        makeDial(at: index.flatMap { menu.top.indices.contains($0) ? MenuPath([menu.top[$0].id]) : nil })
    }

    /// A dial at rest on slot `path` (the default item when nil).
    func makeDial(at path: MenuPath?) -> MenuDial {
        let geometry = self.geometry
        let dial = MenuDial(tree: menu, geometry: { _ in geometry }, physics: config.physics.motion,
                            inflate: config.physics.inflate, screen: (Double(width), Double(height)),
                            defaultItem: config.defaultPath?.ids.first, restingOn: path ?? config.defaultPath,
                            startHidden: config.startsHidden)
        dial.language = language
        if config.display.shape == .round { dial.glass = RoundFrame(width: width, height: height) }
        return dial
    }

    /// The pose `render` paints: ring `ring` turned by `rotation`, the show animation frozen at
    /// `showProgress` (nil: fully shown).
    package func pose(rotation: Double, showProgress: Double? = nil, ring: MenuPath = .top) -> DialPose {
        let count = menu.slots(ofRing: ring)?.count ?? 0
        let builder = PoseBuilder(layout: DialLayout(count: count), geometry: geometry, inflate: config.physics.inflate)
        var pose: DialPose
        if let p = showProgress {
            pose = builder.pose(rotation: rotation, visibility: .showing(since: 0), time: p * builder.reveal.totalDuration)
        } else {
            pose = builder.pose(rotation: rotation, visibility: .shown, time: 0)
        }
        pose.ring = ring
        return pose
    }

    /// The rotation at which ring `ring` rests when it opens for the first time: its first item
    /// at the top, as the dial puts it.
    package func restRotation(ofRing ring: MenuPath) -> Double {
        let first = menu.slots(ofRing: ring)?.first { !$0.isBack }
        return makeDial(at: first).rotation
    }

    /// The icon files of every ring and the box the painter fits them to: what a reload's worker
    /// decodes ahead of the painter (plain data, handed to another thread).
    var iconJob: (paths: [String], box: Int) {
        (menu.everyItem.compactMap(\.item.iconPath), DialPainter.iconBox(width: width, height: height, theme: theme))
    }

    /// The configured theme, its label size resolved for this geometry.
    package var theme: Theme { config.theme.sized(forItemRadius: geometry.itemRadius) }

    /// The painter for this configuration, with its icons and fonts loaded and its background
    /// and labels prepared (so no frame pays for them). `check-config` builds it too: whatever
    /// `run` would refuse, it refuses.
    /// `icons`: decoded icons to reuse (the kiosk's, which a reload's worker fills ahead of the
    /// build); by default each distinct icon file is decoded once for this painter.
    /// `replacing`: the painter the new one replaces (a reload), whose frame and background it
    /// takes when the sizes match.
    package func makePainter(icons: IconCache = IconCache(), replacing old: DialPainter? = nil) throws -> DialPainter {
        old?.dropCaches()
        return try finish(makeUnpaintedPainter(icons: icons), replacing: old)
    }

    /// The painter with its fonts, icons, sprites, labels and rings, but no frame yet (`finish`
    /// then paints the background). The painter it will replace should have dropped its caches
    /// first (`makePainter` does; `run`'s reload asks the shown painter to when it starts).
    func makeUnpaintedPainter(icons: IconCache = IconCache()) throws -> DialPainter {
        let painter = try DialPainter(menu: menu, theme: theme, width: width, height: height, icons: icons)
        painter.words = try makeWords()
        painter.prepareCaches(for: geometry)
        return painter
    }

    /// The painter with everything prepared, its background too, on a frame of its own: what a
    /// reload's worker builds off the loop, so the loop only swaps it in.
    /// The same steps as `makePainter`, so a reloaded menu paints the pixels `render` paints.
    func makePreparedPainter(icons: IconCache) throws -> DialPainter {
        try finish(makeUnpaintedPainter(icons: icons))
    }

    /// The title, the hint and a round panel's edge in `language`; nil when there are none.
    func makeWords() throws -> DialWords? {
        let texts = config.texts
        guard texts.title != nil || texts.hint != nil || config.display.shape == .round else { return nil }
        return try DialWords(theme: theme, shape: config.display.shape, maxScale: config.physics.inflate.maxScale,
                             title: texts.title, hint: texts.hint, language: language)
    }

    /// `painter` (from `makeUnpaintedPainter` for this setup) with the frame and background of
    /// `old`, the painter it replaces, when the sizes match, and its background painted.
    func finish(_ painter: DialPainter, replacing old: DialPainter? = nil) -> DialPainter {
        if let old { painter.reuseBuffers(of: old) }
        painter.prepare(for: geometry)
        return painter
    }
}
