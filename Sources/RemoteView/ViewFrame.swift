import DialRender
import KioskSeams

/// What viewers see: the painter's frame turned onto the panel as the glass shows it, kept in
/// ordinary memory (never read back from a scanout buffer, which may be write-combined). Each
/// frame is copied in only where its damage says it changed; dimmed as the glass is dimmed,
/// black while it is dark, and with the "being viewed" mark when it is on the glass.
final class ViewFrame {
    let rotation: DisplayRotation
    private(set) var panel: PixelBuffer

    init(rotation: DisplayRotation) {
        self.rotation = rotation
        panel = PixelBuffer(width: 0, height: 0)
    }

    /// Copies the logical `frame`'s `damage` (nil: all) in, every channel halved when
    /// `dimmed`, with the mark on top when `mark`; returns what changed in panel pixels; a frame
    /// of a new size is copied whole (`resized` true).
    func take(_ frame: PixelBuffer, damage: [PixelRect]?, dimmed: Bool = false, mark: Bool = false)
        -> (rects: [PixelRect], resized: Bool) {
        let size = rotation.swapsAxes ? (frame.height, frame.width) : (frame.width, frame.height)
        var damage = damage
        let resized = panel.width != size.0 || panel.height != size.1
        if resized {
            panel = PixelBuffer(width: size.0, height: size.1)
            damage = nil
        }
        let logical = damage.map { Damage.union($0, width: frame.width, height: frame.height) }
        panel.withFrameTarget { copy(frame, to: $0, rotation: rotation, dimmed: dimmed, damage: logical) }
        let all = PixelRect(x0: 0, y0: 0, x1: frame.width, y1: frame.height)
        var rects = (logical ?? [all]).map { rotation.panelRect($0, logicalWidth: frame.width, logicalHeight: frame.height) }
        if mark, let badge = ViewMark.rect(panelWidth: panel.width, panelHeight: panel.height) {
            panel.withFrameTarget { ViewMark.draw(into: $0, dimmed: dimmed) }
            if damage != nil { rects.append(badge) }
        }
        return (rects, resized)
    }

    /// All black (the glass is dark); the panel keeps its size.
    func blacken() {
        panel.fill(0)
    }
}
