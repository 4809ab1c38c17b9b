import DialCore
import KioskSeams
import KioskConfiguration
import KioskLoop

/// The live state the service keeps for the running menu: each item's text, availability and
/// value (`LiveItems`, the copy the dial paints is refreshed at each flush). The value dials
/// themselves (which is open, their setpoints, the finger on them) are the dial's
/// (`MenuDial.values`); the service hears of them as dial events and does what they mean outside.
package final class LiveService {
    /// At most one flush (item lines, repaint) per this many seconds: one per frame at 60 Hz.
    package static let flushInterval = 1.0 / 60

    package var items = LiveItems()
    /// The value item whose dial is open, as the dial's events told.
    package var open: MenuPath?
    /// The value dial's picture changed (a turn, a close) since the last flush.
    package var dialDirty = false
    package var lastFlush = -Double.infinity
    /// Reports held back inside a commit's guard since start (`guarded_reports`).
    package var guardedReports = 0
    /// When each item last heard from the broker (items never heard have no age).
    package var heard: [MenuPath: Double] = [:]
    /// Since when the broker is away (nil: connected, or no broker).
    package var awaySince: Double?
    /// The next time a bound item's age changes while the broker is away.
    package var nextAgeChange: Double?

    package init() {}

    /// When the service must come back: a pending flush, a stale item's next age.
    package func nextWakeup() -> Double? {
        var times: [Double] = []
        if let t = nextAgeChange { times.append(t) }
        if items.hasChanges || dialDirty { times.append(lastFlush + Self.flushInterval) }
        return times.min()
    }
}

extension LegacyService {
    /// `set`, `turn`, and `back`/`activate` while a value dial is open: the loop's requests when
    /// the request was one of these and is done, nil when `perform` goes on with it.
    package func performLive(_ request: ControlServer.Request, at time: Double, dial: DialSnapshot) -> [LoopRequest]? {
        let valueOpen = dial.pose.valueDial != nil
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
            if case .value(let v) = change, node.item.value != nil { return [.dial(.reportValue(path, v))] }
            live.items.apply(change, to: path, at: time)
            return []
        case .turn(let n):
            if valueOpen { return [.dial(.turnValue(n))] }
            guard !dial.pose.items.isEmpty, dial.pose.visibility > 0 else {
                replyError(request, "nothing can turn: the menu is hidden or empty", now: time)
                return []
            }
            return [.apply(wake(now: time)), .dial(.command(.step(n))), .frameIfDue]
        case .back where valueOpen:
            return [.dial(.command(.back))]
        case .activate where valueOpen:
            return [.dial(.command(.activate))]
        default:
            return nil
        }
    }

    /// The dial's events before they are reported: an unavailable item's activation runs
    /// nothing (a `refused` line), and a value dial's news is carried out (lines go out with
    /// the rest in `report`).
    package func liveFilter(_ events: [DialEvent]) -> [DialEvent] {
        guard !events.isEmpty else { return events }
        return events.filter { event in
            if case .value(let news) = event {
                valueNews(news)
                return true
            }
            guard case .activated(_, let path, let time) = event, let node = config.menu.node(at: path),
                  !live.items.state(of: path).available else { return true }
            emit(EventLine([("t", .number(time)), ("event", .event(.refused)), ("reason", .string("unavailable")),
                            ("id", .string(node.id)), ("path", .strings(path.ids))]))
            return false
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
        guard live.items.hasChanges || live.dialDirty, now >= live.lastFlush + LiveService.flushInterval else { return [] }
        for path in live.items.takeChanges() { emit(itemLine(path, at: now)) }
        live.lastFlush = now
        live.dialDirty = false
        return [.dial(.live(live.items)), .repaint]
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
            if let open = live.open, !same(open) { live.open = nil }
            mqtt?.bindLive(menu)
        }
        return [.dial(.live(live.items))]
    }

    // MARK: - The value dial

    /// A value dial's news from the dial: what it means outside.
    private func valueNews(_ news: ValueDialEvent) {
        switch news {
        case .opened(let path, _, _, _, _):
            live.open = path
            live.dialDirty = true
        case .closed:
            live.open = nil
            live.dialDirty = true
        case .heldBack:
            live.guardedReports += 1
        case .output(let output, let path, _, let time):
            valueOutput(output, path: path, at: time)
        }
    }

    /// What a setpoint's step means outside (its `value` line is the dial event's): the publish
    /// or the command on commit, the shown value into the item's state, speech, the log.
    private func valueOutput(_ output: ValueSetpoint.Output, path: MenuPath, at time: Double) {
        guard let item = config.menu.node(at: path)?.item, let settings = item.value else { return }
        switch output {
        case .changing(let v):
            live.items.apply(.value(v), to: path, at: time)
        case .committed(let v):
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
        case .confirmed:
            break
        case .external(let v):
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
        if live.open == path { live.dialDirty = true }
    }

    private func spokenValue(_ v: Double, _ settings: ValueSettings) -> String {
        settings.text(v) + (settings.unit.map { " " + $0 } ?? "")
    }

    /// `{"t": ..., "event": "item", "path": [...], "id": ..., "text": ..., "available": ...}`
    /// (`value` too when the item has one).
    private func itemLine(_ path: MenuPath, at time: Double) -> EventLine {
        let state = live.items.state(of: path)
        var fields: [(String, EventLine.Value)] = [("t", .number(time)), ("event", .event(.item)),
                                                   ("path", .strings(path.ids)), ("id", .string(path.last ?? "")),
                                                   ("text", state.text.map { .string($0) } ?? .null),
                                                   ("available", .bool(state.available))]
        if let v = state.value { fields.append(("value", .number(v))) }
        if let c = state.current { fields.append(("current", .number(c))) }
        if let m = state.staleMinutes { fields.append(("age_minutes", .int(m))) }
        return EventLine(fields)
    }
}
