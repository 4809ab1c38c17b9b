import Testing
@testable import KioskLoop

/// The flip rate `--stats` gives for a stretch that ends at rest: flips over the time they
/// stood for, so a 60 Hz display never reads faster than 60.
@Suite struct FrameStatsRateTests {
    /// The rate in the summary line `wentIdle` gives, for `count` flips one period apart.
    private func idleRate(flips count: Int, period: Double = 1.0 / 60) throws -> String {
        var stats = FrameStats(refreshPeriod: period)
        var t = 10.0
        for i in 0..<count {
            if i > 0 { t += period }
            _ = stats.frameShown(at: t, paintSeconds: 0.001)
        }
        // The loop calls it in the turn of the last flip, with that flip's time.
        let lines = stats.wentIdle(at: t).split(separator: "\n")
        let summary = try #require(lines.first { $0.contains(" flips/s, paint") })
        return String(try #require(summary.split(separator: " ").dropFirst().first))
    }

    @Test func twoFlipsBeforeARestAreSixtyASecondNotOneHundredTwenty() throws {
        #expect(try idleRate(flips: 2) == "60.0")
    }

    @Test func aShortSpinAtSixtyHertzReadsSixty() throws {
        #expect(try idleRate(flips: 30) == "60.0")
        #expect(try idleRate(flips: 7, period: 1.0 / 30) == "30.0")
    }

    /// A full window is unchanged: 60 flips in the second before the 61st.
    @Test func aFullWindowReadsSixty() throws {
        var stats = FrameStats(refreshPeriod: 1.0 / 60)
        var line: String?
        for i in 0...60 { line = stats.frameShown(at: 10 + Double(i) / 60, paintSeconds: 0.001) ?? line }
        #expect(try #require(line).hasPrefix("stats: 60.0 flips/s"))
    }
}
