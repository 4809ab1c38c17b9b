/// The rule that slows guessing on the glass: the first `freeFailures` wrong PINs in a row cost
/// nothing; the fifth and every one after it refuse the ring for `firstRefusal` seconds,
/// doubling with each further failure up to `longestRefusal`. A right PIN starts the count
/// again. Pure: time is an argument, seconds on the clock the state is kept in (the wall clock:
/// the state outlives a boot, and the monotonic clock starts again at each).
package enum LockBackoff {
    package static let freeFailures = 5
    package static let firstRefusal = 30.0
    package static let longestRefusal = 15 * 60.0

    /// What the lock may do now.
    package enum Verdict: Sendable, Equatable {
        /// A PIN may be tried.
        case allowed
        /// No PIN is tried before `until`.
        case refused(until: Double)
    }

    /// Seconds refused after `failures` wrong PINs in a row: 0 below `freeFailures`, then 30,
    /// 60, 120, ... up to 900.
    package static func refusal(after failures: Int) -> Double {
        guard failures >= freeFailures else { return 0 }
        let doublings = failures - freeFailures
        // 30 * 2^5 = 960 is past the cap already: no need to double further (nor to overflow).
        guard doublings < 5 else { return longestRefusal }
        return min(longestRefusal, firstRefusal * Double(1 << doublings))
    }

    /// The verdict at `now` after `failures` in a row, the last at `lastFailure`. A clock that
    /// went back before the last failure counts the refusal from `now`, so no clock step makes
    /// it shorter.
    package static func verdict(failures: Int, lastFailure: Double?, now: Double) -> Verdict {
        let wait = refusal(after: failures)
        guard wait > 0 else { return .allowed }
        guard let last = lastFailure, last.isFinite else { return .refused(until: now + wait) }
        let until = (now < last ? now : last) + wait
        return now < until ? .refused(until: until) : .allowed
    }
}
