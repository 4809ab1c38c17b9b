import DialCore

/// The item indices of the `selected` events among `events` (a back item, which has none, left out).
package func selected(_ events: [DialEvent]) -> [Int] {
    events.compactMap { if case .selected(let i?, _, _) = $0 { i } else { nil } }
}
