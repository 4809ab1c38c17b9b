import KioskSeams
import RealModule

/// Turns finger positions into ring rotation: the angle of the finger around the dial centre
/// from atan2, relative to where it grabbed (so the ring never jumps on grab), unwrapped across
/// the +-pi cut at 9 o'clock (so two turns of the finger are 4 pi, not a jump back).
///
/// Positions within `deadZone` of the centre are ignored: atan2 is unstable there, a pixel of
/// noise swings the angle wildly. Leaving the dead zone grabs again, so nothing jumps either.
public struct RotationTracker: Sendable, Equatable {
    public var center: Point
    public var deadZone: Double

    /// Ring rotation minus finger angle, fixed at grab.
    private var offset = 0.0
    /// Last raw atan2 angle, in (-pi, pi].
    private var lastRaw = 0.0
    /// Whole turns added by crossing the cut; keeping them as an integer keeps two turns exact.
    private var turns = 0
    public private(set) var isGrabbed = false

    public init(center: Point, deadZone: Double) {
        self.center = center
        self.deadZone = deadZone
    }

    /// The finger's raw angle, or nil inside the dead zone.
    public func rawAngle(of p: Point) -> Double? {
        let dx = p.x - center.x, dy = p.y - center.y
        guard dx * dx + dy * dy > deadZone * deadZone else { return nil }
        return .atan2(y: dy, x: dx)
    }

    /// Start following a finger at `p` while the ring stands at `rotation`. Returns false (and
    /// stays released) when `p` is in the dead zone.
    @discardableResult
    public mutating func grab(at p: Point, rotation: Double) -> Bool {
        guard let raw = rawAngle(of: p) else {
            isGrabbed = false
            return false
        }
        lastRaw = raw
        turns = 0
        offset = rotation - raw
        isGrabbed = true
        return true
    }

    /// The ring rotation for the finger at `p`, or nil while `p` is in the dead zone (the ring
    /// holds still). `rotation` is where the ring stands now, used to grab again after the dead zone.
    public mutating func move(to p: Point, rotation: Double) -> Double? {
        guard let raw = rawAngle(of: p) else {
            isGrabbed = false
            return nil
        }
        guard isGrabbed else {
            grab(at: p, rotation: rotation)
            return rotation
        }
        let d = raw - lastRaw
        if d > Double.pi { turns -= 1 } else if d < -Double.pi { turns += 1 }
        lastRaw = raw
        return raw + Double(turns) * Angle.twoPi + offset
    }

    public mutating func release() { isGrabbed = false }
}
