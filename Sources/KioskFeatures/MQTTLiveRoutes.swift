import DialCore
import KioskVocabulary
import MQTTLink
import KioskConfiguration

/// Which topics feed which items' live state (`live:` and `value:` bindings), and the last
/// message of each not yet taken: a flood on one topic between two loop turns is one message,
/// so the work per turn is bounded by the number of bound topics, whatever the broker sends.
package struct MQTTLiveRoutes {
    package enum Field: Equatable {
        case text(LiveBinding)
        case available
        case value
        case current
    }

    package private(set) var byTopic: [String: [(path: MenuPath, field: Field)]] = [:]
    private var latest: [String: MQTTMessage] = [:]
    private var order: [String] = []

    package init() {}

    /// Every binding of `menu`.
    package init(menu: MenuTree) {
        func visit(_ nodes: [MenuNode], ring: MenuPath) {
            for node in nodes {
                let path = ring.appending(node.id)
                if let live = node.item.live {
                    add(live.topic, path, .text(live))
                    if let t = live.availableTopic { add(t, path, .available) }
                }
                if let value = node.item.value {
                    if let t = value.stateTopic { add(t, path, .value) }
                    if let t = value.currentTopic { add(t, path, .current) }
                }
                if let children = node.children { visit(children, ring: path) }
            }
        }
        visit(menu.top, ring: .top)
    }

    private mutating func add(_ topic: String, _ path: MenuPath, _ field: Field) {
        byTopic[topic, default: []].append((path, field))
    }

    /// The topics to subscribe to, sorted.
    package var topics: [String] { byTopic.keys.sorted() }

    /// Keeps `message` when its topic is bound (true), replacing an earlier one not yet taken.
    package mutating func offer(_ message: MQTTMessage) -> Bool {
        guard byTopic[message.topic] != nil else { return false }
        if latest.updateValue(message, forKey: message.topic) == nil { order.append(message.topic) }
        return true
    }

    /// The kept messages as item changes, in the order their topics first spoke; refusals
    /// (a payload too long, not JSON, not a number) as text for the journal.
    package mutating func take() -> (changes: [(MenuPath, ItemChange)], refusals: [String]) {
        var changes: [(MenuPath, ItemChange)] = [], refusals: [String] = []
        for topic in order {
            guard let message = latest[topic] else { continue }
            for (path, field) in byTopic[topic] ?? [] {
                switch Self.change(message.payload, field: field) {
                case .success(let change): changes.append((path, change))
                case .failure(let refusal): refusals.append("mqtt: \(topic) (item \(path)): \(refusal)")
                }
            }
        }
        latest.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        return (changes, refusals)
    }

    /// What one payload on a bound topic says about its item.
    package static func change(_ payload: [UInt8], field: Field) -> Result<ItemChange, LivePayload.Refusal> {
        switch field {
        case .text(let binding):
            // `null` is no value: the item shows its label again, never the text "null".
            return LivePayload.value(payload, key: binding.key).map { .text($0.map { ControlLine.liveText(binding.text(for: $0)) }) }
        case .available:
            return LivePayload.value(payload, key: []).flatMap { word in
                guard let word, let available = ControlLine.parseBool(word) else {
                    return .failure(LivePayload.Refusal("'\((word ?? "null").prefix(32))' is neither online nor offline"))
                }
                return .success(.available(available))
            }
        case .value:
            return LivePayload.number(payload).map { .value($0) }
        case .current:
            return LivePayload.number(payload).map { .current($0) }
        }
    }

    /// `<base>/set/item/<path>/text|available|value` with its payload, as a control command.
    package static func setCommand(path text: String, payload: [UInt8]) -> Result<ControlCommand, MQTTCommandError> {
        guard payload.count <= LivePayload.maximumBytes else {
            return .failure(MQTTCommandError("payload of \(payload.count) bytes, more than \(LivePayload.maximumBytes)"))
        }
        var parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, let field = parts.popLast(),
              let path = MenuPath(parsing: parts.joined(separator: "/")), path.ids.allSatisfy(ConfigValues.isValidID) else {
            return .failure(MQTTCommandError("set/item needs <path>/text, <path>/available or <path>/value"))
        }
        let word = String(decoding: payload, as: UTF8.self).trimmingWhitespace()
        switch field {
        case "text":
            let t = ControlLine.liveText(String(decoding: payload, as: UTF8.self))
            return .success(.setItem(path: path, change: .text(t.isEmpty ? nil : t)))
        case "available":
            guard let available = ControlLine.parseBool(word) else {
                return .failure(MQTTCommandError("'\(word.prefix(32))' is neither true nor false"))
            }
            return .success(.setItem(path: path, change: .available(available)))
        case "value":
            guard let value = Double(word), value.isFinite else {
                return .failure(MQTTCommandError("'\(word.prefix(32))' is not a number"))
            }
            return .success(.setItem(path: path, change: .value(value)))
        default:
            return .failure(MQTTCommandError("set/item/\(text.prefix(64)): the last level is text, available or value"))
        }
    }
}

extension MQTTBridge {
    /// Subscribes to the bindings of `menu` (on every connect from now) and `<base>/set/item/#`.
    package func bindLive(_ menu: MenuTree) {
        live = MQTTLiveRoutes(menu: menu)
        resubscribe()
        if let prefix = discoveryPrefix {
            announce(.values, HomeAssistantDiscovery.numbers(prefix: prefix, topics: topics, menu: menu))
        }
    }

    /// A bound topic's message or a `set/item/...` command: taken (true), or not ours (false).
    func takeLive(_ message: MQTTMessage, now: Double) -> Bool {
        // A payload over the bound was never copied: the `set/` checks refuse it with its size.
        if message.isOversized { return false }
        if live.offer(message) { return true }
        let prefix = topics.setPrefix + "item/", valuePrefix = topics.setPrefix + "value/"
        let command: Result<ControlCommand, MQTTCommandError>
        if message.topic.hasPrefix(prefix) {
            command = MQTTLiveRoutes.setCommand(path: String(message.topic.dropFirst(prefix.count)), payload: message.payload)
        } else if message.topic.hasPrefix(valuePrefix) {
            // Home Assistant's number: the payload is the value.
            command = MQTTLiveRoutes.setCommand(path: String(message.topic.dropFirst(valuePrefix.count)) + "/value",
                                                payload: message.payload)
        } else {
            return false
        }
        switch command {
        case .failure(let reason):
            refuse("mqtt: \(message.topic): \(reason); nothing changed", now: now)
        case .success(let command):
            // A state, not an action: a retained one is the item's state at start.
            liveCommands.append(ControlServer.Request(client: .mqtt, command: command))
            if liveCommands.count > Self.inboxCapacity { liveCommands.removeFirst() }
        }
        return true
    }

    /// This turn's live changes as `set` requests (all of them: bounded by the bound topics and
    /// the inbox).
    func takeLiveRequests(now: Double) -> [ControlServer.Request] {
        let (changes, refusals) = live.take()
        for line in refusals { refuse(line, now: now) }
        defer { liveCommands.removeAll(keepingCapacity: true) }
        return liveCommands + changes.map { ControlServer.Request(client: .mqtt, command: .setItem(path: $0.0, change: $0.1)) }
    }
}
