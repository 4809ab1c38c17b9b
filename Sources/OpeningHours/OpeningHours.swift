/// A day of the week, as glibc's `tm_wday` counts them (Sunday 0).
package enum Weekday: Int, Sendable, CaseIterable, Comparable {
    case sun = 0, mon, tue, wed, thu, fri, sat

    /// The three-letter names the configuration uses.
    package static let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    package init?(name: String) {
        guard let index = Weekday.names.firstIndex(of: name.lowercased()) else { return nil }
        self.init(rawValue: index)
    }

    package var name: String { Weekday.names[rawValue] }
    package var previous: Weekday { Weekday(rawValue: (rawValue + 6) % 7)! }
    package var next: Weekday { Weekday(rawValue: (rawValue + 1) % 7)! }
    package static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}

/// A wall-clock reading: the day of the week and the minute of that day (0...1439).
package struct LocalTime: Sendable, Equatable {
    package var weekday: Weekday
    package var minute: Int

    package init(_ weekday: Weekday, _ minute: Int) {
        self.weekday = weekday
        self.minute = minute
    }
}

/// One opening window: on `days` from `on` to `off` (minutes of the day; `off` may be 1440,
/// "24:00"). A window whose `off` is before its `on` runs past midnight and belongs to the day
/// it opens.
package struct HoursWindow: Sendable, Equatable {
    package var days: Set<Weekday>
    package var on: Int
    package var off: Int

    package init(days: Set<Weekday>, on: Int, off: Int) {
        self.days = days
        self.on = on
        self.off = off
    }

    /// Whether the window holds `time`.
    package func contains(_ time: LocalTime) -> Bool {
        if on < off { return days.contains(time.weekday) && time.minute >= on && time.minute < off }
        // Past midnight: the evening of an opening day, or the morning after one.
        return (days.contains(time.weekday) && time.minute >= on)
            || (days.contains(time.weekday.previous) && time.minute < off)
    }

    /// "HH:MM" from 00:00 to 23:59, or "24:00" when `closing`: minutes of the day; nil otherwise
    /// ("7:5", "25:00", "07:60").
    package static func minutes(_ text: String, closing: Bool) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0 >= "0" && $0 <= "9" } }),
              let hours = Int(parts[0]), let minutes = Int(parts[1]) else { return nil }
        if closing && hours == 24 && minutes == 0 { return 1440 }
        guard hours < 24, minutes < 60 else { return nil }
        return hours * 60 + minutes
    }

    /// "mon", a range "mon-fri" (which may wrap: "fri-mon"): the days; nil for anything else.
    package static func days(_ text: String) -> Set<Weekday>? {
        let ends = text.split(separator: "-", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        switch ends.count {
        case 1:
            return Weekday(name: ends[0]).map { [$0] }
        case 2:
            guard let first = Weekday(name: ends[0]), let last = Weekday(name: ends[1]) else { return nil }
            var days: Set<Weekday> = [first]
            var day = first
            while day != last {
                day = day.next
                days.insert(day)
            }
            return days
        default:
            return nil
        }
    }
}

/// The opening hours: open while any window holds the wall-clock time. Without windows the
/// kiosk is never open (the configuration refuses an empty list).
package struct OpeningHours: Sendable, Equatable {
    package var windows: [HoursWindow]

    package init(_ windows: [HoursWindow]) {
        self.windows = windows
    }

    /// The decision at one wall-clock reading.
    package func isOpen(at time: LocalTime) -> Bool {
        windows.contains { $0.contains(time) }
    }

    /// The decision at `epoch` (seconds since 1970, UTC) in `clock`'s local time.
    package func isOpen(atEpoch epoch: Double, clock: LocalClock) -> Bool {
        isOpen(at: clock.local(epoch))
    }

    /// The first instant after `epoch` at which `isOpen` changes, within eight days (nil: it
    /// never changes, such as windows that cover the whole week). The candidates are every
    /// window edge on the days around, as `mktime` places them, and the instants the UTC offset
    /// changes (a window edge inside a skipped hour takes effect when the clock jumps over it).
    package func nextTransition(after epoch: Double, clock: LocalClock) -> Double? {
        let now = isOpen(atEpoch: epoch, clock: clock)
        var candidates: [Double] = []
        let edges = Set(windows.flatMap { [$0.on, $0.off] })
        for dayOffset in -1...8 {
            guard let midnight = clock.midnight(of: epoch, addingDays: dayOffset) else { continue }
            // The clock set back (autumn): an edge in the repeated hour comes twice.
            var repeated = 0.0
            if let change = clock.offsetChange(within: midnight) {
                candidates.append(change)
                repeated = Double(max(0, clock.offset(change - 1) - clock.offset(change)))
            }
            for minute in edges {
                guard let t = clock.epoch(dayOf: midnight, minute: minute) else { continue }
                candidates.append(t)
                if repeated > 0 { candidates.append(t + repeated) }
            }
        }
        for t in candidates.sorted() where t > epoch && isOpen(atEpoch: t, clock: clock) != now {
            return t
        }
        return nil
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
