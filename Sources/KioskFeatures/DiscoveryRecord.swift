/// What Home Assistant discovery has announced, by the part of the kiosk that announces it
/// (the dial's entities, the value items' numbers, the fleet's): a part that announces again
/// names every config topic it wants now, and the topics it named before and not now are the
/// entities to withdraw, each with an empty retained config (Home Assistant then removes the
/// entity, and the broker forgets the retained config).
package struct DiscoveryRecord: Equatable {
    /// A part of the kiosk that announces entities of its own.
    package enum Part: String, CaseIterable, Sendable {
        case dial, values, fleet
    }

    private var announced: [Part: Set<String>] = [:]

    package init() {}

    /// The config topics `part` announces from now on; returns the ones it announced before and
    /// no longer does (sorted), to withdraw.
    package mutating func announce(_ part: Part, topics: [String]) -> [String] {
        let now = Set(topics)
        let gone = (announced[part] ?? []).subtracting(now)
        announced[part] = now
        // A topic another part announces now is not gone (one entity moved between parts).
        let elsewhere = announced.filter { $0.key != part }.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        return gone.subtracting(elsewhere).sorted()
    }

    /// Every config topic announced now.
    package var topics: Set<String> { announced.values.reduce(into: Set<String>()) { $0.formUnion($1) } }
}
