import Glibc
import Testing
@testable import OpeningHours
import KioskTestSupport

/// An unusable TZ is found as glibc would treat it: checked with real TZ values against this
/// machine's zone files, and against what glibc itself does with each (`date` in a child with
/// that TZ: UTC for the unusable ones).
@Suite struct ZoneCheckTests {
    static let zoneinfo = access("/usr/share/zoneinfo/Europe/Berlin", R_OK) == 0

    func problem(_ tz: String?, tzdir: String? = nil) -> String? {
        ZoneCheck.problem(tz: tz, tzdir: tzdir, head: LocalClock.head)
    }

    /// glibc's UTC offset for `tz` in January and July (a child process: TZ is process-wide).
    func glibcOffsets(_ tz: String) -> String {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let run = runToCompletion(["/bin/sh", "-c", "date -d 2026-01-15T12:00Z +%z; date -d 2026-07-15T12:00Z +%z"],
                                  environment: ["TZ": tz, "PATH": "/usr/bin:/bin"], outputFile: dir.path + "/out")
        return run.output.split(separator: "\n").joined(separator: " ")
    }

    @Test(.enabled(if: zoneinfo, "no tzdata here")) func aValidZoneIsNoProblem() {
        #expect(problem("Europe/Berlin") == nil)
        #expect(problem(":Europe/Berlin") == nil)
        #expect(problem("/usr/share/zoneinfo/America/New_York") == nil)
        #expect(glibcOffsets("Europe/Berlin") == "+0100 +0200")
    }

    @Test func aPOSIXStringIsNoProblem() {
        for tz in ["CET-1CEST,M3.5.0,M10.5.0/3", "EST5EDT", "<+0330>-3:30", "UTC0", "NZST-12NZDT,M9.5.0,M4.1.0/3", ""] {
            #expect(problem(tz) == nil, "\(tz)")
        }
        #expect(glibcOffsets("CET-1CEST,M3.5.0,M10.5.0/3") == "+0100 +0200")
    }

    @Test func aTypoIsSaidWithTheFileItLookedFor() throws {
        let said = try #require(problem("Europe/Berln"))
        #expect(said == "TZ 'Europe/Berln': no zone file /usr/share/zoneinfo/Europe/Berln, and it is not a POSIX TZ string "
                + "(such as CET-1CEST,M3.5.0,M10.5.0/3); the opening hours run on UTC")
        // glibc indeed runs it on UTC.
        #expect(glibcOffsets("Europe/Berln") == "+0000 +0000")
    }

    @Test func garbageIsSaid() throws {
        for tz in ["garbage", "12:00", "CE", "Berlin+"] {
            #expect(problem(tz)?.hasSuffix("the opening hours run on UTC") == true, "\(tz)")
            #expect(glibcOffsets(tz) == "+0000 +0000", "\(tz): glibc \(glibcOffsets(tz))")
        }
    }

    /// A readable zone and offset with a broken rest: glibc keeps the offset and guesses the
    /// rest ("CET-1CEST,garbage" is +02:00 all year), so it is said, naming the part that reads.
    @Test func aBrokenDaylightSavingRuleIsSaid() throws {
        for tz in ["CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,garbage", "CET-1 junk"] {
            #expect(problem(tz)?.contains("only its start 'CET-1' reads as a POSIX TZ string") == true, "\(tz): \(problem(tz) ?? "nil")")
            #expect(glibcOffsets(tz) != "+0100 +0200", "\(tz): glibc would have used it as meant")
        }
    }

    @Test func aZoneFileThatIsNotOneIsSaid() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        mkdir(dir.path + "/Europe", 0o755)
        writeFile(dir.path + "/Europe/Berlin", "not a zone\n")
        let said = try #require(problem("Europe/Berlin", tzdir: dir.path))
        #expect(said.contains("\(dir.path)/Europe/Berlin is not a zone file"), "\(said)")
        // A missing TZDIR file falls back to nothing: said too.
        #expect(problem("Europe/Paris", tzdir: dir.path)?.contains("no zone file \(dir.path)/Europe/Paris") == true)
    }

    @Test func theSystemZoneWithoutTZ() {
        // Whatever /etc/localtime is here, the verdict is glibc's: a readable TZif file or not.
        let readable = LocalClock.head("/etc/localtime").map { $0.starts(with: Array("TZif".utf8)) } ?? false
        #expect((problem(nil) == nil) == readable)
        #expect(ZoneCheck.problem(tz: nil, tzdir: nil) { _ in nil }?.hasPrefix("TZ is not set and /etc/localtime cannot be read") == true)
    }
}
