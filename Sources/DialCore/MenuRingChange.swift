/// The animation between two rings, as data and pure functions of time: the ring on screen
/// folds into the hub with the dial's hide animation (`RevealAnimation`, last item first), then
/// the new ring flies out of the hub with the show animation (first item first), with the same
/// stagger, overshoot and fade. One ring is on screen at any instant, so the painter, the hit
/// test and the hub label always concern a single ring, and the dial can carry it out with what
/// it has: `setShown(false)` on the old ring, then a new dial for the new ring created with
/// `startHidden: true` and `initialIndex: slot` and `setShown(true)` once the old one is hidden.

/// One change of the ring on screen, started by a `MenuNavigation` transition.
public struct RingChange: Sendable, Equatable {
    /// The ring that folds into the hub.
    public var from: MenuPath
    /// The ring that flies out of it.
    public var to: MenuPath
    /// `from`'s slots, which fold in (slot order; the hide animation takes the last first).
    public var folding: [MenuPath]
    /// `to`'s slots, which fly out (slot order; the show animation takes the first first).
    public var flying: [MenuPath]
    /// The slot of `to` at 12 o'clock when it appears.
    public var slot: Int
    /// Animation time the change began.
    public var since: Double

    public init(from: MenuPath, to: MenuPath, folding: [MenuPath], flying: [MenuPath], slot: Int, since: Double) {
        self.from = from
        self.to = to
        self.folding = folding
        self.flying = flying
        self.slot = slot
        self.since = since
    }

    /// Which ring is on screen at `time` and how far it is shown.
    public enum Stage: Sendable, Equatable {
        /// `from` folding in: `visibility` is `.hiding(since:)`.
        case folding(Visibility)
        /// `to` flying out: `visibility` is `.showing(since:)`.
        case flying(Visibility)
        /// `to` fully shown; the change is over.
        case done
    }

    /// When `from` has folded in completely and `to` starts to fly out.
    public func swapTime(_ reveal: RevealAnimation) -> Double { since + reveal.totalDuration }

    /// When `to` is fully out.
    public func endTime(_ reveal: RevealAnimation) -> Double { since + 2 * reveal.totalDuration }

    public func stage(at time: Double, reveal: RevealAnimation) -> Stage {
        if time < swapTime(reveal) { return .folding(.hiding(since: since)) }
        if time < endTime(reveal) { return .flying(.showing(since: swapTime(reveal))) }
        return .done
    }

    /// The ring on screen at `time`.
    public func ring(at time: Double, reveal: RevealAnimation) -> MenuPath {
        if case .folding = stage(at: time, reveal: reveal) { return from }
        return to
    }

    /// The frame at `time`: `folding` poses `from` (turned by `rotation`, where its dial stood),
    /// `flying` poses `to` at rest on `slot`. Their `reveal` sets the timing.
    public func pose(at time: Double, folding: PoseBuilder, rotation: Double, flying: PoseBuilder) -> DialPose {
        switch stage(at: time, reveal: folding.reveal) {
        case .folding(let visibility):
            return folding.pose(rotation: rotation, visibility: visibility, time: time)
        case .flying(let visibility):
            return flying.pose(rotation: flying.layout.restRotation(of: slot), visibility: visibility, time: time)
        case .done:
            return flying.pose(rotation: flying.layout.restRotation(of: slot), visibility: .shown, time: time)
        }
    }
}
