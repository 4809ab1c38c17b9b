/// The dial's state machine: touches and commands in, rotation, selection and frames out.
/// Time is always an argument (event timestamps and frame-clock timestamps, CLOCK_MONOTONIC
/// seconds); nothing here reads a clock or sleeps.
public final class Dial {
    public let items: [MenuItem]
    public private(set) var layout: DialLayout
    public private(set) var geometry: DialGeometry

    public init(items: [MenuItem], layout: DialLayout? = nil, geometry: DialGeometry) {
        self.items = items
        self.layout = layout ?? DialLayout(count: items.count)
        self.geometry = geometry
    }

    /// Feed one input event (touch sample or command). Returns events it caused at once.
    public func handle(_ event: InputEvent) -> [DialEvent] { [] }

    /// Advance the animation to `time` (a frame-clock timestamp). Returns events it caused.
    public func advance(to time: Double) -> [DialEvent] { [] }

    /// True while the ring or the show/hide animation moves, or a finger drags: a frame is due.
    public var needsFrame: Bool { false }

    /// What to paint at the last advanced time.
    public var pose: DialPose {
        PoseBuilder(layout: layout, geometry: geometry).pose(rotation: 0, visibility: .shown, time: 0)
    }
}

/// What the dial reports to the outside.
public enum DialEvent: Sendable, Equatable {
    /// The ring came to rest on a different item than before.
    case selected(index: Int, time: Double)
    /// The hub was tapped (or Enter pressed, or `activate` sent) with `index` selected.
    case activated(index: Int, time: Double)
    /// The ring came to rest (after every movement): total rotation and the item at the top.
    case rest(time: Double, rotation: Double, index: Int?)
}
