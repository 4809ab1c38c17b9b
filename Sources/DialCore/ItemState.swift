/// Live state of items: what the outside world says about the thing an item drives ("on",
/// "sold out", 21.5), whether that thing is there at all, and for a value item its number.
/// Plain data in the menu model; the service changes it by requests (an MQTT message, `set` on
/// the control socket) and the painter draws it.

/// The state one item shows besides its label.
public struct ItemState: Sendable, Equatable {
    /// The text drawn under the label (a badge) and spoken after it; nil: none.
    public var text: String?
    /// An unavailable item is drawn dimmed with a mark and its activation runs nothing.
    public var available: Bool
    /// A value item's number (or any item's, set by `set <path> value`).
    public var value: Double?
    /// A value item's measured value (`current_topic`), drawn as a tick.
    public var current: Double?
    /// When the state last changed (the loop's clock), for "how old is it".
    public var updated: Double?
    /// How old the state is, in whole minutes, once its source went quiet past the configured
    /// time (the broker away); nil while it is fresh.
    public var staleMinutes: Int?

    public init(text: String? = nil, available: Bool = true, value: Double? = nil, updated: Double? = nil) {
        self.text = text
        self.available = available
        self.value = value
        self.updated = updated
    }

    /// What a painter and a speaker need to know changed (the time does not count).
    public func looksLike(_ other: ItemState) -> Bool {
        text == other.text && available == other.available && value == other.value && current == other.current
            && staleMinutes == other.staleMinutes
    }

    /// The badge's age suffix ("12 min old"), nil while fresh.
    public var ageText: String? { staleMinutes.map { ItemAge.text(minutes: $0) } }
}

/// How old an item's state is once its source went quiet: pure, time is an argument.
public enum ItemAge {
    /// Whole minutes since `heard` when the source has been away and `now - heard` is at least
    /// `after` seconds; nil otherwise (fresh, or the source is there).
    public static func staleMinutes(heard: Double, now: Double, after: Double?, away: Bool) -> Int? {
        guard away, let after, now - heard >= after else { return nil }
        return Int(((now - heard) / 60).rounded(.down))
    }

    /// The next time `staleMinutes` changes for a state heard at `heard` (nil: never, the
    /// source is there or staleness is off).
    public static func nextChange(heard: Double, now: Double, after: Double?, away: Bool) -> Double? {
        guard away, let after else { return nil }
        if now - heard < after { return heard + after }
        let minutes = ((now - heard) / 60).rounded(.down)
        return heard + (minutes + 1) * 60
    }

    /// "12 min old", "3 h old" (from 120 minutes), "2 d old" (from 48 hours).
    public static func text(minutes: Int) -> String {
        if minutes < 120 { return "\(minutes) min old" }
        if minutes < 48 * 60 { return "\(minutes / 60) h old" }
        return "\(minutes / (24 * 60)) d old"
    }

    /// The same in words for speech: "12 minutes old", "3 hours old".
    public static func spoken(minutes: Int) -> String {
        func unit(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s") old" }
        if minutes < 120 { return unit(minutes, "minute") }
        if minutes < 48 * 60 { return unit(minutes / 60, "hour") }
        return unit(minutes / (24 * 60), "day")
    }
}

/// One change of an item's state, as a request names it.
public enum ItemChange: Sendable, Equatable {
    case text(String?)
    case available(Bool)
    case value(Double)
    case current(Double)
    /// How old the state is (`ItemState.staleMinutes`); not a change of the thing itself.
    case stale(Int?)
}

/// Where an item's live text comes from (the `live:` key): a topic, optionally a dotted key
/// into a JSON payload and a format with `{}` for the value, and a topic saying online/offline.
public struct LiveBinding: Sendable, Equatable, Hashable {
    public var topic: String
    /// `state` or `attributes.temperature`: the path into a JSON object; empty: the payload is the text.
    public var key: [String]
    /// `{}` is replaced by the value; nil: the value as it is.
    public var format: String?
    public var availableTopic: String?

    public init(topic: String, key: [String] = [], format: String? = nil, availableTopic: String? = nil) {
        self.topic = topic
        self.key = key
        self.format = format
        self.availableTopic = availableTopic
    }

    /// The text shown for `value` (`format` with every `{}` replaced).
    public func text(for value: String) -> String {
        guard let format else { return value }
        return format.replacingAll("{}", with: value)
    }
}

extension String {
    /// `self` with every `target` replaced (without Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = "", rest = Substring(self)
        while let r = rest.range(of: target) {
            out += rest[..<r.lowerBound] + replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}

extension Substring {
    /// The first range of `target` (without Foundation).
    func range(of target: String) -> Range<Index>? {
        let t = Array(target.utf8)
        guard !t.isEmpty, utf8.count >= t.count else { return nil }
        var i = startIndex
        while i < endIndex {
            if self[i...].utf8.starts(with: t) {
                return i..<utf8.index(i, offsetBy: t.count)
            }
            i = index(after: i)
        }
        return nil
    }
}

/// The states of a menu's items, with the changes not yet shown: a flood of updates to one item
/// between two frames is one change carrying the last state (`takeChanges`). Bounded by the
/// number of items: the caller checks a path names an item before applying.
public struct LiveItems: Sendable, Equatable {
    public private(set) var states: [MenuPath: ItemState] = [:]
    private var pending: [MenuPath] = []
    private var pendingSet: Set<MenuPath> = []

    public init() {}

    /// The state of `path` (available, no text, when nothing was said).
    public func state(of path: MenuPath) -> ItemState { states[path] ?? ItemState() }

    /// Whether changes wait to be shown.
    public var hasChanges: Bool { !pending.isEmpty }

    /// Applies `change` to `path` at `time`; true when what the item shows changed (then the
    /// path waits in `takeChanges`, once however many changes come before it is taken).
    @discardableResult
    public mutating func apply(_ change: ItemChange, to path: MenuPath, at time: Double) -> Bool {
        var state = self.state(of: path)
        let before = state
        switch change {
        case .text(let text): state.text = text
        case .available(let available): state.available = available
        case .value(let value): state.value = value
        case .current(let value): state.current = value
        case .stale(let minutes): state.staleMinutes = minutes
        }
        // News about the thing makes it fresh again; only a change of the age leaves `updated`.
        let aged: Bool
        if case .stale = change { aged = true } else { aged = false; state.staleMinutes = nil }
        guard !state.looksLike(before) else { return false }
        if !aged { state.updated = time }
        states[path] = state
        if pendingSet.insert(path).inserted { pending.append(path) }
        return true
    }

    /// The paths whose state changed since the last call, in the order they first changed.
    public mutating func takeChanges() -> [MenuPath] {
        defer {
            pending.removeAll(keepingCapacity: true)
            pendingSet.removeAll(keepingCapacity: true)
        }
        return pending
    }

    /// The states a reload keeps: those of items that still exist in `tree` and for which
    /// `keep` says their binding did not change. Nothing is pending afterwards.
    public func kept(in tree: MenuTree, where keep: (MenuPath) -> Bool) -> LiveItems {
        var out = LiveItems()
        for (path, state) in states where tree.node(at: path) != nil && keep(path) { out.states[path] = state }
        return out
    }
}

/// What a painter draws of an open value dial: the target large in the hub with its unit, the
/// arc from minimum to maximum with the target's and the measured value's places on it.
public struct ValueDialPose: Sendable, Equatable {
    public var settings: ValueSettings
    public var shown: Double
    /// The measured value (`current_topic`), drawn as a tick; nil: none.
    public var current: Double?
    /// The item's label, drawn above the value.
    public var label: String

    public init(settings: ValueSettings, shown: Double, current: Double? = nil, label: String) {
        self.settings = settings
        self.shown = shown
        self.current = current
        self.label = label
    }

    /// The target as the hub shows it: "21.5 °C".
    public var text: String {
        settings.text(shown) + (settings.unit.map { " " + $0 } ?? "")
    }

    /// 0...1: where `value` lies between minimum and maximum.
    public func fraction(_ value: Double) -> Double {
        let span = settings.maximum - settings.minimum
        return span > 0 ? min(1, max(0, (value - settings.minimum) / span)) : 0
    }
}
