import Glibc

/// The system's local time as glibc computes it: `localtime_r` and `mktime`, which read TZ
/// (POSIX TZ strings such as "CET-1CEST,M3.5.0,M10.5.0/3" included) and /etc/localtime.
/// Foundation's `TimeZone.current` ignores POSIX TZ strings, so it is not used.
public struct LocalClock: Sendable {
    public init() {}

    /// Re-reads TZ and /etc/localtime (`tzset`), for a process whose zone changed.
    public static func reloadZone() { tzset() }

    /// The wall-clock reading at `epoch`.
    public func local(_ epoch: Double) -> LocalTime {
        let parts = broken(epoch)
        return LocalTime(Weekday(rawValue: Int(parts.tm_wday)) ?? .sun, Int(parts.tm_hour) * 60 + Int(parts.tm_min))
    }

    /// The UTC offset in seconds at `epoch` (`tm_gmtoff`).
    public func offset(_ epoch: Double) -> Int { broken(epoch).tm_gmtoff }

    /// Local midnight of the day `days` after the day of `epoch` (an epoch), by `mktime`.
    public func midnight(of epoch: Double, addingDays days: Int) -> Double? {
        var parts = broken(epoch)
        parts.tm_mday += Int32(days)
        parts.tm_hour = 0
        parts.tm_min = 0
        parts.tm_sec = 0
        parts.tm_isdst = -1
        let t = mktime(&parts)
        return t == -1 ? nil : Double(t)
    }

    /// `minute` of the day of `midnight` (local, by `mktime`: a time in a skipped hour moves
    /// past it, a repeated one is its first occurrence).
    public func epoch(dayOf midnight: Double, minute: Int) -> Double? {
        var parts = broken(midnight)
        parts.tm_hour = 0
        parts.tm_min = Int32(minute)
        parts.tm_sec = 0
        parts.tm_isdst = -1
        let t = mktime(&parts)
        return t == -1 ? nil : Double(t)
    }

    /// The instant within the 26 hours after `midnight` where the UTC offset changes (a
    /// daylight-saving transition), to the second; nil when it does not.
    public func offsetChange(within midnight: Double) -> Double? {
        var low = midnight
        var high = midnight + 26 * 3600
        let before = offset(low)
        guard offset(high) != before else { return nil }
        while high - low > 1 {
            let middle = ((low + high) / 2).rounded(.down)
            if offset(middle) == before { low = middle } else { high = middle }
        }
        return high
    }

    private func broken(_ epoch: Double) -> tm {
        var t = time_t(epoch.rounded(.down))
        var parts = tm()
        localtime_r(&t, &parts)
        return parts
    }
}
