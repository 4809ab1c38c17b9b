import DialCore

/// Stand-in for DialRender's painter until it lands: flat discs for the items and the hub in a
/// logical RAM frame, copied with the display rotation into the scanout buffer. It reads the
/// shadow frame, never the (possibly write-combined) scanout memory.
final class PlaceholderPainter {
    let rotation: DisplayRotation
    let items: [MenuItem]
    private var frame: [UInt32] = []
    private var width = 0
    private var height = 0

    init(items: [MenuItem], rotation: DisplayRotation) {
        self.items = items
        self.rotation = rotation
    }

    func paint(_ pose: DialPose, into target: FrameTarget) {
        let size = rotation.logicalSize(panelWidth: target.width, panelHeight: target.height)
        if size.width != width || size.height != height {
            width = size.width
            height = size.height
            frame = Array(repeating: 0, count: width * height)
        }
        for i in frame.indices { frame[i] = 0x1A1A1E }
        let g = pose.geometry
        disc(center: g.center, radius: g.hubRadius, color: 0x2C2C33)
        for (i, item) in pose.items.enumerated() where i < items.count && item.alpha > 0 {
            disc(center: item.center, radius: g.itemRadius * item.scale, color: items[i].color.xrgb)
        }
        copy(into: target)
    }

    private func disc(center: Point, radius: Double, color: UInt32) {
        guard radius > 0 else { return }
        let y0 = max(0, Int(center.y - radius)), y1 = min(height - 1, Int(center.y + radius))
        let x0 = max(0, Int(center.x - radius)), x1 = min(width - 1, Int(center.x + radius))
        guard y0 <= y1, x0 <= x1 else { return }
        let r2 = radius * radius
        for y in y0...y1 {
            let dy = Double(y) + 0.5 - center.y
            for x in x0...x1 {
                let dx = Double(x) + 0.5 - center.x
                if dx * dx + dy * dy <= r2 { frame[y * width + x] = color }
            }
        }
    }

    private func copy(into target: FrameTarget) {
        frame.withUnsafeBufferPointer { src in
            for y in 0..<height {
                for x in 0..<width {
                    let p = rotation.panelPixel(x: x, y: y, logicalWidth: width, logicalHeight: height)
                    target.base.storeBytes(of: src[y * width + x], toByteOffset: p.y * target.stride + p.x * 4, as: UInt32.self)
                }
            }
        }
    }
}
