/// Whether the sound device works, and when to try a failing one again: the worker's decision,
/// as plain data. A failure is logged once per reason (a device unplugged for an hour gives one
/// line, not one per utterance), and the recovery once; while failing, utterances are dropped
/// (the dial goes on silent) until `retryInterval` has passed.
package struct AudioHealth: Sendable, Equatable {
    package enum State: Sendable, Equatable {
        /// Never tried, or the last try worked.
        case working
        /// The last try failed for `reason`; the next one is allowed from `retryAt`.
        case failing(reason: String, retryAt: Double)
    }

    package private(set) var state: State = .working
    package let retryInterval: Double
    /// The reason last logged (a new try that fails the same way is not logged again).
    private var logged: String?

    package init(retryInterval: Double = 5) { self.retryInterval = retryInterval }

    /// Whether a job at `now` may use the device (otherwise it is dropped, silently).
    package func mayTry(now: Double) -> Bool {
        switch state {
        case .working: return true
        case .failing(_, let retryAt): return now >= retryAt
        }
    }

    /// A try failed: the line to log, or nil when this reason was logged already.
    package mutating func failed(_ reason: String, now: Double) -> String? {
        state = .failing(reason: reason, retryAt: now + retryInterval)
        guard logged != reason else { return nil }
        logged = reason
        return "\(reason); going on silent, trying again every \(Int(retryInterval)) s"
    }

    /// A try worked: the line to log when it had been failing, else nil.
    package mutating func worked() -> String? {
        guard case .failing = state else { return nil }
        state = .working
        logged = nil
        return "works again"
    }
}
