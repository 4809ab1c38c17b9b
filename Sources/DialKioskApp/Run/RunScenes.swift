import DialCore
import DialRender
import KioskConfiguration
import KioskLoop
import KioskSeams
import KioskServiceKit

/// `run`'s scenes: a configuration as `--items` leaves it, painted through DialSetup at the
/// mode's size now (a hotplug may have set a new one) and turned onto the panel. The decoded
/// icons are shared with the reload worker, which fills them off the loop.
final class RunScenes: SceneBuilding {
    private let items: Int?
    private let painter: PainterChoice
    private let rotation: DisplayRotation
    private let icons: IconCache
    /// The painter a reload's worker built off the loop.
    private let shelf: PainterShelf
    /// The painter on the screen: a reload's or a new mode's painter takes its frame and
    /// background (at the same size), so a reload holds one frame, not two.
    private let shown = RunSession.ShownPainter()
    /// The configuration as painted, at the mode's size now.
    private let setup: (KioskConfig) -> DialSetup
    let reloadWorker: ReloadWorker?
    /// Each painted frame also goes here (the remote view, when there is one).
    let tap = FrameTap()

    init(options: RunOptions, output: RunOutput) {
        items = options.items
        painter = options.painter
        let rotation = output.rotation, panelSize = output.panelSize
        self.rotation = rotation
        let setup = { (config: KioskConfig) -> DialSetup in
            let panel = panelSize()
            let logical = rotation.logicalSize(panelWidth: panel.width, panelHeight: panel.height)
            return DialSetup(config: config, width: logical.width, height: logical.height)
        }
        self.setup = setup
        // Decoded icons, each distinct file once; a reload's worker fills it off the loop.
        let icons = IconCache()
        self.icons = icons
        // The worker builds the new painter too, at the mode's size when the reload started;
        // the scene build takes it when the size is still that (`RunSession.scene`).
        let shelf = PainterShelf()
        self.shelf = shelf
        reloadWorker = ReloadWorker(icons: icons, shelf: shelf, job: { setup($0).iconJob }, painterJob: { [shown] config in
            let made = setup(config)
            // The painter on screen gives up its caches before the worker builds the new ones
            // (DialPainter.dropCaches: otherwise the two interleave on the heap); while the
            // reload is prepared a resting dial paints nothing, a moving one rebuilds what it draws.
            shown.painter?.dropCaches()
            return {
                // A build that fails here fails again in the loop's own build, which reports it.
                guard let painter = try? made.makeUnpaintedPainter(icons: icons) else { return }
                shelf.put(painter, config: made.config, width: made.width, height: made.height)
            }
        })
    }

    func adjusted(_ config: KioskConfig) -> KioskConfig {
        var config = config
        if let items { config.items = DemoMenu.numbered(items) }
        return config
    }

    func scene(for config: KioskConfig, resting: SceneResting) throws -> Scene? { try build(config, resting) }

    /// The scene of `config` (adjusted already) at the mode's size now.
    func build(_ config: KioskConfig, _ resting: SceneResting) throws -> Scene {
        try RunSession.scene(setup(config), resting: resting, rotation: rotation, painter: painter, icons: icons,
                             replacing: shown, prepared: shelf, tap: tap)
    }
}
