import KioskSeams
/// The dial's state machine: touches and commands in, rotation, selection and frames out.
///
/// Time is always an argument: touch timestamps and frame-clock timestamps (CLOCK_MONOTONIC
/// seconds); nothing here reads a clock or sleeps. The frame loop calls `advance(to:)` with each
/// flip's timestamp, then paints `pose` if `needsFrame`; input goes through `handle(_:)`.
public final class Dial {
    public let items: [MenuItem]
    public let layout: DialLayout
    public let geometry: DialGeometry
    public let physics: PhysicsSettings
    public let inflate: Inflate
    public let reveal: RevealAnimation
    public let gestures: GestureSettings

    /// What the ring is doing.
    public enum Motion: Sendable, Equatable {
        case resting
        case dragging(slot: Int)
        case coasting(target: Int)
        case easing(target: Int)
    }

    /// Total turn since start, radians, positive clockwise, not wrapped.
    public private(set) var rotation: Double
    public private(set) var motion: Motion = .resting
    public private(set) var visibility: Visibility = .shown
    /// Whether a finger held still on the hub fires a long press (`takeLongPress()`); off for a
    /// ring with nowhere to go back to, so it never costs a frame there.
    public var detectsLongPress = false

    private var coast: (state: Coast, target: Double, index: Int)?
    private var snap: (state: Snap, index: Int)?
    private var drag: Drag?
    private var tracker: RotationTracker
    private var velocity = VelocityEstimator()
    private let screen: (width: Double, height: Double)

    /// Last frame-clock or event time seen, and the clamped animation clock built from it.
    private var now: Double?
    /// Animation time: advances with the frame clock, at most `physics.maxStep` per step.
    public private(set) var animationClock = 0.0
    private var lastTouchTime: Double?
    /// The item last reported as selected; events fire only on change.
    private var reportedIndex: Int?
    /// Visible change since the last `advance(to:)`, and whether that advance changed the picture.
    private var changedSinceAdvance = true
    private var frameDue = true
    /// When a long press fired, until `takeLongPress()` collects it.
    private var longPress: Double?

    private struct Drag {
        var slot: Int
        var downTime: Double
        var lastTime: Double
        var downPoint: Point
        /// Where the finger was last seen: an unusable up or cancel ends the drag here.
        var lastPoint: Point
        var moved = false
        /// The finger caught a moving ring: lifting it is not a tap.
        var caughtMoving: Bool
        /// A long press fired for this finger: it fires once, and lifting it is not a tap.
        var longPressed = false
    }

    /// - Parameters:
    ///   - screen: frame size in pixels, for rejecting samples far outside it (defaults to
    ///     twice the dial centre).
    ///   - initialIndex: the item at 12 o'clock at start.
    public init(items: [MenuItem], layout: DialLayout? = nil, geometry: DialGeometry,
                physics: PhysicsSettings = PhysicsSettings(), inflate: Inflate = Inflate(),
                reveal: RevealAnimation = RevealAnimation(), gestures: GestureSettings = GestureSettings(),
                screen: (width: Double, height: Double)? = nil, initialIndex: Int = 0,
                startHidden: Bool = false) {
        self.items = items
        let layout = layout ?? DialLayout(count: items.count)
        self.layout = layout
        self.geometry = geometry
        self.physics = physics
        self.inflate = inflate
        self.reveal = reveal
        self.gestures = gestures
        self.screen = screen ?? (geometry.center.x * 2, geometry.center.y * 2)
        self.tracker = RotationTracker(center: geometry.center, deadZone: geometry.hubRadius * gestures.deadZoneFraction)
        let start = items.isEmpty ? 0 : max(0, min(items.count - 1, initialIndex))
        rotation = items.isEmpty ? 0 : layout.restRotation(of: start)
        if rotation > Double.pi { rotation -= Angle.twoPi }
        reportedIndex = layout.selectedIndex(rotation: rotation)
        visibility = startHidden ? .hidden : .shown
    }

    // MARK: - State for painting and reporting

    /// The item at (or nearest) 12 o'clock now.
    public var selectedIndex: Int? { layout.selectedIndex(rotation: rotation) }

    /// True while something on screen changed since the last `advance(to:)` or an animation runs.
    public var needsFrame: Bool {
        frameDue || changedSinceAdvance || isAnimating || longPressPending
    }

    /// A finger rests on the hub and may become a long press. A finger held still sends no
    /// events and the frame clock is the only clock the dial sees, so frames keep coming until
    /// the press fires or ends (at most `GestureSettings.longPressDuration`).
    private var longPressPending: Bool {
        guard detectsLongPress, let d = drag else { return false }
        return !d.longPressed && !d.moved && !d.caughtMoving && d.downPoint.distance(to: geometry.center) <= geometry.hubRadius
    }

    /// The time a long press on the hub fired, once; nil when none fired since the last call.
    public func takeLongPress() -> Double? {
        defer { longPress = nil }
        return longPress
    }

    /// True while the ring coasts or eases, or the menu shows or hides.
    public var isAnimating: Bool {
        coast != nil || snap != nil || visibility.isAnimating
    }

    /// What to paint for the current state.
    public var pose: DialPose {
        PoseBuilder(layout: layout, geometry: geometry, inflate: inflate, reveal: reveal)
            .pose(rotation: rotation, visibility: visibility, time: animationClock)
    }

    // MARK: - The frame clock

    /// Advance animations to `time` (a frame-clock timestamp); the step is clamped to
    /// `physics.maxStep`. Returns the events that coming to rest caused.
    @discardableResult
    public func advance(to time: Double) -> [DialEvent] {
        frameDue = changedSinceAdvance
        changedSinceAdvance = false
        var events: [DialEvent] = []
        step(to: time, events: &events)
        frameDue = frameDue || changedSinceAdvance
        changedSinceAdvance = false
        return events
    }

    private func step(to time: Double, events: inout [DialEvent]) {
        guard time.isFinite else { return }
        guard let last = now else {
            now = time
            return
        }
        var dt = time - last
        if dt < 0 {
            // A clock far behind is a new time base (a bogus sample earlier jumped ahead).
            if dt < -gestures.clockResetThreshold { now = time }
            return
        }
        now = time
        checkLongPress(at: time)
        dt = min(dt, physics.maxStep)
        guard dt > 0 else { return }
        animationClock += dt

        if var c = coast {
            c.state.step(dt)
            if abs(c.target - c.state.rotation) < physics.restEpsilon || !c.state.rotation.isFinite {
                setRotation(c.target)
                coast = nil
                comeToRest(at: time, events: &events)
            } else {
                setRotation(c.state.rotation)
                coast = c
            }
        }
        if var s = snap {
            s.state.step(dt)
            setRotation(s.state.rotation)
            if s.state.isFinished {
                snap = nil
                comeToRest(at: time, events: &events)
            } else {
                snap = s
            }
        }
        switch visibility {
        case .showing(let since):
            changedSinceAdvance = true
            if animationClock - since >= reveal.totalDuration { visibility = .shown }
        case .hiding(let since):
            changedSinceAdvance = true
            if animationClock - since >= reveal.totalDuration { visibility = .hidden }
        case .shown, .hidden:
            break
        }
    }

    private func checkLongPress(at time: Double) {
        guard longPressPending, var d = drag, time - d.downTime >= gestures.longPressDuration,
              d.lastPoint.distance(to: geometry.center) <= geometry.hubRadius else { return }
        d.longPressed = true
        drag = d
        longPress = time
    }

    private func setRotation(_ r: Double) {
        guard r.isFinite else { return }
        if r != rotation { changedSinceAdvance = true }
        rotation = r
    }

    private func comeToRest(at time: Double, events: inout [DialEvent]) {
        motion = .resting
        let index = layout.selectedIndex(rotation: rotation)
        if let index, index != reportedIndex {
            reportedIndex = index
            events.append(.selected(index: index, path: path(of: index), time: time))
        }
        events.append(.rest(time: time, rotation: rotation, index: index))
    }

    // MARK: - Input

    /// Feed one input event. Samples that are not finite, far outside the screen, from a
    /// negative slot, or earlier than the previous touch are dropped, except the up or cancel
    /// that ends the drag, which is taken at the finger's last position (see `accept`).
    @discardableResult
    public func handle(_ event: InputEvent) -> [DialEvent] {
        var events: [DialEvent] = []
        switch event {
        case .touch(var e):
            guard accept(&e) else { return [] }
            step(to: e.time, events: &events)
            handleTouch(e, events: &events)
        case .command(let c, let time):
            guard time.isFinite else { return [] }
            step(to: time, events: &events)
            handleCommand(c, at: time, events: &events)
        }
        return events
    }

    /// Whether to take a sample, and at what time. A motion earlier than the previous sample is
    /// dropped; a down, up or cancel is never dropped for its time: it counts as simultaneous with
    /// the previous sample. An up or cancel of the dragging finger is never dropped at all (losing
    /// it would leave the ring held by a finger that is gone): where its own position or time is
    /// unusable (not finite, far outside the screen, as a digitizer's overshoot gives), it ends
    /// the drag at the finger's last accepted position and time.
    private func accept(_ e: inout TouchEvent) -> Bool {
        guard e.slot >= 0 else { return false }
        let w = screen.width, h = screen.height
        let finite = e.x.isFinite && e.y.isFinite
        let onScreen = finite && e.x >= -w && e.x <= 2 * w && e.y >= -h && e.y <= 2 * h
        if e.phase == .up || e.phase == .cancel, let d = drag, d.slot == e.slot {
            if !onScreen { (e.x, e.y) = (d.lastPoint.x, d.lastPoint.y) }
            if !e.time.isFinite { e.time = d.lastTime }
        } else {
            guard finite, e.time.isFinite else { return false }
            if e.phase != .frame && e.phase != .cancel && !onScreen { return false }
        }
        if let last = lastTouchTime, e.time < last {
            if last - e.time > gestures.clockResetThreshold {
                // Far earlier: the clock was reset (or the previous sample was bogus); take it.
                velocity.reset()
            } else if e.phase == .motion {
                return false
            } else {
                e.time = last
            }
        }
        lastTouchTime = e.time
        return true
    }

    private func handleTouch(_ e: TouchEvent, events: inout [DialEvent]) {
        let p = Point(x: e.x, y: e.y)
        switch e.phase {
        case .down:
            guard !items.isEmpty else { return }
            if let d = drag {
                // Another finger while the first is down: ignored. The same slot down again, or
                // a first finger silent for long, means its up was lost: the new touch takes over.
                guard d.slot == e.slot || e.time - d.lastTime > gestures.staleTouchTimeout else { return }
            }
            let wasMoving = coast != nil || snap != nil || drag != nil
            coast = nil
            snap = nil
            drag = Drag(slot: e.slot, downTime: e.time, lastTime: e.time, downPoint: p, lastPoint: p,
                        caughtMoving: wasMoving)
            motion = .dragging(slot: e.slot)
            tracker.grab(at: p, rotation: rotation)
            velocity.reset()
            velocity.add(time: e.time, rotation: rotation)
        case .motion:
            guard var d = drag, d.slot == e.slot else { return }
            if p.distance(to: d.downPoint) > gestures.tapSlop { d.moved = true }
            d.lastTime = e.time
            d.lastPoint = p
            drag = d
            if let r = tracker.move(to: p, rotation: rotation) { setRotation(r) }
            velocity.add(time: e.time, rotation: rotation)
        case .up:
            guard let d = drag, d.slot == e.slot else { return }
            if let r = tracker.move(to: p, rotation: rotation) { setRotation(r) }
            velocity.add(time: e.time, rotation: rotation)
            let v = velocity.velocity(at: e.time)
            endDrag()
            let moved = d.moved || p.distance(to: d.downPoint) > gestures.tapSlop
            if !moved, !d.caughtMoving, !d.longPressed, e.time - d.downTime <= gestures.tapTimeout {
                handleTap(at: d.downPoint, time: e.time, events: &events)
            } else {
                land(velocity: v, at: e.time, events: &events)
            }
        case .cancel:
            guard let d = drag, d.slot == e.slot else { return }
            endDrag()
            land(velocity: 0, at: e.time, events: &events)
        case .frame:
            break
        }
    }

    /// The path an item of this single ring reports: its id.
    private func path(of index: Int) -> MenuPath {
        items.indices.contains(index) ? MenuPath([items[index].id]) : .top
    }

    private func endDrag() {
        drag = nil
        tracker.release()
        motion = .resting
    }

    private func handleTap(at p: Point, time: Double, events: inout [DialEvent]) {
        if p.distance(to: geometry.center) <= geometry.hubRadius {
            land(velocity: 0, at: time, events: &events)
            if let i = layout.selectedIndex(rotation: landingRotation) {
                events.insert(.activated(index: i, path: path(of: i), time: time), at: 0)
            }
            return
        }
        if let hit = itemHit(at: p) {
            turn(toItem: hit, at: time, events: &events)
            return
        }
        land(velocity: 0, at: time, events: &events)
    }

    /// The item whose disc contains `p`, nearest centre first.
    private func itemHit(at p: Point) -> Int? {
        let current = pose
        var best: (Int, Double)?
        for (i, item) in current.items.enumerated() where item.alpha > 0 {
            let d = p.distance(to: item.center)
            if d <= geometry.itemRadius * item.scale, d < (best?.1 ?? .infinity) { best = (i, d) }
        }
        return best?.0
    }

    /// Where the ring will rest if left alone now.
    private var landingRotation: Double {
        coast?.target ?? snap?.state.to ?? rotation
    }

    private func land(velocity v: Double, at time: Double, events: inout [DialEvent]) {
        guard let plan = planLanding(rotation: rotation, velocity: v, layout: layout, physics: physics) else {
            comeToRest(at: time, events: &events)
            return
        }
        apply(plan, at: time, events: &events)
    }

    private func apply(_ plan: LandingPlan, at time: Double, events: inout [DialEvent]) {
        coast = nil
        snap = nil
        switch plan {
        case .coast(let target, let v, let index):
            coast = (Coast(rotation: rotation, velocity: v, tau: physics.tau), target, index)
            motion = .coasting(target: index)
        case .snap(let target, let duration, let index):
            snap = (Snap(from: rotation, to: target, duration: duration), index)
            motion = .easing(target: index)
        case .none:
            comeToRest(at: time, events: &events)
        }
        changedSinceAdvance = true
    }

    private func turn(toItem index: Int, at time: Double, events: inout [DialEvent]) {
        guard index >= 0, index < items.count else { return }
        let base = layout.restRotation(of: index)
        let from = landingRotation
        let target = base + ((from - base) / Angle.twoPi).rounded() * Angle.twoPi
        apply(easePlan(from: rotation, to: (index, target), layout: layout, physics: physics), at: time, events: &events)
    }

    private func handleCommand(_ c: StepCommand, at time: Double, events: inout [DialEvent]) {
        guard !items.isEmpty, drag == nil else { return }
        switch c {
        case .step(let n):
            guard let slot = layout.slot(steppedBy: n, from: landingRotation) else { return }
            apply(easePlan(from: rotation, to: slot, layout: layout, physics: physics), at: time, events: &events)
        case .first:
            turn(toItem: 0, at: time, events: &events)
        case .activate:
            if let i = layout.selectedIndex(rotation: landingRotation) {
                events.append(.activated(index: i, path: path(of: i), time: time))
            }
        case .back, .speech, .digit:
            // One ring has nowhere to go back to; `MenuDial` takes this command before the dial.
            // Speech keys are the service's (KioskService.filter), nothing turns for them; a
            // digit key is the PIN ring's alone.
            break
        }
    }

    // MARK: - Commands from the outside (control socket, idle timers)

    /// Turn item `index` to the top (the short way round), as a tap on it would.
    @discardableResult
    public func select(index: Int, at time: Double) -> [DialEvent] {
        var events: [DialEvent] = []
        step(to: time, events: &events)
        guard drag == nil else { return events }
        turn(toItem: index, at: time, events: &events)
        return events
    }

    /// Let the items fly out of the hub (or back into it).
    public func setShown(_ shown: Bool, at time: Double) {
        var ignored: [DialEvent] = []
        step(to: time, events: &ignored)
        switch (shown, visibility) {
        case (true, .hidden), (true, .hiding): visibility = .showing(since: animationClock)
        case (false, .shown), (false, .showing): visibility = .hiding(since: animationClock)
        default: return
        }
        changedSinceAdvance = true
    }
}
