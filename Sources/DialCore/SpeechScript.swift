/// The words that name things for speech; the defaults are English, a configuration may set
/// its own (per ring and item through `MenuItem.speech` and `ringSpeech`).
public struct SpeechWords: Sendable, Equatable {
    /// The top ring's name, spoken on `back` to it.
    public var topRing: String
    /// After a ring's name when it opens: "Drinks, 4 items".
    public var items: String
    /// After an item's name when it is activated: "Coffee, activated".
    public var activated: String
    /// Before the ring returned to: "Back, Main menu".
    public var back: String

    public init(topRing: String = "Main menu", items: String = "items", activated: String = "activated", back: String = "Back") {
        self.topRing = topRing
        self.items = items
        self.activated = activated
        self.back = back
    }
}

/// Which text is spoken for which dial events: a pure function of one loop turn's events and
/// the menu. One turn gives at most one utterance (it interrupts the one before), its parts in
/// the order a listener needs them: where the dial went (back to a ring, into a ring and its
/// size), what happened (activation), then the item it rests on.
public enum SpeechScript {
    /// `states`: the items' live states; the item rested on is read with its state after the
    /// label ("Kitchen light, on"; "Coffee, unavailable").
    public static func utterance(for events: [DialEvent], menu: MenuTree, words: SpeechWords = SpeechWords(),
                                 states: [MenuPath: ItemState] = [:]) -> String? {
        var parts: [String] = []
        let opened = events.compactMap { if case .opened(let path, _) = $0 { path } else { nil } }
        let closed = events.contains { if case .closed = $0 { true } else { false } }
        let selected = events.compactMap { if case .selected(_, let path, _) = $0 { path } else { nil } }.last
        if closed && opened.isEmpty, let selected {
            // Back (or `select` into a shallower ring): name the ring returned to.
            parts.append("\(words.back), \(ringName(selected.parent, menu: menu, words: words))")
        }
        if let ring = opened.last {
            let count = menu.items(ofRing: ring)?.count ?? 0
            parts.append("\(ringName(ring, menu: menu, words: words)), \(count) \(words.items)")
        }
        for event in events {
            // An item that opens a ring is confirmed by the ring's name instead.
            if case .activated(_, let path, _) = event, opened.isEmpty {
                parts.append("\(name(of: path, menu: menu, words: words)), \(words.activated)")
            }
        }
        if let selected {
            let state = states[selected].flatMap { spoken($0, settings: menu.node(at: selected)?.item.value) }
            parts.append(name(of: selected, menu: menu, words: words) + (state.map { ", " + $0 } ?? ""))
            // The description follows the name it explains.
            if !selected.isBack, let description = menu.node(at: selected)?.item.description { parts.append(description) }
        }
        return parts.isEmpty ? nil : parts.joined(separator: ". ")
    }

    /// An item's live state as spoken: "unavailable", its text, or a value item's value.
    public static func spoken(_ state: ItemState, settings: ValueSettings?) -> String? {
        let said: String?
        if !state.available {
            said = "unavailable"
        } else if let text = state.text {
            said = text
        } else if let settings, let v = state.value {
            said = settings.text(v) + (settings.unit.map { " " + $0 } ?? "")
        } else {
            said = nil
        }
        // A stale state says how old it is: "on, 12 minutes old".
        guard let minutes = state.staleMinutes else { return said }
        return (said.map { $0 + ", " } ?? "") + ItemAge.spoken(minutes: minutes)
    }

    /// An item's spoken name: its `speech`, else its label; the back item's is "Back".
    public static func name(of path: MenuPath, menu: MenuTree, words: SpeechWords = SpeechWords()) -> String {
        if path.isBack { return words.back }
        guard let item = menu.node(at: path)?.item else { return path.last ?? "" }
        return item.speech ?? item.label
    }

    /// A ring's spoken name: the top ring's from `words`, another's from the item opening it.
    public static func ringName(_ ring: MenuPath, menu: MenuTree, words: SpeechWords = SpeechWords()) -> String {
        guard !ring.isTop else { return words.topRing }
        guard let item = menu.node(at: ring)?.item else { return ring.last ?? "" }
        return item.ringSpeech ?? item.speech ?? item.label
    }
}

/// Which sound cue a loop turn gets: a click per detent the ring crosses while it turns (a frame
/// that crossed several, a slow machine's or a fling's, gets as many, but at most one per
/// `minimumInterval` since the last: a fast fling ticks at a steady rate instead of buzzing),
/// a rising sound on activation, a falling one on back. A touch that hits nothing moves no
/// detent and makes no event, so it is silent.
public struct CuePlanner: Sendable, Equatable {
    public enum Sound: Sendable, Equatable {
        /// This many clicks, one after the other.
        case detents(Int)
        case activate, back
    }

    /// Seconds between two clicks at least (25 a second).
    public var minimumInterval: Double
    private var ring: MenuPath?
    private var selected: Int?
    private var lastClick = -Double.infinity
    /// Detents crossed and clicks given since start (the VM case compares them).
    public private(set) var detentsCrossed = 0
    public private(set) var clicks = 0

    /// Clicks one frame may give at most.
    public static let clicksPerFrame = 4

    public init(minimumInterval: Double = 0.04) { self.minimumInterval = minimumInterval }

    /// The cue for a frame showing `ring` with `selected` at the top (`count` slots) after
    /// `events`, at `time`; nil for none.
    public mutating func cue(ring: MenuPath, selected: Int?, count: Int, events: [DialEvent], at time: Double) -> Sound? {
        defer {
            self.ring = ring
            self.selected = selected
        }
        if events.contains(where: { if case .activated = $0 { true } else { false } }) { return .activate }
        let closed = events.contains { if case .closed = $0 { true } else { false } }
        let opened = events.contains { if case .opened = $0 { true } else { false } }
        if closed && !opened { return .back }
        if opened { return .activate }
        // Another ring on screen: its first position is no detent crossed.
        guard ring == self.ring, let before = self.selected, let now = selected, now != before, count > 0 else { return nil }
        var steps = abs(now - before) % count
        steps = min(steps, count - steps)
        detentsCrossed += steps
        let allowed = lastClick.isFinite ? Int(((time - lastClick) / minimumInterval).rounded(.down)) : steps
        let count = min(steps, allowed, Self.clicksPerFrame)
        guard count > 0 else { return nil }
        lastClick = time
        clicks += count
        return .detents(count)
    }
}
