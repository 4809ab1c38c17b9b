import DialRender
import KioskSeams

/// What viewers see: the painter's frame turned onto the panel as the glass shows it, kept in
/// ordinary memory (never read back from a scanout buffer, which may be write-combined). Each
/// frame is copied in only where its damage says it changed.
final class ViewFrame {
    let rotation: DisplayRotation
    private(set) var panel: PixelBuffer

    init(rotation: DisplayRotation) {
        self.rotation = rotation
        panel = PixelBuffer(width: 0, height: 0)
    }

    /// Copies the logical `frame`'s `damage` (nil: all) in and returns it in panel pixels;
    /// a frame of a new size is copied whole (`resized` true).
    func take(_ frame: PixelBuffer, damage: [PixelRect]?) -> (rects: [PixelRect], resized: Bool) {
        let size = rotation.swapsAxes ? (frame.height, frame.width) : (frame.width, frame.height)
        var damage = damage
        let resized = panel.width != size.0 || panel.height != size.1
        if resized {
            panel = PixelBuffer(width: size.0, height: size.1)
            damage = nil
        }
        let logical = damage.map { Damage.union($0, width: frame.width, height: frame.height) }
        panel.withFrameTarget { copy(frame, to: $0, rotation: rotation, damage: logical) }
        let all = PixelRect(x0: 0, y0: 0, x1: frame.width, y1: frame.height)
        let rects = (logical ?? [all]).map { rotation.panelRect($0, logicalWidth: frame.width, logicalHeight: frame.height) }
        return (rects, resized)
    }
}
