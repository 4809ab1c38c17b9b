/// Anti-aliasing by coverage: how much of a one-pixel square a shape covers, estimated from the
/// signed distance of the pixel's centre to the shape's edge (a one-pixel linear ramp across the
/// edge). Exact for straight edges and within a fraction of a pixel's area per edge pixel for
/// the radii drawn here, at the cost of one square root per edge pixel.
public enum Coverage {
    /// Coverage of a pixel whose centre lies `distance` from the centre of a disc of `radius`.
    @inlinable
    public static func disc(distance: Double, radius: Double) -> Double {
        let c = radius + 0.5 - distance
        return c <= 0 ? 0 : c >= 1 ? 1 : c
    }

    /// Coverage by the annulus between `inner` and `outer` radii.
    @inlinable
    public static func ring(distance: Double, inner: Double, outer: Double) -> Double {
        disc(distance: distance, radius: outer) - disc(distance: distance, radius: inner)
    }

    /// Opacity 0...1 of a soft shadow cast by a disc of `radius`, blurred over `blur` pixels: a
    /// smoothstep across [radius - blur, radius + blur], close to a Gaussian-blurred edge.
    @inlinable
    public static func softDisc(distance: Double, radius: Double, blur: Double) -> Double {
        guard blur > 0 else { return disc(distance: distance, radius: radius) }
        let t = (radius + blur - distance) / (2 * blur)
        let c = t <= 0 ? 0 : t >= 1 ? 1 : t
        return c * c * (3 - 2 * c)
    }
}
