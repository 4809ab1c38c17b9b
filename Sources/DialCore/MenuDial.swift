import KioskSeams
/// A menu of rings inside rings on screen: `MenuNavigation` decides which ring is shown, one
/// `Dial` turns it. The API is the dial's (the frame loop, `simulate` and the tests drive either
/// the same way) plus the ways between rings. A menu without nesting behaves exactly as its
/// `Dial` would: same events, same poses.
///
/// A ring change is `RingChange`'s fold-then-fly carried out with the dial's own show/hide
/// animation: the ring's dial folds into the hub, then a new dial for the next ring (at rest on
/// its slot) flies out. While a ring folds, touches and turning commands are dropped (there is
/// nothing to turn); the ways between rings still work and retarget the change.
public final class MenuDial {
    public let tree: MenuTree
    /// Where each ring sits on the frame (rings differ in their number of slots).
    public let geometryOfRing: (MenuPath) -> DialGeometry
    public let physics: PhysicsSettings
    public let inflate: Inflate
    public let reveal: RevealAnimation
    public let gestures: GestureSettings
    private let screen: (width: Double, height: Double)?

    /// The menu's state: the ring it is on (during a ring change, the ring coming), each ring's
    /// remembered item.
    public private(set) var navigation: MenuNavigation
    /// The dial of the ring on screen (during a ring change, first the one folding in).
    public private(set) var dial: Dial
    /// The ring `dial` turns.
    public private(set) var shownRing: MenuPath
    /// The next ring's dial, hidden, waiting for `dial` to fold into the hub.
    private var incoming: (dial: Dial, ring: MenuPath)?
    /// Whether the menu is to be out of the hub (`setShown`); ring changes keep it.
    private var wantsShown: Bool
    /// The items' live states (text, available, value), as the service last set them.
    public var liveItems = LiveItems()
    /// The value-dial mode: the value dial open over the ring (if any) and every value item's
    /// setpoint. While one is open it takes the touches and keys the ring would have.
    public private(set) var values = ValueDials()
    /// The value dial open over the ring, as it is painted; nil: none.
    public var valueDial: ValueDialPose? { values.pose(in: tree, live: liveItems) }
    /// The language the menu's texts are shown and spoken in (a code of the configuration's
    /// `languages:`; nil: the default). Changing it moves nothing on the dial.
    public var language: String?
    /// On a round panel, its glass: a touch that begins outside it is ignored, with its motion.
    public var glass: RoundFrame?
    private var ignoredSlots: Set<Int> = []

    /// - Parameters:
    ///   - defaultItem: the top ring's default item (an id; nil or unknown: the first).
    ///   - restingOn: the slot on screen at start (nil: `defaultItem` on the top ring).
    ///   - The others are `Dial`'s, for every ring's dial.
    public init(tree: MenuTree, geometry: @escaping (MenuPath) -> DialGeometry,
                physics: PhysicsSettings = PhysicsSettings(), inflate: Inflate = Inflate(),
                reveal: RevealAnimation = RevealAnimation(), gestures: GestureSettings = GestureSettings(),
                screen: (width: Double, height: Double)? = nil, defaultItem: String? = nil,
                restingOn path: MenuPath? = nil, startHidden: Bool = false) {
        self.tree = tree
        geometryOfRing = geometry
        self.physics = physics
        self.inflate = inflate
        self.reveal = reveal
        self.gestures = gestures
        self.screen = screen
        var navigation = MenuNavigation(tree: tree, defaultItem: defaultItem)
        if let path { navigation.jump(to: path) }
        self.navigation = navigation
        wantsShown = !startHidden
        shownRing = navigation.ring
        // `makeDial` needs every stored property set; this empty dial is replaced at once.
        dial = Dial(items: [], geometry: geometry(.top))
        dial = makeDial(ring: navigation.ring, slot: navigation.selectedSlot ?? 0, hidden: startHidden)
    }

    private func makeDial(ring: MenuPath, slot: Int, hidden: Bool) -> Dial {
        let d = Dial(items: tree.slotItems(ofRing: ring) ?? [], geometry: geometryOfRing(ring), physics: physics,
                     inflate: inflate, reveal: reveal, gestures: gestures, screen: screen, initialIndex: slot,
                     startHidden: hidden)
        // On the top ring a long press has nowhere to go back to.
        d.detectsLongPress = !ring.isTop
        return d
    }

    // MARK: - State for painting and reporting

    /// The ring the menu is on (during a ring change, the one coming).
    public var ring: MenuPath { navigation.ring }

    /// The configured item at 12 o'clock of the ring on screen (its place among the ring's
    /// items); nil on a back item or an empty menu.
    public var selectedIndex: Int? { dial.selectedIndex.flatMap(itemIndex(slot:)) }

    /// The slot at 12 o'clock, by path, as last reported.
    public var selectedPath: MenuPath? { navigation.selectedPath }

    public var needsFrame: Bool { dial.needsFrame || incoming != nil }
    public var isAnimating: Bool { dial.isAnimating || incoming != nil }
    public var motion: Dial.Motion { dial.motion }
    public var rotation: Double { dial.rotation }
    public var geometry: DialGeometry { dial.geometry }

    /// What to paint: the ring on screen's pose, naming the ring.
    public var pose: DialPose {
        var p = dial.pose
        p.ring = shownRing
        if !liveItems.states.isEmpty, let paths = tree.slots(ofRing: shownRing) {
            p.states = paths.map { liveItems.states[$0] }
        }
        p.valueDial = valueDial
        return p
    }

    // MARK: - The frame clock and input

    /// Advances the ring on screen to `time`; a ring that has folded in gives way to the next.
    @discardableResult
    public func advance(to time: Double) -> [DialEvent] {
        let events = dial.advance(to: time)
        guard let next = incoming else { return route(events) }
        // The folding ring's own events (a snap ending) concern a ring that is going away.
        _ = dial.takeLongPress()
        if dial.visibility == .hidden {
            dial = next.dial
            shownRing = next.ring
            incoming = nil
            if wantsShown { dial.setShown(true, at: time) }
        }
        return []
    }

    /// Feeds one input event; `.command(.back, …)` goes back a ring. While a value dial is open
    /// the event is its (`ValueDials.input`), except the `first` and speech keys. Activating a
    /// value item that is available opens its value dial instead of reporting `activated`.
    @discardableResult
    public func handle(_ event: InputEvent) -> [DialEvent] {
        if let taken = values.input(event, in: tree) { return taken.map(DialEvent.value) }
        return openingValueDials(ringHandle(event))
    }

    private func ringHandle(_ event: InputEvent) -> [DialEvent] {
        if case .command(.back, let time) = event { return time.isFinite ? back(at: time) : [] }
        if case .touch(let t) = event, let glass, t.phase != .frame {
            if t.phase == .down, !glass.contains(Point(x: t.x, y: t.y)) { ignoredSlots.insert(t.slot) }
            if ignoredSlots.contains(t.slot) {
                if t.phase == .up || t.phase == .cancel { ignoredSlots.remove(t.slot) }
                return []
            }
        }
        guard incoming == nil else { return [] }
        return route(dial.handle(event))
    }

    /// An available value item's activation opens its value dial (an unavailable one's goes on
    /// as `activated`: whoever runs commands refuses it).
    private func openingValueDials(_ events: [DialEvent]) -> [DialEvent] {
        guard events.contains(where: { if case .activated = $0 { true } else { false } }) else { return events }
        return events.flatMap { event -> [DialEvent] in
            guard case .activated(_, let path, let time) = event, tree.node(at: path)?.item.value != nil,
                  liveItems.state(of: path).available else { return [event] }
            return values.open(path, in: tree, initial: liveItems.state(of: path).value, geometry: dial.geometry,
                               gestures: gestures, at: time).map(DialEvent.value)
        }
    }

    // MARK: - The value dials

    /// The next time the setpoints have something to do (a commit after a pause, a guard's end).
    public var valueDeadline: Double? { values.nextDeadline }

    /// The setpoints' pauses, rests and guards that came due by `time`.
    public func advanceValues(to time: Double) -> [DialEvent] {
        values.advance(to: time, in: tree).map(DialEvent.value)
    }

    /// `turn <n>` on the open value dial: exactly `n` steps.
    public func turnValue(_ n: Int, at time: Double) -> [DialEvent] {
        values.turn(n, in: tree, at: time, accelerated: false).map(DialEvent.value)
    }

    /// Value item `path`'s device reported `v` (a state topic, `set <path> value`).
    public func reportValue(_ v: Double, for path: MenuPath, at time: Double) -> [DialEvent] {
        values.report(v, for: path, in: tree, initial: liveItems.state(of: path).value, at: time).map(DialEvent.value)
    }

    /// Closes the open value dial (a `select` elsewhere).
    public func closeValue(at time: Double) -> [DialEvent] {
        values.close(in: tree, at: time).map(DialEvent.value)
    }

    /// After a reload: the value dials of the menu before (`old`), where their items kept their
    /// value and live settings.
    public func keepValues(of old: MenuDial) {
        values = old.values.kept(from: old.tree, in: tree)
    }

    /// Turns item `index` of the ring on screen to the top (the short way round).
    @discardableResult
    public func select(index: Int, at time: Double) -> [DialEvent] {
        guard incoming == nil else { return [] }
        return route(dial.select(index: index < 0 || shownRing.isTop ? index : index + 1, at: time))
    }

    /// Puts slot `path` (an item, or a ring's back item `a/..`) at the top, changing rings as
    /// needed. Nil when `path` names no slot.
    public func select(path: MenuPath, at time: Double) -> [DialEvent]? {
        guard tree.isSlot(path) else { return nil }
        return perform(navigation.apply(.select(path), at: time), at: time)
    }

    /// To the parent ring, on its remembered item; nothing on the top ring.
    @discardableResult
    public func back(at time: Double) -> [DialEvent] {
        perform(navigation.apply(.back, at: time), at: time)
    }

    /// To the top ring and its default item (`behaviour.return_after_seconds`).
    @discardableResult
    public func returnToTop(at time: Double) -> [DialEvent] {
        perform(navigation.apply(.returnToTop, at: time), at: time)
    }

    /// Lets the items fly out of the hub (or back into it). During a ring change it decides
    /// whether the next ring comes out.
    public func setShown(_ shown: Bool, at time: Double) {
        wantsShown = shown
        guard incoming == nil else { return }
        dial.setShown(shown, at: time)
    }

    // MARK: - From the dial's slots to the menu's items

    /// The dial's events in the menu's terms: its slots become transitions of the navigation.
    /// After a transition that changes rings the rest of the batch concerns the old ring and
    /// is dropped.
    private func route(_ events: [DialEvent]) -> [DialEvent] {
        let ring = shownRing
        var out: [DialEvent] = []
        for e in events {
            guard incoming == nil, shownRing == ring else { break }
            switch e {
            case .selected(let slot?, _, let t):
                out += perform(navigation.apply(.rest(slot: slot), at: t), at: t)
            case .activated(let slot?, _, let t):
                out += perform(navigation.apply(.activate(slot: slot), at: t), at: t)
            case .rest(let t, let rotation, let slot):
                out.append(.rest(time: t, rotation: rotation, index: slot.flatMap(itemIndex(slot:))))
            case .selected, .activated, .opened, .closed, .value:
                out.append(e)
            }
        }
        if let t = dial.takeLongPress(), incoming == nil, shownRing == ring {
            out += perform(navigation.apply(.hubLongPress, at: t), at: t)
        }
        return out
    }

    /// Carries out a navigation step: its events stamped with `time`, a turn on the ring, or a
    /// ring change.
    private func perform(_ step: MenuStep, at time: Double) -> [DialEvent] {
        var out = step.events.map { event($0, at: time) }
        if let change = step.ringChange {
            startRingChange(to: change.to, slot: change.slot, at: time)
        } else if let slot = step.turn {
            if let next = incoming {
                // The coming ring turns once it is out; its rest reports `selected` then.
                _ = next.dial.select(index: slot, at: time)
            } else {
                out += route(dial.select(index: slot, at: time))
            }
        }
        return out
    }

    private func startRingChange(to ring: MenuPath, slot: Int, at time: Double) {
        let next = makeDial(ring: ring, slot: slot, hidden: true)
        if dial.visibility == .hidden {
            // Nothing to fold (the menu is hidden): the next ring is there at once.
            dial = next
            shownRing = ring
            incoming = nil
            if wantsShown { dial.setShown(true, at: time) }
            return
        }
        dial.setShown(false, at: time)
        incoming = (next, ring)
    }

    private func event(_ e: MenuEvent, at time: Double) -> DialEvent {
        switch e {
        case .opened(let p): return .opened(path: p, time: time)
        case .closed(let p): return .closed(path: p, time: time)
        case .selected(let p): return .selected(index: tree.index(of: p), path: p, time: time)
        case .activated(let p): return .activated(index: tree.index(of: p), path: p, time: time)
        }
    }

    /// The configured item in slot `slot` of the ring on screen (below the top, slot 0 is the
    /// back item).
    private func itemIndex(slot: Int) -> Int? {
        shownRing.isTop ? slot : (slot > 0 ? slot - 1 : nil)
    }
}
