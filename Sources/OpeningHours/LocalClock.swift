import LinuxSystem

/// The system's local time as glibc computes it (LinuxSystem's `CalendarTime`: `localtime_r`
/// and `mktime`, which read TZ, POSIX TZ strings included, and /etc/localtime). Foundation's
/// `TimeZone.current` ignores POSIX TZ strings, so it is not used.
package struct LocalClock: Sendable {
    /// A zone of one fixed UTC offset in seconds instead of the system's (tests that must not
    /// touch the process-wide TZ); nil: the system's local time.
    package let fixedOffset: Int?

    package init(fixedOffset: Int? = nil) {
        self.fixedOffset = fixedOffset
    }

    /// Re-reads TZ and /etc/localtime (`tzset`), for a process whose zone changed.
    package static func reloadZone() { CalendarTime.reloadZone() }

    /// What is wrong with the zone this process runs in (`ZoneCheck`), from `environment`'s
    /// TZ and TZDIR and the zone files here; nil for a usable zone, or a fixed offset's clock.
    package func zoneProblem(environment: [String: String]) -> String? {
        guard fixedOffset == nil else { return nil }
        return ZoneCheck.problem(tz: environment["TZ"], tzdir: environment["TZDIR"], head: Self.head)
    }

    /// A file's first four bytes (fewer when it is shorter); nil when it cannot be opened.
    static func head(_ path: String) -> [UInt8]? {
        guard case .success(let file) = FileDescriptor.open(path, .readOnly) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 4)
        guard case .success(let n) = bytes.withUnsafeMutableBytes({ file.read(into: $0) }) else { return nil }
        return Array(bytes[0..<n])
    }

    /// The wall-clock reading at `epoch`.
    package func local(_ epoch: Double) -> LocalTime {
        let parts = broken(epoch)
        return LocalTime(Weekday(rawValue: parts.weekday) ?? .sun, parts.hour * 60 + parts.minute)
    }

    /// `epoch` as people read it here: "mon 07:00".
    package func text(_ epoch: Double) -> String {
        let time = local(epoch)
        let hh = time.minute / 60, mm = time.minute % 60
        return "\(time.weekday.name) \(hh < 10 ? "0" : "")\(hh):\(mm < 10 ? "0" : "")\(mm)"
    }

    /// The UTC offset in seconds at `epoch` (`tm_gmtoff`).
    package func offset(_ epoch: Double) -> Int { broken(epoch).utcOffset }

    /// Local midnight of the day `days` after the day of `epoch` (an epoch), by `mktime`.
    package func midnight(of epoch: Double, addingDays days: Int) -> Double? {
        var parts = broken(epoch)
        parts.day += days
        parts.hour = 0
        parts.minute = 0
        parts.second = 0
        return make(parts)
    }

    /// `minute` of the day of `midnight` (local, by `mktime`: a time in a skipped hour moves
    /// past it, a repeated one is its first occurrence).
    package func epoch(dayOf midnight: Double, minute: Int) -> Double? {
        var parts = broken(midnight)
        parts.hour = 0
        parts.minute = minute
        parts.second = 0
        return make(parts)
    }

    /// The instant within the 26 hours after `midnight` where the UTC offset changes (a
    /// daylight-saving transition), to the second; nil when it does not.
    package func offsetChange(within midnight: Double) -> Double? {
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

    private func broken(_ epoch: Double) -> CalendarTime {
        guard let fixedOffset else { return CalendarTime.local(epoch) }
        var parts = CalendarTime.utc(epoch.rounded(.down) + Double(fixedOffset))
        parts.utcOffset = fixedOffset
        return parts
    }

    /// `mktime` (or `timegm` less the fixed offset): nil when it cannot say.
    private func make(_ parts: CalendarTime) -> Double? {
        if let fixedOffset { return parts.utcEpoch - Double(fixedOffset) }
        return parts.localEpoch
    }
}
