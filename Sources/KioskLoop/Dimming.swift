import DialCore
import DialRender
import KioskSeams

/// The idle screen's two looks. Neither reads the scanout buffer: dumb buffers are often
/// write-combined, where a read is an order of magnitude slower than a write.
package enum Dimming {
    /// Paints `pose` with `paint` into a frame in RAM, then copies it into `target` with every
    /// channel halved (`copy(_:to:rotation:dimmed:)`): the dial stays readable at a quarter of
    /// its light output on a typical panel gamma, without a second painter. Costs one extra copy
    /// of the frame in RAM, only while dimmed. The shadow has no frame number, so `paint`
    /// copies all of it, and the dim frame is whole-frame damage to the frames around it.
    package static func paintDimmed(_ pose: DialPose, into target: FrameTarget,
                            _ paint: (DialPose, FrameTarget) throws -> [PixelRect]?) rethrows {
        var shadow = PixelBuffer(width: target.width, height: target.height)
        _ = try shadow.withFrameTarget { try paint(pose, $0) }
        copy(shadow, to: target, rotation: .none, dimmed: true)
    }

    /// All black: the CRTC stays lit (waking is one frame), the panel shows nothing.
    package static func black(_ target: FrameTarget) {
        for y in 0..<target.height {
            (target.base + y * target.stride).initializeMemory(as: UInt32.self, repeating: 0, count: target.width)
        }
    }
}
