import Testing
@testable import KioskVocabulary

/// docs/reference.md's "Event lines" table against the event vocabulary, both ways.
@Suite struct EventVocabularyDocsTests {
    @Test func theReferenceListsExactlyTheEvents() throws {
        let text = try ControlVocabularyDocsTests.read("docs/reference.md")
        let documented = ControlVocabularyDocsTests.rows(text, under: "## Event lines")
        #expect(!documented.isEmpty, "docs/reference.md has no table under ## Event lines")
        func names(_ list: [String]) -> String { list.map { "`\($0)`" }.joined(separator: ", ") }
        let expected = EventVocabulary.events.map { [("`\($0.name)`"), names($0.fields), names($0.sometimes), $0.from.rawValue, $0.help] }
        for row in expected where !documented.contains(row) {
            Issue.record("docs/reference.md lacks the event row: | \(row.joined(separator: " | ")) |")
        }
        for row in documented where !expected.contains(row) {
            Issue.record("docs/reference.md has an event row the vocabulary lacks: | \(row.joined(separator: " | ")) |")
        }
        let unique = Set(EventVocabulary.events.map(\.name))
        #expect(unique.count == EventVocabulary.events.count, "an event twice in the table")
    }

    /// Every `EventName` has exactly one row, and the rows are in the names' order (which the
    /// `--help` lists and the reference's table follow).
    @Test func everyNameHasOneRow() {
        #expect(EventVocabulary.events.map(\.event) == EventName.allCases)
        for name in EventName.allCases { #expect(EventVocabulary.event(name.rawValue)?.event == name, "\(name)") }
    }

    @Test func shapes() throws {
        let opened = try #require(EventVocabulary.event("opened"))
        #expect(opened.admits(["t", "event", "id", "label", "path"]))
        #expect(opened.admits(["t", "event", "id", "label", "path", "value"]))
        #expect(!opened.admits(["t", "event", "id", "path", "label"]))
        #expect(!opened.admits(["t", "event", "id", "label", "path", "extra"]))
        let item = try #require(EventVocabulary.event("item"))
        #expect(item.admits(["t", "event", "path", "id", "text", "available", "current"]))
        #expect(!item.admits(["t", "event", "path", "id", "text", "available", "current", "value"]))
    }
}
