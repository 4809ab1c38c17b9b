import KioskSeams
import RealModule

/// The numbers behind the ring's feel. Every field has the seed's default.
public struct PhysicsSettings: Sendable, Equatable {
    /// Velocity kept per 60 Hz frame while coasting (seed 001: 0.92; 0.98 "ice", 0.85 "quick stop").
    public var decayPerFrame60: Double
    /// Below this release speed (rad/s) the ring eases to the nearest item instead of coasting
    /// (seed 004 makes the same cut between snapping back and a throw).
    public var minFlingSpeed: Double
    /// Bounds of the ease to an item; the time grows with the distance to go.
    public var snapDuration: ClosedRange<Double>
    /// Longest frame step integrated at once: a stall or a resume from suspend does not teleport
    /// the ring.
    public var maxStep: Double
    /// A coast this close to its target (radians) is finished and set exactly on it. Seed 001
    /// stops below 0.0001 rad per frame; a landing coast moves (distance left / tau) rad/s, so at
    /// 60 Hz that is about 1e-3 rad left: a fifth of a pixel on a 200 px ring.
    public var restEpsilon: Double

    public init(decayPerFrame60: Double = 0.92, minFlingSpeed: Double = 1.5,
                snapDuration: ClosedRange<Double> = 0.2...0.4, maxStep: Double = 0.1,
                restEpsilon: Double = 1e-3) {
        self.decayPerFrame60 = decayPerFrame60
        self.minFlingSpeed = minFlingSpeed
        self.snapDuration = snapDuration
        self.maxStep = maxStep
        self.restEpsilon = restEpsilon
    }

    /// Time constant of the continuous decay v(t) = v0 e^(-t/tau) that matches the per-frame
    /// factor at 60 Hz: tau = -1 / (60 ln f); 0.92 gives 0.1999 s.
    public var tau: Double { -1 / (60 * .log(decayPerFrame60)) }
}

/// Exponential coast, integrated exactly between frame timestamps so that any frame rate (or a
/// dropped frame) gives the same path at the same instants.
public struct Coast: Sendable, Equatable {
    public var rotation: Double
    public var velocity: Double
    public let tau: Double

    public init(rotation: Double, velocity: Double, tau: Double) {
        self.rotation = rotation
        self.velocity = velocity
        self.tau = tau
    }

    /// Where the coast ends if left alone: rotation + v tau.
    public var landing: Double { rotation + velocity * tau }

    /// Advance by `dt` seconds: rotation += v tau (1 - e^(-dt/tau)), v *= e^(-dt/tau).
    public mutating func step(_ dt: Double) {
        let k = Double.exp(-dt / tau)
        rotation += velocity * tau * (1 - k)
        velocity *= k
    }
}

/// Ease-out from one rotation to another over a fixed time (cubic: fast start, gentle arrival).
public struct Snap: Sendable, Equatable {
    public let from: Double
    public let to: Double
    public let duration: Double
    public private(set) var elapsed = 0.0

    public init(from: Double, to: Double, duration: Double) {
        self.from = from
        self.to = to
        self.duration = duration
    }

    public var isFinished: Bool { elapsed >= duration }

    /// Exactly `to` once finished.
    public var rotation: Double {
        guard !isFinished else { return to }
        let s = 1 - elapsed / duration
        return from + (to - from) * (1 - s * s * s)
    }

    public mutating func step(_ dt: Double) { elapsed = min(duration, elapsed + dt) }
}

/// How the ring gets from where the finger left it to an item slot.
public enum LandingPlan: Sendable, Equatable {
    /// Coast with this (rescaled) initial velocity; the exponential ends exactly on `target`.
    case coast(target: Double, velocity: Double, index: Int)
    /// Ease to `target` over `duration` seconds.
    case snap(target: Double, duration: Double, index: Int)
    /// Already on the slot.
    case none(index: Int)

    /// Where the plan leaves the ring at rest (the rotation), nil for an empty menu.
    public var index: Int {
        switch self {
        case .coast(_, _, let i), .snap(_, _, let i), .none(let i): return i
        }
    }
}

/// The pure landing decision: given the rotation and release velocity, which slot the ring
/// rests on and how it gets there. A fling keeps its direction and lands on the slot nearest
/// where the free coast would end (target-aware: the velocity is rescaled so the same
/// exponential law ends exactly on it); a slow release eases to the nearest slot.
public func planLanding(rotation: Double, velocity: Double, layout: DialLayout,
                        physics: PhysicsSettings) -> LandingPlan? {
    let tau = physics.tau
    if abs(velocity) >= physics.minFlingSpeed,
       let slot = layout.nearestSlot(to: rotation + velocity * tau) {
        let distance = slot.rotation - rotation
        // A fling too weak to pass the slot behind it would reverse: ease there instead.
        if distance * velocity > 0 {
            return .coast(target: slot.rotation, velocity: distance / tau, index: slot.index)
        }
    }
    guard let slot = layout.nearestSlot(to: rotation) else { return nil }
    return easePlan(from: rotation, to: slot, layout: layout, physics: physics)
}

/// Ease to a given slot, taking longer for longer ways (within the configured bounds).
public func easePlan(from rotation: Double, to slot: (index: Int, rotation: Double),
                     layout: DialLayout, physics: PhysicsSettings) -> LandingPlan {
    let distance = abs(slot.rotation - rotation)
    guard distance > 1e-12 else { return .none(index: slot.index) }
    let lo = physics.snapDuration.lowerBound, hi = physics.snapDuration.upperBound
    let duration = min(hi, lo + (hi - lo) * distance / max(layout.spacing, 1e-9))
    return .snap(target: slot.rotation, duration: duration, index: slot.index)
}
