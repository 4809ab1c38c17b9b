import Glibc
import Testing
import KioskConfiguration
import KioskReporting
@testable import KioskRuntime
import KioskTestSupport

/// A whole kiosk (the runtime's assembly: loop, service, sources, the virtual display, the
/// touch script), made in one line by `VirtualKiosk.make` and run in real time in this process.
@Suite struct VirtualKioskRunTests {
    @Test func aFlingOnAVirtualKioskSelectsWhatSimulatePrints() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        defer { close(fds[0]); close(fds[1]) }
        let kiosk = try VirtualKiosk.make(script: repositoryRoot + "/examples/fling.jsonl", exitAfter: 3.2, eventsFD: fds[1],
                                          logger: JournalLogger(format: LogFormat(journalPrefixes: false)) { _ in })
        defer { kiosk.close() }
        let ending = try kiosk.run()
        #expect(ending == .timerExpired)
        let events = drainText(fds[0]).split(separator: "\n").map(String.init)
        // A kiosk starts by saying it started and where the dial rests; then the fling's choice,
        // the one `simulate --script examples/fling.jsonl` prints first (weissbier at 2.2 s).
        #expect(events.first?.contains("\"event\": \"started\"") == true, "\(events)")
        let selected = events.filter { $0.contains("\"event\": \"selected\"") }
        #expect(selected.count >= 2, "\(events)")
        #expect(selected.dropFirst().first?.contains("\"id\": \"weissbier\"") == true, "\(events)")
        #expect(events.last?.contains("\"event\": \"stopping\"") == true, "\(events)")
    }
}
