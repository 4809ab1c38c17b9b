/// Angle arithmetic shared by layout, tracking and landing. Angles are radians in screen space:
/// 0 is 3 o'clock and, because screen y grows downward, increasing angles turn clockwise.
public enum Angle {
    public static let twoPi = 2 * Double.pi
    /// 12 o'clock in screen angles.
    public static let top = -Double.pi / 2

    /// `a` wrapped into (-pi, pi].
    @inlinable
    public static func wrap(_ a: Double) -> Double {
        var r = a.truncatingRemainder(dividingBy: twoPi)
        if r <= -Double.pi { r += twoPi } else if r > Double.pi { r -= twoPi }
        return r
    }

    /// The shortest signed turn from `from` to `to`, in (-pi, pi].
    @inlinable
    public static func delta(from: Double, to: Double) -> Double {
        wrap(to - from)
    }
}
