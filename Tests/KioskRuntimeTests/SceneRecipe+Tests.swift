@testable import KioskRuntime
import DialRender
import KioskConfiguration
import KioskLoop
import KioskSeams
import KioskFeatures

/// The tests' short ways into the one scene recipe: a scene of `config` on a logical frame.
extension SceneRecipe {
    static func scene(config: KioskConfig, restingOn index: Int?, width: Int, height: Int,
                      rotation: DisplayRotation, painter: PainterChoice, icons: IconCache = IconCache()) throws -> Scene {
        try SceneRecipe(rotation: rotation, painter: painter).scene(config: config, resting: .index(index),
                                                                   width: width, height: height, icons: icons)
    }

    static func scene(config: KioskConfig, resting: SceneResting, width: Int, height: Int, rotation: DisplayRotation,
                      painter: PainterChoice, icons: IconCache = IconCache()) throws -> Scene {
        try SceneRecipe(rotation: rotation, painter: painter).scene(config: config, resting: resting,
                                                                   width: width, height: height, icons: icons)
    }
}
