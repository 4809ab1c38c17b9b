@testable import DialKioskApp
@testable import KioskRuntime
import DialRender
import KioskConfiguration
import KioskSeams

extension RenderCommand {
    /// `picture` by the recipe turned by `rotation`.
    static func picture(config: KioskConfig, size: FrameSize, rotation: DisplayRotation, angle: Double = 0,
                        showProgress: Double? = nil, path: String? = nil, language: String? = nil) throws -> PixelBuffer {
        try picture(config: config, size: size, recipe: SceneRecipe(rotation: rotation), angle: angle,
                    showProgress: showProgress, path: path, language: language)
    }
}
