import KioskSeams

/// The value dials of a menu, as `MenuDial`'s value-dial mode: which one is open over the ring,
/// the finger on it (`ValueDrag`), fast turns (`ValueAcceleration`) and every value item's
/// setpoint (`ValueSetpoint`: shown value, commit after a pause, the guard after it). While one
/// is open it takes the input the ring would have: steps turn it, a tap on the hub or Enter
/// commits, Back or a long press on the hub closes it. Pure: time is an argument, what happens
/// comes out as `ValueDialEvent`s, which the dial reports as its own events.
public struct ValueDials: Sendable, Equatable {
    /// The value item whose dial is open (nil: none).
    public private(set) var open: MenuPath?
    /// Every value item's setpoint heard of or turned so far.
    public private(set) var setpoints: [MenuPath: ValueSetpoint] = [:]
    private var drag = ValueDrag()
    private var acceleration = ValueAcceleration()

    public init() {}

    /// The next time `advance` has something to do (a commit after a pause, a rest, a guard's end).
    public var nextDeadline: Double? { setpoints.values.compactMap(\.nextDeadline).min() }

    /// Opens the dial of value item `path` (`initial`: the item's last known value).
    public mutating func open(_ path: MenuPath, in tree: MenuTree, initial: Double?, geometry: DialGeometry,
                              gestures: GestureSettings, at time: Double) -> [ValueDialEvent] {
        guard let item = tree.node(at: path)?.item, let settings = item.value else { return [] }
        let setpoint = setpoint(path, settings, initial: initial)
        setpoints[path] = setpoint
        open = path
        drag = ValueDrag(geometry: geometry, gestures: gestures)
        acceleration.reset()
        return [.opened(path: path, id: item.id, label: item.label, value: setpoint.shown, time: time)]
    }

    /// Closes the open dial (Back, a long press, a `select` elsewhere); nothing when none is.
    public mutating func close(in tree: MenuTree, at time: Double) -> [ValueDialEvent] {
        guard let path = open else { return [] }
        open = nil
        drag = ValueDrag()
        let item = tree.node(at: path)?.item
        return [.closed(path: path, id: item?.id ?? "", label: item?.label ?? "", time: time)]
    }

    /// Input while a dial is open; nil when it is not the value dial's (none is open, or the
    /// `first` and speech keys, which are never its).
    public mutating func input(_ event: InputEvent, in tree: MenuTree) -> [ValueDialEvent]? {
        guard open != nil else { return nil }
        switch event {
        case .command(.step(let n), let t): return turn(n, in: tree, at: t, accelerated: true)
        case .command(.activate, let t): return tap(in: tree, at: t)
        case .command(.back, let t): return close(in: tree, at: t)
        case .command(.first, _), .command(.speech, _): return nil
        case .command(.digit, _): return []
        case .touch(let touch):
            guard let geometry = drag.geometry else { return [] }
            switch drag.feed(touch, center: geometry.center, hubRadius: geometry.hubRadius) {
            case .none: return []
            case .detents(let n): return turn(n, in: tree, at: touch.time, accelerated: true)
            case .tap: return tap(in: tree, at: touch.time)
            case .longPress: return close(in: tree, at: touch.time)
            }
        }
    }

    /// `n` detents on the open dial; `accelerated`: from a finger, a wheel or an encoder (fast
    /// turns on a long range move more steps), not from `turn <n>`, which turns exactly n.
    public mutating func turn(_ n: Int, in tree: MenuTree, at time: Double, accelerated: Bool) -> [ValueDialEvent] {
        guard let path = open, var setpoint = setpoints[path] else { return [] }
        let steps = accelerated ? acceleration.steps(n, at: time, stepCount: setpoint.settings.stepCount) : n
        let outputs = setpoint.turn(steps, at: time)
        setpoints[path] = setpoint
        return events(outputs, path, tree, at: time)
    }

    /// A tap on the hub (or Enter, or `activate`): commits a change at once.
    public mutating func tap(in tree: MenuTree, at time: Double) -> [ValueDialEvent] {
        guard let path = open, var setpoint = setpoints[path] else { return [] }
        let outputs = setpoint.tap(at: time)
        setpoints[path] = setpoint
        return events(outputs, path, tree, at: time)
    }

    /// The device reports value `v` for item `path` (a state topic's message, `set <path> value`).
    public mutating func report(_ v: Double, for path: MenuPath, in tree: MenuTree, initial: Double?,
                                at time: Double) -> [ValueDialEvent] {
        guard let settings = tree.node(at: path)?.item.value else { return [] }
        var setpoint = setpoint(path, settings, initial: initial)
        let held = setpoint.guardedReports
        var out = events(setpoint.report(v, at: time), path, tree, at: time)
        if setpoint.guardedReports > held { out.append(.heldBack(path: path, time: time)) }
        setpoints[path] = setpoint
        return out
    }

    /// The clock reached `time`: the pauses, rests and guards that came due.
    public mutating func advance(to time: Double, in tree: MenuTree) -> [ValueDialEvent] {
        var out: [ValueDialEvent] = []
        // In path order, so that two items due at one instant report the same way every run.
        for path in setpoints.keys.sorted(by: { $0.description < $1.description }) {
            guard var setpoint = setpoints[path], let due = setpoint.nextDeadline, due <= time else { continue }
            let outputs = setpoint.advance(to: time)
            setpoints[path] = setpoint
            out += events(outputs, path, tree, at: time)
        }
        return out
    }

    /// What a reload keeps (`self` being the old menu's, `old` its tree): the setpoints of items
    /// whose value and live binding did not change, and the open dial when its item is kept.
    public func kept(from old: MenuTree, in new: MenuTree) -> ValueDials {
        func same(_ path: MenuPath) -> Bool {
            guard let before = old.node(at: path)?.item, let after = new.node(at: path)?.item else { return false }
            return before.live == after.live && before.value == after.value
        }
        var out = ValueDials()
        out.setpoints = setpoints.filter { same($0.key) }
        if let open, same(open) {
            out.open = open
            out.drag = ValueDrag(geometry: drag.geometry, gestures: drag.gestures)
        }
        return out
    }

    /// What the open dial shows (nil: none open).
    public func pose(in tree: MenuTree, live: LiveItems) -> ValueDialPose? {
        guard let path = open, let item = tree.node(at: path)?.item, let settings = item.value,
              let setpoint = setpoints[path] else { return nil }
        return ValueDialPose(settings: settings, shown: setpoint.shown, current: live.state(of: path).current, label: item.label)
    }

    private func setpoint(_ path: MenuPath, _ settings: ValueSettings, initial: Double?) -> ValueSetpoint {
        if let s = setpoints[path], s.settings == settings { return s }
        return ValueSetpoint(settings: settings, initial: initial)
    }

    private func events(_ outputs: [ValueSetpoint.Output], _ path: MenuPath, _ tree: MenuTree, at time: Double) -> [ValueDialEvent] {
        let id = tree.node(at: path)?.item.id ?? path.last ?? ""
        return outputs.map { .output($0, path: path, id: id, time: time) }
    }
}
