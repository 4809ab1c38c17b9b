import DialRender
import KioskSeams

/// The "being viewed" mark: a small red dot in a white ring on a dark square in the panel's
/// top right corner, drawn on the glass (and in what viewers get) while a viewer is connected
/// and `remote.mark` is on. Its square is 1% of the panel's area (the limit is 2%), so it
/// covers no item of a dial that fills the frame's inscribed circle.
package enum ViewMark {
    /// The mark's square in panel pixels (nil for a panel too small to hold one).
    package static func rect(panelWidth: Int, panelHeight: Int) -> PixelRect? {
        let side = Int((Double(panelWidth * panelHeight) * 0.01).squareRoot())
        guard side >= 8, panelWidth > side, panelHeight > side else { return nil }
        return PixelRect(x0: panelWidth - side, y0: 0, x1: panelWidth, y1: side)
    }

    /// Draws the mark into `target` (panel pixels); `dimmed`: every channel halved, as the
    /// dim frame is.
    package static func draw(into target: FrameTarget, dimmed: Bool = false) {
        guard let r = rect(panelWidth: target.width, panelHeight: target.height) else { return }
        let side = Double(r.x1 - r.x0)
        let centre = side / 2, outer = side * 0.36, inner = side * 0.27
        for y in r.y0..<r.y1 {
            let row = (target.base + y * target.stride).assumingMemoryBound(to: UInt32.self)
            for x in r.x0..<r.x1 {
                let dx = Double(x - r.x0) + 0.5 - centre, dy = Double(y - r.y0) + 0.5 - centre
                let d = (dx * dx + dy * dy).squareRoot()
                var pixel: UInt32 = d <= inner ? 0xE0_2020 : d <= outer ? 0xFF_FFFF : 0x20_2020
                if dimmed { pixel = (pixel >> 1) & 0x7F_7F7F }
                row[x] = pixel
            }
        }
    }
}
