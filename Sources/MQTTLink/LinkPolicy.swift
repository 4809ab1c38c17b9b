/// How long to wait before the next connection attempt: 1 s after the first failure, doubling
/// to at most 60 s, back to 1 s once a broker accepted us. A pure value; time is an argument.
package struct ReconnectBackoff: Sendable, Equatable {
    package static let first = 1.0
    package static let longest = 60.0
    /// The delay the next failure waits.
    package private(set) var next = ReconnectBackoff.first

    package init() {}

    /// A failed or lost connection at `now`: when to try again.
    package mutating func failed(at now: Double) -> Double {
        defer { next = min(next * 2, Self.longest) }
        return now + next
    }

    /// The broker accepted the connection.
    package mutating func connected() { next = Self.first }
}

/// Sessions the broker ended soon after accepting them. Two clients with one client id (a
/// cloned image with the same /etc/machine-id) take the session from each other: MQTT 3.1.1
/// brokers close the older connection without a word, so each client sees its session
/// accepted and then dropped within moments, again and again. A pure value; time is an argument.
package struct SessionWatch: Sendable, Equatable {
    /// A session lost sooner than this after its CONNACK counts as short.
    package static let shortSession = 10.0
    /// Short sessions in a row after which another client is taken to hold the client id.
    package static let suspectAfter = 3

    package private(set) var acceptedAt: Double?
    /// Sessions in a row that the broker ended sooner than `shortSession`.
    package private(set) var shortInARow = 0

    package init() {}

    /// The kiosk's sessions keep being taken from it: another client uses its client id.
    package var takenOver: Bool { shortInARow >= Self.suspectAfter }

    package mutating func accepted(at now: Double) { acceptedAt = now }

    /// Whether the session accepted last has lasted long enough to count as healthy.
    package func healthy(at now: Double) -> Bool {
        acceptedAt.map { now - $0 >= Self.shortSession } ?? false
    }

    /// The session ended at `now` (the broker closed it or the link failed): whether it was
    /// short. A long one clears the count.
    @discardableResult
    package mutating func lost(at now: Double) -> Bool {
        defer { acceptedAt = nil }
        guard acceptedAt != nil else { return false }
        if healthy(at: now) {
            shortInARow = 0
            return false
        }
        shortInARow += 1
        return true
    }

    /// Called while connected: once the session has lasted `shortSession`, the count is
    /// cleared. True when that ends a takeover.
    package mutating func held(at now: Double) -> Bool {
        guard shortInARow > 0, healthy(at: now) else { return false }
        defer { shortInARow = 0 }
        return takenOver
    }
}

/// Event lines waiting for the broker: first in, first out, at most `capacity`; when full the
/// oldest line goes and is counted. `takeOverflowNotice` says once per overflow that lines are
/// being dropped (the journal gets one line, not one per drop).
package struct EventBacklog: Sendable, Equatable {
    /// Event lines kept while the broker is away: at 3 lines per selection this is over 300
    /// selections, about 300 KB at most, which bounds the kiosk's memory whatever the outage.
    package static let defaultCapacity = 1000

    package let capacity: Int
    package private(set) var lines: [String] = []
    private var head = 0
    /// Lines dropped since the process started (the metrics' `dropped_lines`).
    package private(set) var droppedTotal = 0
    /// Lines dropped since the last `takeDroppedSinceReport`.
    package private(set) var droppedSinceReport = 0
    private var overflowNoticed = false

    package init(capacity: Int = EventBacklog.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    package var count: Int { lines.count - head }
    package var isEmpty: Bool { count == 0 }

    package mutating func append(_ line: String) {
        if count >= capacity {
            head += 1
            droppedTotal += 1
            droppedSinceReport += 1
        }
        lines.append(line)
        // Reclaim the consumed prefix now and then, not on every line.
        if head > 256 && head * 2 > lines.count {
            lines.removeFirst(head)
            head = 0
        }
    }

    /// The oldest waiting line, without taking it.
    package var first: String? { isEmpty ? nil : lines[head] }

    package mutating func removeFirst() {
        guard !isEmpty else { return }
        head += 1
        if head == lines.count {
            lines.removeAll(keepingCapacity: true)
            head = 0
        }
    }

    /// True once after lines began to be dropped (until `takeDroppedSinceReport`).
    package mutating func takeOverflowNotice() -> Bool {
        guard droppedSinceReport > 0, !overflowNoticed else { return false }
        overflowNoticed = true
        return true
    }

    /// The count dropped since the last report (the broker is back: say how many were lost).
    package mutating func takeDroppedSinceReport() -> Int {
        defer {
            droppedSinceReport = 0
            overflowNoticed = false
        }
        return droppedSinceReport
    }
}
