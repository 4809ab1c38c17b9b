/// The `behaviour` section's timers, and nothing else: back to the top ring after
/// `return_after_seconds`, and "idle" after `idle_after_minutes` without activity. What an idle
/// screen looks like, and whether a touch wakes it, is the screen's owner's (`ScreenPower`);
/// the service tells these timers of activity and hands what comes due on.
package struct IdleSchedule {
    /// What came due.
    package enum Signal: Sendable, Equatable {
        /// Back to the top ring and its default item (`MenuDial.returnToTop`).
        case returnToDefault
        /// No activity for the idle time: the screen may dim or blank.
        case idle
    }

    /// Seconds without activity before `returnToDefault` (nil: never).
    package let returnAfter: Double?
    /// Seconds without activity before `idle` (nil: never).
    package let idleAfter: Double?

    package private(set) var lastActivity: Double
    private var returnDone = false
    private var idleSaid = false

    package init(returnAfter: Double?, idleAfter: Double?, start: Double) {
        self.returnAfter = returnAfter
        self.idleAfter = idleAfter
        lastActivity = start
    }

    /// The next time `advance` has something to do; nil when nothing is pending.
    package var nextDeadline: Double? {
        var deadlines: [Double] = []
        if let returnAfter, !returnDone { deadlines.append(lastActivity + returnAfter) }
        if let idleAfter, !idleSaid { deadlines.append(lastActivity + idleAfter) }
        return deadlines.min()
    }

    /// Timers that have come due by `now`.
    package mutating func advance(to now: Double) -> [Signal] {
        var signals: [Signal] = []
        if let returnAfter, !returnDone, now >= lastActivity + returnAfter {
            returnDone = true
            signals.append(.returnToDefault)
        }
        if let idleAfter, !idleSaid, now >= lastActivity + idleAfter {
            idleSaid = true
            signals.append(.idle)
        }
        return signals
    }

    /// Activity at `time` (a touch, a key, a command that wakes): both timers start again.
    package mutating func activity(at time: Double) {
        if time.isFinite { lastActivity = max(lastActivity, time) }
        returnDone = false
        idleSaid = false
    }
}
