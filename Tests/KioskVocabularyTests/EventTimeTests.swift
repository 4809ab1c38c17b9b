import Testing
@testable import KioskVocabulary

/// Every event line carries its time `t` (CLOCK_MONOTONIC seconds), whoever writes it, so a
/// reader can order lines from stdout, the control socket and MQTT alike.
@Suite struct EventTimeTests {
    @Test func everyEventInTheVocabularyCarriesT() {
        for kind in EventVocabulary.events {
            #expect(kind.fields.contains("t"), "\(kind.name): fields \(kind.fields) lack t")
        }
    }

    /// The `--help` lists come from the table: every event a command writes, in order.
    @Test func theHelpListsAreTheTablesEvents() {
        let run = EventVocabulary.names(writtenBy: .run)
        #expect(run.hasPrefix("started, selected, activated, opened, closed, reloaded"))
        for kind in EventVocabulary.events where kind.from == .run || kind.from == .runAndSimulate {
            #expect(run.split(separator: ",").map { $0.trimmingCharacters(in: " ") }.contains(kind.name), "\(kind.name)")
        }
        #expect(EventVocabulary.names(writtenBy: .simulate) == "selected, activated, opened, closed, rest, unfinished")
        #expect(EventVocabulary.names(writtenBy: .listInputs) == "watching, touch, command")
    }
}

private extension Substring {
    func trimmingCharacters(in set: Character) -> String { String(drop { $0 == set }) }
}
