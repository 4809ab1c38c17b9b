import KioskSeams
import RealModule

/// Where items sit on the ring: N items from a start angle, clockwise or counter-clockwise,
/// evenly spaced or at their own angles.
///
/// Item `i` sits at screen angle `startAngle ± offset(i) + rotation`; the ring's rotation turns
/// every item the same way whatever the direction of the layout. The selected item is the one
/// nearest 12 o'clock.
public struct DialLayout: Sendable, Equatable {
    public enum Direction: String, Sendable, Equatable, CaseIterable {
        case clockwise, counterclockwise
        var sign: Double { self == .clockwise ? 1 : -1 }
    }

    public var count: Int
    /// Screen angle of item 0 at rotation 0; 12 o'clock by default.
    public var startAngle: Double
    public var direction: Direction
    /// Per-item offsets from `startAngle` (radians, along `direction`); nil means 2 pi i / N.
    public var customOffsets: [Double]?

    public init(count: Int, startAngle: Double = Angle.top, direction: Direction = .clockwise,
                customOffsets: [Double]? = nil) {
        precondition(customOffsets == nil || customOffsets!.count == count,
                     "one custom offset per item")
        self.count = count
        self.startAngle = startAngle
        self.direction = direction
        self.customOffsets = customOffsets
    }

    /// The angle between neighbouring slots of an even layout.
    public var spacing: Double { count > 0 ? Angle.twoPi / Double(count) : Angle.twoPi }

    /// Offset of item `i` from the start angle, along the layout's direction.
    public func offset(of i: Int) -> Double {
        customOffsets?[i] ?? Double(i) * spacing
    }

    /// Screen angle of item `i` when the ring has turned by `rotation`.
    public func angle(of i: Int, rotation: Double) -> Double {
        startAngle + direction.sign * offset(of: i) + rotation
    }

    /// Centre of item `i` on a ring of `radius` around `center`.
    public func position(of i: Int, rotation: Double, center: Point, radius: Double) -> Point {
        let a = angle(of: i, rotation: rotation)
        return Point(x: center.x + radius * .cos(a), y: center.y + radius * .sin(a))
    }

    /// The rotation, in [0, 2 pi), that brings item `i` to 12 o'clock.
    public func restRotation(of i: Int) -> Double {
        let r = (Angle.top - startAngle - direction.sign * offset(of: i))
            .truncatingRemainder(dividingBy: Angle.twoPi)
        return r < 0 ? r + Angle.twoPi : r
    }

    /// The slot nearest `rotation`: the item it brings to the top and the exact rotation, congruent
    /// to that item's rest rotation, closest to `rotation`. Nil for an empty menu.
    public func nearestSlot(to rotation: Double) -> (index: Int, rotation: Double)? {
        guard count > 0 else { return nil }
        var best: (index: Int, rotation: Double)?
        var bestDistance = Double.infinity
        for i in 0..<count {
            let base = restRotation(of: i)
            let turns = ((rotation - base) / Angle.twoPi).rounded()
            let candidate = base + turns * Angle.twoPi
            let d = abs(candidate - rotation)
            if d < bestDistance - 1e-12 {
                bestDistance = d
                best = (i, candidate)
            }
        }
        return best
    }

    /// The item nearest 12 o'clock at `rotation`.
    public func selectedIndex(rotation: Double) -> Int? { nearestSlot(to: rotation)?.index }

    /// The rotation of the slot `steps` items away from the slot nearest `rotation`; positive steps
    /// bring the next items in menu order to the top.
    public func slot(steppedBy steps: Int, from rotation: Double) -> (index: Int, rotation: Double)? {
        guard count > 0, let here = nearestSlot(to: rotation) else { return nil }
        let target = ((here.index + steps) % count + count) % count
        // Walk in the direction that brings later items to the top: against the layout direction.
        let walk = -direction.sign * Double(steps.signum())
        let base = restRotation(of: target)
        var candidate = base + ((here.rotation - base) / Angle.twoPi).rounded() * Angle.twoPi
        if steps != 0 {
            // Take the congruent rotation on the walking side, within one full turn.
            while (candidate - here.rotation) * walk <= 0 && target != here.index { candidate += walk * Angle.twoPi }
            while (candidate - here.rotation) * walk > Angle.twoPi { candidate -= walk * Angle.twoPi }
        }
        return (target, candidate)
    }
}
