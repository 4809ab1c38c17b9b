import Glibc
import Testing
@testable import OpeningHours

/// TZ is process-wide: every test that sets it holds this lock, and puts the old value back.
private let zoneLock = ZoneLock()

final class ZoneLock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    func run<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }
}

private func inZone<T>(_ zone: String, _ body: () throws -> T) rethrows -> T {
    try zoneLock.run {
        let old = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", zone, 1)
        tzset()
        defer {
            if let old { setenv("TZ", old, 1) } else { unsetenv("TZ") }
            tzset()
        }
        return try body()
    }
}

/// Seconds since 1970 of a UTC date and time.
private func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int) -> Double {
    var parts = tm()
    parts.tm_year = Int32(y - 1900)
    parts.tm_mon = Int32(mo - 1)
    parts.tm_mday = Int32(d)
    parts.tm_hour = Int32(h)
    parts.tm_min = Int32(mi)
    return Double(timegm(&parts))
}

private func window(_ days: String, _ on: String, _ off: String) -> HoursWindow {
    HoursWindow(days: HoursWindow.days(days)!, on: HoursWindow.minutes(on, closing: false)!,
                off: HoursWindow.minutes(off, closing: true)!)
}

/// Berlin both ways: as a POSIX TZ string (no tzdata needed) and, where installed, by name.
private let berlinZones = ["CET-1CEST,M3.5.0,M10.5.0/3"]
    + (access("/usr/share/zoneinfo/Europe/Berlin", R_OK) == 0 ? ["Europe/Berlin"] : [])
private let newYorkZones = ["EST5EDT,M3.2.0,M11.1.0"]
    + (access("/usr/share/zoneinfo/America/New_York", R_OK) == 0 ? ["America/New_York"] : [])

@Suite struct OpeningHoursParsingTests {
    @Test func timesAreTwoDigitHoursAndMinutes() {
        #expect(HoursWindow.minutes("07:00", closing: false) == 420)
        #expect(HoursWindow.minutes("23:59", closing: false) == 1439)
        #expect(HoursWindow.minutes("24:00", closing: true) == 1440)
        for bad in ["24:00", "25:00", "7:5", "07:60", "7:05", "0700", "", "ab:cd", "-1:00", "07:00:00"] {
            #expect(HoursWindow.minutes(bad, closing: false) == nil, "\(bad)")
        }
        #expect(HoursWindow.minutes("24:01", closing: true) == nil)
    }

    @Test func daysAreADayOrARangeThatMayWrap() {
        #expect(HoursWindow.days("mon") == [.mon])
        #expect(HoursWindow.days("mon-fri") == [.mon, .tue, .wed, .thu, .fri])
        #expect(HoursWindow.days("fri-mon") == [.fri, .sat, .sun, .mon])
        #expect(HoursWindow.days("sun-sun") == [.sun])
        for bad in ["funday", "mon-", "-fri", "mon-fri-sat", ""] {
            #expect(HoursWindow.days(bad) == nil, "\(bad)")
        }
    }
}

@Suite(.serialized) struct OpeningHoursDecisionTests {
    let clock = LocalClock()

    @Test func weekdayHoursInBerlinAcrossSpringForward() {
        let hours = OpeningHours([window("mon-fri", "07:00", "19:30"), window("sat", "09:00", "14:00")])
        for zone in berlinZones {
            inZone(zone) {
                // Friday 27 March 2026 is CET (UTC+1); Monday 30 March CEST (UTC+2).
                let table: [(Double, Bool)] = [
                    (utc(2026, 3, 27, 5, 59), false),   // 06:59 CET
                    (utc(2026, 3, 27, 6, 0), true),     // 07:00 CET
                    (utc(2026, 3, 27, 18, 29), true),   // 19:29 CET
                    (utc(2026, 3, 27, 18, 30), false),  // 19:30 CET
                    (utc(2026, 3, 28, 8, 0), true),     // Sat 09:00 CET
                    (utc(2026, 3, 29, 10, 0), false),   // Sunday
                    (utc(2026, 3, 30, 4, 59), false),   // Mon 06:59 CEST
                    (utc(2026, 3, 30, 5, 0), true),     // Mon 07:00 CEST
                ]
                for (t, open) in table { #expect(hours.isOpen(atEpoch: t, clock: clock) == open, "\(zone) \(t)") }
                // Saturday after closing: next Monday 07:00 CEST, an hour earlier in UTC than the CET week's.
                #expect(hours.nextTransition(after: utc(2026, 3, 28, 14, 0), clock: clock) == utc(2026, 3, 30, 5, 0), "\(zone)")
                #expect(hours.nextTransition(after: utc(2026, 3, 27, 6, 0), clock: clock) == utc(2026, 3, 27, 18, 30), "\(zone)")
            }
        }
    }

    @Test func aWindowOverMidnightAndAnEdgeInTheSkippedHour() {
        for zone in berlinZones {
            inZone(zone) {
                // Sat 22:00 until 03:00: the night the clocks go from 02:00 CET to 03:00 CEST (01:00 UTC).
                let night = OpeningHours([window("sat", "22:00", "03:00")])
                #expect(night.nextTransition(after: utc(2026, 3, 28, 12, 0), clock: clock) == utc(2026, 3, 28, 21, 0))
                #expect(night.isOpen(atEpoch: utc(2026, 3, 29, 0, 59), clock: clock))
                #expect(night.nextTransition(after: utc(2026, 3, 28, 21, 30), clock: clock) == utc(2026, 3, 29, 1, 0))
                #expect(!night.isOpen(atEpoch: utc(2026, 3, 29, 1, 0), clock: clock))
                // Opening at 02:30, a time that does not exist that night: open when the clock jumps.
                let skipped = OpeningHours([window("sun", "02:30", "05:00")])
                #expect(skipped.nextTransition(after: utc(2026, 3, 29, 0, 30), clock: clock) == utc(2026, 3, 29, 1, 0))
            }
        }
    }

    @Test func theRepeatedHourInBerlinAutumnClosesTwice() {
        for zone in berlinZones {
            inZone(zone) {
                // 25 October 2026: 03:00 CEST becomes 02:00 CET at 01:00 UTC; 02:00-02:30 comes twice.
                let hours = OpeningHours([window("sun", "00:00", "02:30")])
                var t = utc(2026, 10, 24, 23, 0)
                var transitions: [Double] = []
                while let next = hours.nextTransition(after: t, clock: clock), next < utc(2026, 10, 25, 12, 0) {
                    transitions.append(next)
                    t = next
                }
                #expect(transitions == [utc(2026, 10, 25, 0, 30), utc(2026, 10, 25, 1, 0), utc(2026, 10, 25, 1, 30)], "\(zone)")
            }
        }
    }

    @Test func newYorkBothWays() {
        for zone in newYorkZones {
            inZone(zone) {
                // 8 March 2026: 02:00 EST becomes 03:00 EDT at 07:00 UTC.
                let spring = OpeningHours([window("sun", "01:00", "03:00")])
                #expect(spring.nextTransition(after: utc(2026, 3, 8, 5, 0), clock: clock) == utc(2026, 3, 8, 6, 0))
                #expect(spring.nextTransition(after: utc(2026, 3, 8, 6, 30), clock: clock) == utc(2026, 3, 8, 7, 0), "\(zone)")
                // 1 November 2026: 02:00 EDT becomes 01:00 EST at 06:00 UTC; 01:30-01:45 comes twice.
                let autumn = OpeningHours([window("sun", "01:30", "01:45")])
                var t = utc(2026, 11, 1, 4, 0)
                var transitions: [Double] = []
                while let next = autumn.nextTransition(after: t, clock: clock), next < utc(2026, 11, 1, 12, 0) {
                    transitions.append(next)
                    t = next
                }
                #expect(transitions == [utc(2026, 11, 1, 5, 30), utc(2026, 11, 1, 5, 45),
                                        utc(2026, 11, 1, 6, 30), utc(2026, 11, 1, 6, 45)], "\(zone)")
            }
        }
    }

    @Test func overlappingWindowsAndAnEmptyDay() {
        inZone("UTC0") {
            let hours = OpeningHours([window("mon", "08:00", "12:00"), window("mon", "10:00", "14:00")])
            // Monday 2 March 2026.
            #expect(hours.nextTransition(after: utc(2026, 3, 2, 9, 0), clock: clock) == utc(2026, 3, 2, 14, 0))
            // Tuesday has no window: closed all day, open again next Monday.
            #expect(!hours.isOpen(atEpoch: utc(2026, 3, 3, 11, 0), clock: clock))
            #expect(hours.nextTransition(after: utc(2026, 3, 3, 11, 0), clock: clock) == utc(2026, 3, 9, 8, 0))
            // Always open: no transition.
            let always = OpeningHours([window("sun-sat", "00:00", "24:00")])
            #expect(always.nextTransition(after: utc(2026, 3, 3, 11, 0), clock: clock) == nil)
        }
    }

    @Test func aClockJumpIsJustAnotherInstant() {
        inZone(berlinZones[0]) {
            let hours = OpeningHours([window("mon-fri", "07:00", "19:30")])
            // An NTP correction at boot from 1970-ish to a Tuesday noon, and a suspended VM back.
            let boot = 3600.0
            let noon = utc(2026, 3, 3, 11, 0)
            #expect(!hours.isOpen(atEpoch: boot, clock: clock))
            #expect(hours.isOpen(atEpoch: noon, clock: clock))
            #expect(hours.nextTransition(after: noon, clock: clock) == utc(2026, 3, 3, 18, 30))
            #expect(!hours.isOpen(atEpoch: noon - 86_400 * 2, clock: clock), "the Sunday before")
        }
    }
}
