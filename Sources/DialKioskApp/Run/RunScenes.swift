import DialCore
import DialRender
import KioskConfiguration
import KioskLoop
import KioskSeams
import KioskServiceKit

/// `run`'s scenes: a configuration as `--items` leaves it, painted through DialSetup at the
/// mode's size now (a hotplug may have set a new one) and turned onto the panel. A reload's
/// scene is prepared on the reload's worker (`preparation`): icons decoded, the painter built
/// with its caches and background; the loop then only makes the dial and swaps.
final class RunScenes: SceneBuilding {
    private let items: Int?
    private let painter: PainterChoice
    private let rotation: DisplayRotation
    /// Decoded icons, each distinct file once; a reload's worker fills it off the loop.
    private let icons: IconCache
    /// The painter on the screen: it drops its caches when a reload starts (see `preparation`),
    /// and a new mode's painter takes its frame and background.
    private let shown = RunSession.ShownPainter()
    /// The logical (upright) frame size of the mode now.
    private let logicalSize: () -> (width: Int, height: Int)
    let preparesOffTheLoop: Bool
    /// Each painted frame also goes here (the remote view, when there is one).
    let tap = FrameTap()

    convenience init(options: RunOptions, output: RunOutput) {
        self.init(items: options.items, painter: options.painter, rotation: output.rotation, panelSize: output.panelSize)
    }

    /// `offTheLoop`: false prepares a reload in the turn that asked (tests that step by hand).
    init(items: Int?, painter: PainterChoice, rotation: DisplayRotation,
         panelSize: @escaping () -> (width: Int, height: Int), icons: IconCache = IconCache(), offTheLoop: Bool = true) {
        self.items = items
        self.painter = painter
        self.rotation = rotation
        self.icons = icons
        preparesOffTheLoop = offTheLoop
        logicalSize = {
            let panel = panelSize()
            let logical = rotation.logicalSize(panelWidth: panel.width, panelHeight: panel.height)
            return (logical.width, logical.height)
        }
    }

    func adjusted(_ config: KioskConfig) -> KioskConfig {
        var config = config
        if let items { config.items = DemoMenu.numbered(items) }
        return config
    }

    func scene(for config: KioskConfig, resting: SceneResting) throws -> Scene? { try build(config, resting) }

    /// The scene of `config` (adjusted already) at the mode's size now, built here (the start,
    /// a new mode).
    func build(_ config: KioskConfig, _ resting: SceneResting) throws -> Scene {
        let size = logicalSize()
        return try build(DialSetup(config: config, width: size.width, height: size.height), resting, prepared: nil)
    }

    /// The scene of `setup` on the painter `prepared` (nil: built here).
    private func build(_ setup: DialSetup, _ resting: SceneResting, prepared: DialPainter?) throws -> Scene {
        try RunSession.scene(setup, resting: resting, rotation: rotation, painter: painter, icons: icons,
                             replacing: shown, prepared: prepared, tap: tap)
    }

    func preparation() -> ((KioskConfig, String?) throws -> PreparedScene)? {
        let size = logicalSize()
        // The painter on screen gives up its caches before the worker builds the new ones
        // (otherwise the two interleave on the heap, and the old one's freed pages stay partly
        // used); while the reload is prepared a resting dial paints nothing, a moving one
        // rebuilds what it draws.
        shown.painter?.dropCaches()
        let icons = self.icons, choice = painter
        return { [self] config, language in
            // On the reload's worker: plain values, the Sendable icon cache, and a painter no
            // other thread sees until the loop takes it in `make`.
            let setup = DialSetup(config: config, width: size.width, height: size.height, language: language)
            let job = setup.iconJob
            icons.warm(paths: job.paths, box: job.box)
            let painter = choice == .dial ? try setup.makePreparedPainter(icons: icons) : nil
            return PreparedScene(language: language) { top in
                // On the loop.
                let index = top.flatMap { id in config.items.firstIndex { $0.id == id } }
                let now = self.logicalSize()
                guard now == size else {
                    // A new mode came while it was prepared: built again at the new size, here.
                    return try self.build(DialSetup(config: config, width: now.width, height: now.height, language: language),
                                          .index(index), prepared: nil)
                }
                // The old menu's icons go; the new painter holds its own.
                icons.keepOnly(paths: job.paths, box: job.box)
                return try self.build(setup, .index(index), prepared: painter)
            }
        }
    }
}
