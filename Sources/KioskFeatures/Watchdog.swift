/// When to send WATCHDOG=1: systemd passes WatchdogSec= as WATCHDOG_USEC, and sd_watchdog_enabled(3)
/// advises pinging at half of it, so one late loop iteration does not kill the service.
package struct WatchdogSchedule: Sendable, Equatable {
    /// Seconds between pings (half of WATCHDOG_USEC).
    package let interval: Double
    package private(set) var lastPing: Double?

    package init(interval: Double) {
        self.interval = interval
    }

    /// The schedule systemd asked for, or nil when the watchdog is off or meant for another
    /// process (WATCHDOG_PID names a different pid).
    package static func fromEnvironment(_ environment: [String: String], pid: Int32) -> WatchdogSchedule? {
        guard let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 else { return nil }
        if let pidText = environment["WATCHDOG_PID"] {
            guard let owner = Int32(pidText), owner == pid else { return nil }
        }
        return WatchdogSchedule(interval: Double(usec) / 2_000_000)
    }

    /// The time the next ping is due (at once before the first).
    package var nextDue: Double { lastPing.map { $0 + interval } ?? -Double.infinity }

    package func isDue(now: Double) -> Bool { now >= nextDue }

    /// Seconds the poll loop may sleep before the next ping is due (0 when it is due now).
    package func timeUntilDue(now: Double) -> Double { max(0, nextDue - now) }

    package mutating func pinged(at now: Double) { lastPing = now }
}
