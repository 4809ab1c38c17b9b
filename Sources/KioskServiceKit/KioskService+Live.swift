import DialCore
import KioskSeams
import KioskConfiguration
import KioskLoop

/// The live state the service keeps for the running menu: each item's text, availability and
/// value (`LiveItems`, the copy the dial paints is refreshed at each flush), each value item's
/// commit and echo guard (`ValueSetpoint`), and the value dial open, if any.
package final class LiveService {
    /// At most one flush (item lines, repaint) per this many seconds: one per frame at 60 Hz.
    package static let flushInterval = 1.0 / 60

    package var items = LiveItems()
    package var setpoints: [MenuPath: ValueSetpoint] = [:]
    /// The value item whose dial is open.
    package var open: MenuPath?
    /// The value dial's picture changed (a turn, a close) since the last flush.
    package var dialDirty = false
    package var lastFlush = -Double.infinity
    /// Finger state of a drag on an open value dial (`ValueDrag`).
    package var drag = ValueDrag()
    /// Held-back reports of value items replaced by a reload, so the count never goes down.
    package var guardedBefore = 0
    /// Fast detents from a finger or an encoder on a long range (`ValueAcceleration`).
    package var acceleration = ValueAcceleration()
    /// When each item last heard from the broker (items never heard have no age).
    package var heard: [MenuPath: Double] = [:]
    /// Since when the broker is away (nil: connected, or no broker).
    package var awaySince: Double?
    /// The next time a bound item's age changes while the broker is away.
    package var nextAgeChange: Double?
    /// What the loop was last told of `open` (`.dial(.capture)`): whether it routes input here.
    package var toldCaptured = false

    package init() {}

    /// Reports held back inside a guard since start (`guarded_reports`).
    package var guardedReports: Int { guardedBefore + setpoints.values.reduce(0) { $0 + $1.guardedReports } }

    /// When the service must come back: a pending flush, a commit after a pause, a guard's end.
    package func nextWakeup() -> Double? {
        var times = setpoints.values.compactMap(\.nextDeadline)
        if let t = nextAgeChange { times.append(t) }
        if items.hasChanges || dialDirty { times.append(lastFlush + Self.flushInterval) }
        return times.min()
    }
}

extension KioskService {
    /// `set`, `turn`, and `back`/`activate` while a value dial is open: the loop's requests when
    /// the request was one of these and is done, nil when `perform` goes on with it.
    package func performLive(_ request: ControlServer.Request, at time: Double, dial: DialSnapshot) -> [LoopRequest]? {
        switch request.command {
        case .setItem(let path, let change):
            guard let node = config.menu.node(at: path) else {
                replyError(request, "no item with \(path.depth == 1 ? "id" : "path") '\(path)'", now: time)
                return []
            }
            if case .value = change, node.item.value == nil {
                replyError(request, "item '\(path)' is not a value item: set \(path) value needs an item with a `value:` key", now: time)
                return []
            }
            if request.client == .mqtt { live.heard[path] = time }
            if case .current(let v) = change, let settings = node.item.value, v < settings.minimum || v > settings.maximum {
                // A measured value outside the dial is drawn at its end: the tick shows
                // "at least" or "at most", never a point off the scale.
                let inside = min(settings.maximum, max(settings.minimum, v))
                if let heldBack = remoteLog.admit(now: time) {
                    logger.warning("value \(path): measured \(v) is outside \(settings.minimum)...\(settings.maximum); drawn at \(inside)"
                                   + LogRateLimit.suffix(heldBack))
                }
                live.items.apply(.current(inside), to: path, at: time)
                return []
            }
            if case .value(let v) = change, let settings = node.item.value {
                var setpoint = setpoint(path, settings)
                let outputs = setpoint.report(v, at: time)
                live.setpoints[path] = setpoint
                valueOutputs(outputs, path: path, at: time)
            } else {
                live.items.apply(change, to: path, at: time)
            }
            return []
        case .turn(let n):
            if live.open != nil {
                turnValue(n, at: time)
                return []
            }
            guard !dial.pose.items.isEmpty, dial.pose.visibility > 0 else {
                replyError(request, "nothing can turn: the menu is hidden or empty", now: time)
                return []
            }
            return [.apply(wake(now: time)), .dial(.command(.step(n))), .frameIfDue]
        case .back where live.open != nil:
            closeValueDial(at: time)
            return []
        case .activate where live.open != nil:
            tapValue(at: time)
            return []
        case .select where live.open != nil:
            // Moving the ring elsewhere closes the knob first; the select then runs as usual.
            closeValueDial(at: time)
            return nil
        default:
            return nil
        }
    }

    /// Input while a value dial is open goes to it, never to the ring: steps turn it, a tap
    /// or Enter commits, Back or a long press on the hub closes it. True when taken.
    package func liveInput(_ event: InputEvent) -> Bool {
        guard live.open != nil else { return false }
        switch event {
        case .command(.step(let n), let t): turnValue(n, at: t, accelerated: true)
        case .command(.activate, let t): tapValue(at: t)
        case .command(.back, let t): closeValueDial(at: t)
        case .command(.first, _), .command(.speech, _): return false
        case .touch(let touch):
            guard let geometry = live.drag.geometry else { return true }
            switch live.drag.feed(touch, center: geometry.center, hubRadius: geometry.hubRadius) {
            case .none: break
            case .detents(let n): turnValue(n, at: touch.time, accelerated: true)
            case .tap: tapValue(at: touch.time)
            case .longPress: closeValueDial(at: touch.time)
            }
        }
        return true
    }

    /// The dial's events before they are reported: an unavailable item's activation runs
    /// nothing (a `refused` line), a value item's opens its value dial, and a hub tap on an open
    /// value dial commits it.
    package func liveFilter(_ events: [DialEvent], pose: DialPose) -> [DialEvent] {
        guard !events.isEmpty else { return events }
        return events.filter { event in
            guard case .activated(_, let path, let time) = event else { return true }
            if live.open != nil {
                tapValue(at: time)
                return false
            }
            guard let node = config.menu.node(at: path) else { return true }
            if !live.items.state(of: path).available {
                emit(EventLine([("t", .number(time)), ("event", .string("refused")), ("reason", .string("unavailable")),
                                    ("id", .string(node.id)), ("path", .strings(path.ids))]))
                return false
            }
            if let settings = node.item.value {
                openValueDial(path, settings, geometry: pose.geometry, at: time)
                return false
            }
            return true
        }
    }

    /// The broker came or went (checked every loop turn; cheap): while it is away, items bound
    /// to its topics say how old their state is once it is older than `stale_after_seconds`;
    /// when it is back they are fresh again (its retained messages follow).
    package func checkStaleness(now: Double) {
        guard let mqtt else { return }
        if mqtt.connection.isConnected {
            guard live.awaySince != nil else { return }
            live.awaySince = nil
            live.nextAgeChange = nil
            for path in Self.brokerBound(config.menu) { live.items.apply(.stale(nil), to: path, at: now) }
            return
        }
        if live.awaySince == nil {
            live.awaySince = now
            live.nextAgeChange = now
        }
        guard let due = live.nextAgeChange, now >= due else { return }
        let after = config.mqtt?.staleAfter
        var next: Double?
        for path in Self.brokerBound(config.menu) {
            guard let heard = live.heard[path] else { continue }
            live.items.apply(.stale(ItemAge.staleMinutes(heard: heard, now: now, after: after, away: true)), to: path, at: now)
            if let t = ItemAge.nextChange(heard: heard, now: now, after: after, away: true) { next = min(next ?? t, t) }
        }
        live.nextAgeChange = next
    }

    /// The items whose state comes from broker topics (`live:`, a value's state or current topic).
    static func brokerBound(_ menu: MenuTree) -> [MenuPath] {
        var paths: [MenuPath] = []
        func visit(_ nodes: [MenuNode], ring: MenuPath) {
            for node in nodes {
                let path = ring.appending(node.id)
                if node.item.live != nil || node.item.value?.stateTopic != nil || node.item.value?.currentTopic != nil {
                    paths.append(path)
                }
                if let children = node.children { visit(children, ring: path) }
            }
        }
        visit(menu.top, ring: .top)
        return paths
    }

    /// Once per frame at most: the pauses and guards that came due, one `item` line per item
    /// whose state changed (its last state), the dial's copy refreshed and one repaint.
    package func flushLive(at now: Double) -> [LoopRequest] {
        for (path, var setpoint) in live.setpoints {
            let outputs = setpoint.advance(to: now)
            guard !outputs.isEmpty else { continue }
            live.setpoints[path] = setpoint
            valueOutputs(outputs, path: path, at: now)
        }
        guard live.items.hasChanges || live.dialDirty, now >= live.lastFlush + LiveService.flushInterval else { return [] }
        for path in live.items.takeChanges() { emit(itemLine(path, at: now)) }
        live.lastFlush = now
        live.dialDirty = false
        return [.dial(.live(live.items, valueDialPose())), .repaint]
    }

    /// Whether `flushLive` has anything to do at `now`.
    package func liveDue(now: Double) -> Bool {
        guard let t = live.nextWakeup() else { return false }
        return t <= now
    }

    /// A reload or a new scene: the new dial gets the states of items whose binding did not
    /// change (`previousMenu`: the menu before, nil when the menu is the same). Returns the
    /// dial's copy of them.
    package func liveReplaced(previousMenu: MenuTree?) -> [LoopRequest] {
        if let previousMenu {
            let menu = config.menu
            func same(_ path: MenuPath) -> Bool {
                let old = previousMenu.node(at: path)?.item, new = menu.node(at: path)?.item
                return old?.live == new?.live && old?.value == new?.value
            }
            live.items = live.items.kept(in: menu, where: same)
            live.heard = live.heard.filter { menu.node(at: $0.key) != nil && same($0.key) }
            for (path, setpoint) in live.setpoints where !same(path) || menu.node(at: path) == nil {
                live.guardedBefore += setpoint.guardedReports
                live.setpoints[path] = nil
            }
            if let open = live.open, !same(open) { live.open = nil }
            mqtt?.bindLive(menu)
        }
        return [.dial(.live(live.items, valueDialPose()))]
    }

    // MARK: - The value dial

    private func setpoint(_ path: MenuPath, _ settings: ValueSettings) -> ValueSetpoint {
        if let s = live.setpoints[path], s.settings == settings { return s }
        return ValueSetpoint(settings: settings, initial: live.items.state(of: path).value)
    }

    private func openValueDial(_ path: MenuPath, _ settings: ValueSettings, geometry: DialGeometry, at time: Double) {
        let setpoint = setpoint(path, settings)
        live.setpoints[path] = setpoint
        live.open = path
        live.drag = ValueDrag(geometry: geometry)
        live.acceleration.reset()
        live.dialDirty = true
        emit(EventLine(valueHead("opened", path, at: time) + [("value", .number(setpoint.shown))]))
    }

    /// Closes the value dial (Back, a long press, a `select` elsewhere).
    package func closeValueDial(at time: Double) {
        guard let path = live.open else { return }
        live.open = nil
        live.drag = ValueDrag()
        live.dialDirty = true
        emit(EventLine(valueHead("closed", path, at: time)))
    }

    /// `n` detents; `accelerated`: from a finger, a wheel or an encoder (fast turns on a long
    /// range move more steps), not from `turn <n>`, which turns exactly n.
    private func turnValue(_ n: Int, at time: Double, accelerated: Bool = false) {
        guard let path = live.open, var setpoint = live.setpoints[path] else { return }
        let steps = accelerated ? live.acceleration.steps(n, at: time, stepCount: setpoint.settings.stepCount) : n
        let outputs = setpoint.turn(steps, at: time)
        live.setpoints[path] = setpoint
        valueOutputs(outputs, path: path, at: time)
    }

    private func tapValue(at time: Double) {
        guard let path = live.open, var setpoint = live.setpoints[path] else { return }
        let outputs = setpoint.tap(at: time)
        live.setpoints[path] = setpoint
        valueOutputs(outputs, path: path, at: time)
    }

    /// What a setpoint's step means outside: `value` lines, the publish or the command on
    /// commit, the shown value into the item's state.
    private func valueOutputs(_ outputs: [ValueSetpoint.Output], path: MenuPath, at time: Double) {
        guard let item = config.menu.node(at: path)?.item, let settings = item.value else { return }
        func line(_ phase: String, _ v: Double) {
            emit(EventLine([("t", .number(time)), ("event", .string("value")), ("phase", .string(phase)),
                                ("value", .number(v)), ("id", .string(item.id)), ("path", .strings(path.ids))]))
        }
        for output in outputs {
            switch output {
            case .changing(let v):
                line("changing", v)
                live.items.apply(.value(v), to: path, at: time)
            case .committed(let v):
                line("committed", v)
                speech.say("set to " + spokenValue(v, settings), settings: config.accessibility, now: time)
                live.items.apply(.value(v), to: path, at: time)
                let text = settings.text(v)
                if let topic = settings.commandTopic { mqtt?.connection.publishCommand(topic: topic, payload: text) }
                if let command = settings.command {
                    var runnable = item
                    runnable.command = command
                    runCommand(runnable, path: path, now: time, extra: ["DIALKIOSK_VALUE": text])
                }
                if settings.ownedByKiosk, let mqtt {
                    mqtt.publishRetained(topic: mqtt.topics.base + "/value/" + path.description, payload: text)
                }
            case .confirmed(let v):
                line("confirmed", v)
            case .external(let v):
                line("external", v)
                live.items.apply(.value(v), to: path, at: time)
                if settings.ownedByKiosk, let mqtt {
                    mqtt.publishRetained(topic: mqtt.topics.base + "/value/" + path.description, payload: settings.text(v))
                }
            case .stop(let atMaximum):
                speech.stop(atMaximum: atMaximum, settings: config.accessibility, now: time)
            case .rest(let v):
                speech.say(spokenValue(v, settings), settings: config.accessibility, now: time)
            case .clamped(let reported, let to):
                if let heldBack = remoteLog.admit(now: time) {
                    logger.warning("value \(path): report \(reported) is outside \(settings.minimum)...\(settings.maximum); taken as \(to)"
                                   + LogRateLimit.suffix(heldBack))
                }
            }
        }
        if live.open == path { live.dialDirty = true }
    }

    private func spokenValue(_ v: Double, _ settings: ValueSettings) -> String {
        settings.text(v) + (settings.unit.map { " " + $0 } ?? "")
    }

    private func valueDialPose() -> ValueDialPose? {
        guard let path = live.open, let item = config.menu.node(at: path)?.item, let settings = item.value,
              let setpoint = live.setpoints[path] else { return nil }
        return ValueDialPose(settings: settings, shown: setpoint.shown, current: live.items.state(of: path).current,
                             label: item.label)
    }

    private func valueHead(_ event: String, _ path: MenuPath, at time: Double) -> [(String, EventLine.Value)] {
        let item = config.menu.node(at: path)?.item
        return [("t", .number(time)), ("event", .string(event)), ("id", .string(item?.id ?? "")),
                ("label", .string(item?.label ?? "")), ("path", .strings(path.ids))]
    }

    /// `{"t": ..., "event": "item", "path": [...], "id": ..., "text": ..., "available": ...}`
    /// (`value` too when the item has one).
    private func itemLine(_ path: MenuPath, at time: Double) -> EventLine {
        let state = live.items.state(of: path)
        var fields: [(String, EventLine.Value)] = [("t", .number(time)), ("event", .string("item")),
                                                   ("path", .strings(path.ids)), ("id", .string(path.last ?? "")),
                                                   ("text", state.text.map { .string($0) } ?? .null),
                                                   ("available", .bool(state.available))]
        if let v = state.value { fields.append(("value", .number(v))) }
        if let c = state.current { fields.append(("current", .number(c))) }
        if let m = state.staleMinutes { fields.append(("age_minutes", .int(m))) }
        return EventLine(fields)
    }
}
