import DialCore

/// The idle screen's two looks, applied to a finished scanout buffer.
enum Dimming {
    /// Halves every channel: the dial stays readable at a quarter of its light output on a
    /// typical panel gamma, without a second painter. One shift and mask per pixel.
    static func darken(_ target: FrameTarget) {
        for y in 0..<target.height {
            let row = (target.base + y * target.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<target.width { row[x] = (row[x] >> 1) & 0x007F_7F7F }
        }
    }

    /// All black: the CRTC stays lit (waking is one frame), the panel shows nothing.
    static func black(_ target: FrameTarget) {
        for y in 0..<target.height {
            (target.base + y * target.stride).initializeMemory(as: UInt32.self, repeating: 0, count: target.width)
        }
    }
}
