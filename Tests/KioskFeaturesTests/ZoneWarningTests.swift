import Testing
@testable import KioskFeatures
import KioskTestSupport

/// With opening hours, a TZ glibc cannot use is said once in the journal at start (what was
/// wrong and that UTC is used), not again at a reload that finds the same, and not at all for
/// a usable TZ or without hours.
@Suite struct ZoneWarningTests {
    static let hours = """
        items: [{id: a, label: A}]
        power:
          schedule:
            - {days: mon-fri, on: "07:00", off: "19:30"}

        """

    func zoneLines(_ rig: LoggedServiceRig) -> [String] { rig.lines.filter { $0.contains("power: TZ") } }

    @Test func anUnusableTZIsSaidOnceAtStartAndNotAgainAtAReload() throws {
        let rig = try LoggedServiceRig(config: Self.hours, environment: ["TZ": "Europe/Berln"])
        #expect(zoneLines(rig).count == 1, "\(rig.lines)")
        #expect(zoneLines(rig).first?.contains("no zone file /usr/share/zoneinfo/Europe/Berln") == true)
        #expect(zoneLines(rig).first?.contains("the opening hours run on UTC") == true)
        writeFile(rig.path, Self.hours + "behaviour: {idle_after_minutes: 5}\n")
        _ = rig.service.reloadNow(at: 1)
        #expect(rig.lines.contains { $0.contains("reload:") }, "\(rig.lines)")
        #expect(zoneLines(rig).count == 1, "\(rig.lines)")
    }

    @Test func garbageIsSaidToo() throws {
        let rig = try LoggedServiceRig(config: Self.hours, environment: ["TZ": "garbage"])
        #expect(zoneLines(rig).count == 1 && zoneLines(rig)[0].contains("TZ 'garbage'"), "\(rig.lines)")
    }

    @Test func aUsableTZOrNoHoursSaysNothing() throws {
        #expect(zoneLines(try LoggedServiceRig(config: Self.hours, environment: ["TZ": "CET-1CEST,M3.5.0,M10.5.0/3"])).isEmpty)
        #expect(zoneLines(try LoggedServiceRig(environment: ["TZ": "garbage"])).isEmpty)
    }

    /// A reload that brings the hours is when the zone matters: said then.
    @Test func aReloadThatBringsHoursSaysIt() throws {
        let rig = try LoggedServiceRig(environment: ["TZ": "garbage"])
        #expect(zoneLines(rig).isEmpty)
        writeFile(rig.path, Self.hours)
        _ = rig.service.reloadNow(at: 1)
        #expect(zoneLines(rig).count == 1, "\(rig.lines)")
    }
}
