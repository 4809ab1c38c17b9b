import DialCore
import DialRender
import KioskConfiguration
import KioskLoop
import KioskSeams
import KioskFeatures

/// `run`'s scenes, each by the one recipe (SceneRecipe): a configuration as `--items` leaves
/// it, laid out at the mode's size now (a hotplug may have set a new one) and turned onto the
/// panel. A reload's
/// scene is prepared on the reload's worker (`preparation`): icons decoded, the painter built
/// with its caches and background; the loop then only makes the dial and swaps.
package final class RunScenes: SceneBuilding {
    private let recipe: SceneRecipe
    /// Decoded icons, each distinct file once; a reload's worker fills it off the loop.
    private let icons: IconCache
    /// The painter on the screen: it drops its caches when a reload starts (see `preparation`),
    /// and a new mode's painter takes its frame and background.
    private let shown = SceneRecipe.ShownPainter()
    /// The mode's size now, in panel pixels.
    private let panelSize: () -> (width: Int, height: Int)
    package let preparesOffTheLoop: Bool
    /// Each painted frame also goes here (the remote view, when there is one).
    let tap = FrameTap()

    /// `offTheLoop`: false prepares a reload in the turn that asked (tests that step by hand).
    init(items: Int?, painter: PainterChoice, rotation: DisplayRotation,
         panelSize: @escaping () -> (width: Int, height: Int), icons: IconCache = IconCache(), offTheLoop: Bool = true) {
        recipe = SceneRecipe(rotation: rotation, painter: painter, items: items)
        self.icons = icons
        preparesOffTheLoop = offTheLoop
        self.panelSize = panelSize
    }

    package func adjusted(_ config: KioskConfig) -> KioskConfig { recipe.adjusted(config) }

    /// The layout of `config` at the mode's size now.
    private func setup(_ config: KioskConfig, language: String? = nil) -> DialSetup {
        let panel = panelSize()
        return recipe.setup(config, panelWidth: panel.width, panelHeight: panel.height, language: language)
    }

    package func scene(for config: KioskConfig, resting: SceneResting) throws -> Scene? { try build(config, resting) }

    /// The scene of `config` (adjusted already) at the mode's size now, built here (the start,
    /// a new mode).
    func build(_ config: KioskConfig, _ resting: SceneResting) throws -> Scene {
        try build(setup(config), resting, prepared: nil)
    }

    /// The scene of `setup` on the painter `prepared` (nil: built here).
    private func build(_ setup: DialSetup, _ resting: SceneResting, prepared: DialPainter?) throws -> Scene {
        try recipe.scene(setup, resting: resting, icons: icons, replacing: shown, prepared: prepared, tap: tap)
    }

    package func preparation() -> ((KioskConfig, String?) throws -> PreparedScene)? {
        let panel = panelSize()
        // The painter on screen gives up its caches before the worker builds the new ones
        // (otherwise the two interleave on the heap, and the old one's freed pages stay partly
        // used); while the reload is prepared a resting dial paints nothing, a moving one
        // rebuilds what it draws.
        shown.painter?.dropCaches()
        let icons = self.icons, recipe = self.recipe
        return { [self] config, language in
            // On the reload's worker: plain values, the Sendable icon cache, and a painter no
            // other thread sees until the loop takes it in `make`.
            let setup = recipe.setup(config, panelWidth: panel.width, panelHeight: panel.height, language: language)
            let job = setup.iconJob
            icons.warm(paths: job.paths, box: job.box)
            let painter = recipe.painter == .dial ? try setup.makePreparedPainter(icons: icons) : nil
            return PreparedScene(language: language) { top in
                // On the loop.
                let index = top.flatMap { id in config.items.firstIndex { $0.id == id } }
                guard self.panelSize() == panel else {
                    // A new mode came while it was prepared: built again at the new size, here.
                    return try self.build(self.setup(config, language: language), .index(index), prepared: nil)
                }
                // The old menu's icons go; the new painter holds its own.
                icons.keepOnly(paths: job.paths, box: job.box)
                return try self.build(setup, .index(index), prepared: painter)
            }
        }
    }
}
