import DialCore

/// The configuration in DialCore's terms: what the run loop passes to `Dial` and the painter.
extension KioskConfig {
    /// The ring's physics.
    public var physicsSettings: PhysicsSettings {
        PhysicsSettings(decayPerFrame60: physics.decay, minFlingSpeed: physics.minFlingSpeed,
                        snapDuration: physics.snapDuration)
    }

    /// Item scale by distance to 12 o'clock.
    public var inflate: Inflate { Inflate(minScale: physics.inflateMin, maxScale: physics.inflateMax) }

    /// The item at 12 o'clock at start (and the one `return_after_seconds` turns back to).
    public var defaultIndex: Int {
        guard let id = behaviour.defaultItem else { return 0 }
        return items.firstIndex { $0.id == id } ?? 0
    }

    /// The index of the item with `id` (for `select <id>`), or nil.
    public func index(ofItem id: String) -> Int? { items.firstIndex { $0.id == id } }

    /// Whether the dial starts collapsed into the hub.
    public var startsHidden: Bool { behaviour.start == .collapsed }
}
