@testable import DialKioskApp
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

extension RenderCommand {
    /// `picture` by the recipe turned by `rotation`.
    static func picture(config: KioskConfig, size: FrameSize, rotation: DisplayRotation, angle: Double = 0,
                        showProgress: Double? = nil, path: String? = nil, language: String? = nil) throws -> PixelBuffer {
        try picture(config: config, size: size, recipe: SceneRecipe(rotation: rotation), angle: angle,
                    showProgress: showProgress, path: path, language: language)
    }
}
