/// Moving through a menu tree: which ring is on screen, which slot is at 12 o'clock, what each
/// ring last showed, and the transitions between them, as a pure value. The dial paints and
/// turns one ring; this decides which ring that is.
///
/// The way back is a back item: every ring below the top has one in slot 0, before its items
/// (the issue left the choice between it and a hub tap "while nothing below is selected").
/// The dial always rests on a slot and its hub tap always activates the slot at the top, so a
/// hub tap keeps one meaning everywhere; the back item makes the way back visible on the ring
/// and reachable with nothing but a wheel or two keys. The hub of a ring below the top shows the
/// label of the item that opened it (`hubItem`). Every other way back (long press, Escape,
/// Backspace, a wheel click, `back` on the socket) is the same transition as activating the
/// back item: `MenuTransition(_ intent:)`.

/// What the menu reports, for the event stream and item commands (the caller stamps the time).
public enum MenuEvent: Sendable, Equatable {
    /// Ring `path` (the ring of the item at `path`) appeared.
    case opened(MenuPath)
    /// Ring `path` went away.
    case closed(MenuPath)
    /// The slot at 12 o'clock of the ring on screen is now `path`: an item, or a ring's back
    /// item (`drinks/..`). Reported on every change, so the last one names the current slot.
    case selected(MenuPath)
    /// Item `path` was activated: a leaf, or an item with a ring and a command (the command runs
    /// as the ring opens). An item with a ring and no command only opens its ring.
    case activated(MenuPath)
}

/// A change of the navigation state.
public enum MenuTransition: Sendable, Equatable {
    /// The ring came to rest with `slot` at the top (the dial's `selected`).
    case rest(slot: Int)
    /// `slot` was activated (the dial's `activated`): a leaf reports `activated`, an item with
    /// children opens its ring, the back item goes back.
    case activate(slot: Int)
    /// To the parent ring, restoring its remembered item. Nothing at the top ring.
    case back
    /// Jump to any slot, closing and opening the rings along the way. Unknown paths do nothing
    /// (check `MenuTree.isSlot` first to answer the sender).
    case select(MenuPath)
    /// To the top ring and its default item (`behaviour.return_after_seconds`).
    case returnToTop

    /// The one transition each way in means.
    public init(_ intent: MenuIntent) {
        switch intent {
        case .rested(let slot): self = .rest(slot: slot)
        case .activated(let slot): self = .activate(slot: slot)
        case .hubLongPress, .backKey, .wheelClick, .backCommand: self = .back
        case .selectCommand(let path): self = .select(path)
        case .idleReturn: self = .returnToTop
        }
    }
}

/// Everything from the outside that moves through the menu.
public enum MenuIntent: Sendable, Equatable {
    /// The dial came to rest on a new slot (its `selected` event).
    case rested(slot: Int)
    /// A hub tap, Enter or Space, `activate` on the socket: the dial names the slot at (or
    /// landing at) the top in its `activated` event.
    case activated(slot: Int)
    /// A long press on the hub.
    case hubLongPress
    /// Escape or Backspace.
    case backKey
    /// A wheel's click, where the device has one.
    case wheelClick
    /// `back` on the control socket.
    case backCommand
    /// `select <path>` on the control socket.
    case selectCommand(MenuPath)
    /// `behaviour.return_after_seconds` came due.
    case idleReturn
}

/// What a transition asks of the dial and reports.
public struct MenuStep: Sendable, Equatable {
    public var events: [MenuEvent]
    /// Same ring, another slot: turn the dial there (`Dial.select(index:at:)`); its rest
    /// reports `selected` through `.rest(slot:)`.
    public var turn: Int?
    /// Another ring: fold the one on screen in and fly this one out.
    public var ringChange: RingChange?

    public init(events: [MenuEvent] = [], turn: Int? = nil, ringChange: RingChange? = nil) {
        self.events = events
        self.turn = turn
        self.ringChange = ringChange
    }
}

/// Where the menu is. Time is an argument: it only stamps the ring changes it starts.
public struct MenuNavigation: Sendable, Equatable {
    public let tree: MenuTree
    /// The top ring's default item (slot), nil for an empty menu.
    public let defaultSlot: Int?
    /// The ring on screen.
    public private(set) var ring: MenuPath = .top
    /// The slots of the ring on screen (the dial's items, in order).
    public private(set) var slots: [MenuPath]
    /// The slot at 12 o'clock of `ring`, as last reported; nil for an empty menu.
    public private(set) var selectedSlot: Int?
    /// Each ring's last item (never its back item), for as long as this value lives.
    private var remembered: [MenuPath: String] = [:]

    /// At the top ring on `defaultItem` (an id of the top ring; an unknown one or nil means the
    /// first item; the configuration has already refused unknown ids).
    public init(tree: MenuTree, defaultItem: String? = nil) {
        self.tree = tree
        slots = tree.slots(ofRing: .top) ?? []
        let index = defaultItem.flatMap { id in tree.top.firstIndex { $0.id == id } }
        defaultSlot = tree.top.isEmpty ? nil : (index ?? 0)
        selectedSlot = defaultSlot
        if let d = defaultSlot { remembered[.top] = tree.top[d].id }
    }

    /// The slot at 12 o'clock, by path.
    public var selectedPath: MenuPath? { selectedSlot.map { slots[$0] } }

    /// The rings open now, outermost first (the top ring is always open and not listed).
    public var openRings: [MenuPath] { ring.prefixes }

    /// What the hub shows: below the top the item whose ring this is; nil at the top, where the
    /// hub shows the selected item, as a flat dial does.
    public var hubItem: MenuPath? { MenuNavigation.hubItem(ofRing: ring) }

    /// What the hub shows on `ring` (during a ring change, on `RingChange.ring(at:reveal:)`).
    public static func hubItem(ofRing ring: MenuPath) -> MenuPath? { ring.isTop ? nil : ring }

    /// The id ring `ring` last showed at the top, if it was ever on screen.
    public func rememberedItem(ofRing ring: MenuPath) -> String? { remembered[ring] }

    public mutating func apply(_ intent: MenuIntent, at time: Double) -> MenuStep {
        apply(MenuTransition(intent), at: time)
    }

    public mutating func apply(_ transition: MenuTransition, at time: Double) -> MenuStep {
        switch transition {
        case .rest(let slot):
            guard slots.indices.contains(slot), slot != selectedSlot else { return MenuStep() }
            selectedSlot = slot
            let path = slots[slot]
            if !path.isBack { remembered[ring] = path.last }
            return MenuStep(events: [.selected(path)])
        case .activate(let slot):
            guard slots.indices.contains(slot) else { return MenuStep() }
            let path = slots[slot]
            if path.isBack { return apply(.back, at: time) }
            guard let node = tree.node(at: path) else { return MenuStep() }
            guard node.opensRing else { return MenuStep(events: [.activated(path)]) }
            return move(to: path, slot: rememberedSlot(of: path), at: time,
                        events: node.item.command == nil ? [] : [.activated(path)])
        case .back:
            guard !ring.isTop else { return MenuStep() }
            return move(to: ring.parent, slot: rememberedSlot(of: ring.parent), at: time)
        case .select(let path):
            guard tree.isSlot(path), let slot = tree.slots(ofRing: path.parent)?.firstIndex(of: path) else {
                return MenuStep()
            }
            // On the ring on screen the dial turns; its rest reports `selected`, as it always has.
            if path.parent == ring { return MenuStep(turn: slot) }
            return move(to: path.parent, slot: slot, at: time)
        case .returnToTop:
            guard let d = defaultSlot else { return MenuStep() }
            if ring.isTop { return MenuStep(turn: d) }
            return move(to: .top, slot: d, at: time)
        }
    }

    /// Puts slot `path` on screen at once, without events (a reload resting where the old menu
    /// was). Returns false, changing nothing, when `path` names no slot.
    @discardableResult
    public mutating func jump(to path: MenuPath) -> Bool {
        guard tree.isSlot(path), let slot = tree.slots(ofRing: path.parent)?.firstIndex(of: path) else { return false }
        _ = move(to: path.parent, slot: slot, at: 0)
        return true
    }

    /// The slot ring `ring` shows when it opens: its remembered item, else its first item (the
    /// top ring's default).
    private func rememberedSlot(of ring: MenuPath) -> Int {
        let slots = tree.slots(ofRing: ring) ?? []
        if let id = remembered[ring], let i = slots.firstIndex(of: ring.appending(id)) { return i }
        return ring.isTop ? (defaultSlot ?? 0) : 1
    }

    /// Puts `target` on screen with `slot` at the top: closes the open rings not above it
    /// (innermost first), opens the rings down to it (outermost first, each remembered as its
    /// parent's item), then reports the new slot.
    private mutating func move(to target: MenuPath, slot: Int, at time: Double, events: [MenuEvent] = []) -> MenuStep {
        var events = events
        let common = ring.commonPrefix(with: target)
        for r in ring.prefixes.reversed() where r.depth > common.depth { events.append(.closed(r)) }
        for r in target.prefixes where r.depth > common.depth {
            remembered[r.parent] = r.last
            events.append(.opened(r))
        }
        let from = ring, fromSlots = slots
        ring = target
        slots = tree.slots(ofRing: target) ?? []
        selectedSlot = slot
        let path = slots[slot]
        if !path.isBack { remembered[target] = path.last }
        events.append(.selected(path))
        let change = RingChange(from: from, to: target, folding: fromSlots, flying: slots, slot: slot, since: time)
        return MenuStep(events: events, ringChange: change)
    }
}
