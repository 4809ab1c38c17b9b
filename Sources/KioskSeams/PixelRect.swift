/// A rectangle of pixels [x0, x1) x [y0, y1): damage, dirty areas, sprite bounds.
public struct PixelRect: Sendable, Equatable {
    /// Left, top (inclusive), right, bottom (exclusive), in pixels.
    public var x0: Int, y0: Int, x1: Int, y1: Int
    /// The rectangle [x0, x1) x [y0, y1).
    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
    }
    /// True when it holds no pixel.
    public var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
    /// Pixels inside (0 when empty).
    public var area: Int { isEmpty ? 0 : (x1 - x0) * (y1 - y0) }
    /// The part inside a `width` x `height` frame.
    public func clipped(width: Int, height: Int) -> PixelRect {
        PixelRect(x0: max(0, x0), y0: max(0, y0), x1: min(width, x1), y1: min(height, y1))
    }
}
