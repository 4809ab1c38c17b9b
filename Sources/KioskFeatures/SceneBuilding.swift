import DialCore
import KioskConfiguration
import KioskLoop

/// Where a new scene's dial rests: a top item's index (a reload keeps the top item by id) or a
/// slot's path (a new mode keeps the slot, inside a ring too); nil: the default item.
package enum SceneResting {
    case index(Int?)
    case path(MenuPath?)
}

/// A reload's new scene, built off the loop for one configuration in one language: `make`
/// finishes it on the loop (the dial resting on the top item with id `keptTop` when the new menu
/// has it, on the painter that is ready), and must be quick. Carried from the worker to the
/// loop; only the loop calls `make` (hence unchecked).
package struct PreparedScene: @unchecked Sendable {
    /// The language the texts were built in.
    package let language: String?
    package let make: (_ keptTop: String?) throws -> Scene

    package init(language: String?, make: @escaping (_ keptTop: String?) throws -> Scene) {
        self.language = language
        self.make = make
    }
}

/// How the service turns its configuration into what the loop paints. The service owns the
/// configuration; a reload prepares the new one's scene (`preparation`) and commits both in one
/// step (Reload.swift).
package protocol SceneBuilding: AnyObject {
    /// The configuration as it runs: a file's, with what the command line replaces in every
    /// file read (`run --items`). Pure: a reload's worker calls it.
    func adjusted(_ config: KioskConfig) -> KioskConfig
    /// The dial and painter for `config`, resting on `resting`, built on the loop (a new
    /// mode); nil: the loop keeps its scene.
    func scene(for config: KioskConfig, resting: SceneResting) throws -> Scene?
    /// Called on the loop when a reload starts: the build of a configuration's scene in a
    /// language, which runs on the reload's worker when `preparesOffTheLoop` (nil: a reload
    /// changes the configuration only, the loop keeps its scene).
    func preparation() -> ((KioskConfig, String?) throws -> PreparedScene)?
    /// Whether a reload is prepared on a thread of its own (`run`) or in the turn that asked.
    var preparesOffTheLoop: Bool { get }
}

/// No painter: a reload changes the configuration, the loop keeps its scene (the tests that
/// drive the service without a frame loop).
package final class KeepingScene: SceneBuilding {
    package init() {}
    package func adjusted(_ config: KioskConfig) -> KioskConfig { config }
    package func scene(for config: KioskConfig, resting: SceneResting) throws -> Scene? { nil }
    package func preparation() -> ((KioskConfig, String?) throws -> PreparedScene)? { nil }
    package var preparesOffTheLoop: Bool { false }
}
