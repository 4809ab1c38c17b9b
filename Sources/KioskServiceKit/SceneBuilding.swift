import DialCore
import KioskConfiguration
import KioskLoop

/// Where a new scene's dial rests: a top item's index (a reload keeps the top item by id) or a
/// slot's path (a new mode keeps the slot, inside a ring too); nil: the default item.
package enum SceneResting {
    case index(Int?)
    case path(MenuPath?)
}

/// How the service turns its configuration into what the loop paints. The service owns the
/// configuration and asks this for the scene of each one it takes on, so a reload builds, then
/// swaps configuration and scene in one place (`KioskService.finishReload`).
package protocol SceneBuilding: AnyObject {
    /// The configuration as it runs: a file's, with what the command line replaces in every
    /// file read (`run --items N`).
    func adjusted(_ config: KioskConfig) -> KioskConfig
    /// The dial and painter for `config`, resting on `resting`; nil: the loop keeps its scene.
    func scene(for config: KioskConfig, resting: SceneResting) throws -> Scene?
    /// Decodes a reload's icons off the loop (nil: a reload is built in the turn that asked).
    var reloadWorker: ReloadWorker? { get }
}

/// No painter: a reload changes the configuration, the loop keeps its scene (the tests that
/// drive the service without a frame loop).
package final class KeepingScene: SceneBuilding {
    package init() {}
    package func adjusted(_ config: KioskConfig) -> KioskConfig { config }
    package func scene(for config: KioskConfig, resting: SceneResting) throws -> Scene? { nil }
    package var reloadWorker: ReloadWorker? { nil }
}
