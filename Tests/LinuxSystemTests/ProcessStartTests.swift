import Testing
@testable import LinuxSystem

@Suite struct ProcessStartTests {
    @Test func startTimeIsField22CountedAfterTheCommandName() {
        // A command name with spaces and a ')' of its own must not shift the fields.
        let line = "4242 (dial kiosk) x) S 1 4242 4242 0 -1 4194560 900 0 0 0 12 3 0 0 20 0 1 0 1234567 123456789 2000\n"
        #expect(ProcessStart.startTicks(statLine: line) == 1_234_567)
        #expect(ProcessStart.startTicks(statLine: "4242 (short) S 1 2 3") == nil)
        #expect(ProcessStart.startTicks(statLine: "garbage") == nil)
    }

    @Test func bootClockTicksMoveOntoTheMonotonicClock() {
        // Started 12.34 s after boot; the boot clock is 100 s ahead of the monotonic one
        // (time spent suspended), so the start is at 12.34 - 100 on CLOCK_MONOTONIC.
        let t = ProcessStart.onMonotonic(ticks: 1234, ticksPerSecond: 100, bootNow: 1100, monotonicNow: 1000)
        #expect(abs(t - (12.34 - 100)) < 1e-9)
    }

    @Test func thisProcessStartedInThePast() throws {
        let start = try #require(ProcessStart.monotonic())
        #expect(start <= monotonicNow())
    }
}
