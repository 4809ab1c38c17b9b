import Glibc

/// A broken-down time as glibc computes it (`struct tm`): localtime_r and mktime read TZ (POSIX
/// TZ strings such as "CET-1CEST,M3.5.0,M10.5.0/3" included) and /etc/localtime; gmtime_r and
/// timegm are UTC. Fields may be out of range before `localEpoch`/`utcEpoch`, which normalise
/// them (day 32 is the next month's first).
public struct CalendarTime: Sendable, Equatable {
    public var year: Int
    /// 1-12.
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// 0 (Sunday) to 6, as read; ignored by `localEpoch` and `utcEpoch`.
    public var weekday: Int
    /// Seconds east of UTC (tm_gmtoff), as read.
    public var utcOffset: Int

    init(_ parts: tm) {
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
        weekday = Int(parts.tm_wday)
        utcOffset = parts.tm_gmtoff
    }

    private var parts: tm {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        // mktime decides whether daylight-saving time is in force.
        parts.tm_isdst = -1
        return parts
    }

    /// localtime_r of `epoch` (whole seconds, rounded down).
    public static func local(_ epoch: Double) -> CalendarTime {
        var t = time_t(epoch.rounded(.down))
        var parts = tm()
        localtime_r(&t, &parts)
        return CalendarTime(parts)
    }

    /// gmtime_r of `epoch` (whole seconds, rounded down).
    public static func utc(_ epoch: Double) -> CalendarTime {
        var t = time_t(epoch.rounded(.down))
        var parts = tm()
        gmtime_r(&t, &parts)
        return CalendarTime(parts)
    }

    /// mktime: this local time as an epoch (a time in a skipped hour moves past it, a repeated
    /// one is its first occurrence); nil when it cannot say.
    public var localEpoch: Double? {
        var parts = self.parts
        let t = mktime(&parts)
        return t == -1 ? nil : Double(t)
    }

    /// timegm: this time read as UTC, as an epoch.
    public var utcEpoch: Double {
        var parts = self.parts
        return Double(timegm(&parts))
    }

    /// tzset: re-reads TZ and /etc/localtime, for a process whose zone changed.
    public static func reloadZone() { tzset() }
}
