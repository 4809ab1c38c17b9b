import Foundation
import Testing
@testable import KioskVocabulary

/// The reference's verb table (docs/reference.md, "Control verbs") and the MQTT topic table
/// (docs/operations.md) against the vocabulary, both ways: a verb, topic or Home Assistant
/// entity in one and not the other fails, naming the row.
@Suite struct ControlVocabularyDocsTests {
    static let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    /// The cells of the table rows under `heading` (to the next `## `), `\|` kept as `|`.
    static func rows(_ text: String, under heading: String) -> [[String]] {
        guard let start = text.range(of: "\n" + heading + "\n") else { return [] }
        var rows: [[String]] = []
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("|"), !line.hasPrefix("|---") else { continue }
            var cells: [String] = [], cell = "", escaped = false
            for c in line.dropFirst() {
                if escaped { cell.append(c); escaped = false } else if c == "\\" { escaped = true } else if c == "|" {
                    cells.append(cell.trimmingCharacters(in: .whitespaces)); cell = ""
                } else { cell.append(c) }
            }
            rows.append(cells)
        }
        return Array(rows.dropFirst())  // the header
    }

    /// The table's rows as the reference writes them: usage, topics, entities, help.
    static var expectedRows: [[String]] {
        ControlVocabulary.verbs.map { verb in
            [verb.socket.map { "`\($0.usage)`" } ?? "(MQTT only)",
             verb.mqtt.map { "`\($0.topic)`" }.joined(separator: ", "),
             verb.mqtt.compactMap { $0.homeAssistant?.summary }.joined(separator: ", "),
             verb.help]
        }
    }

    @Test func theReferenceListsExactlyTheVocabulary() throws {
        let documented = Self.rows(try Self.read("docs/reference.md"), under: "## Control verbs")
        #expect(!documented.isEmpty, "docs/reference.md has no table under ## Control verbs")
        let expected = Self.expectedRows
        for row in expected where !documented.contains(row) {
            Issue.record("docs/reference.md lacks the row: | \(row.joined(separator: " | ")) |")
        }
        for row in documented where !expected.contains(row) {
            Issue.record("docs/reference.md has a row the vocabulary lacks: | \(row.joined(separator: " | ")) |")
        }
        #expect(documented.map(\.first) == expected.map(\.first), "the reference's order is the usage line's")
    }

    /// Every topic (after `<base>/set/`) a cell names: `<base>/set/select`, or a bare `activate`
    /// after one, each in backticks.
    static func topics(in cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { piece in
            let text = String(piece.element)
            return text.hasPrefix("<base>/set/") ? String(text.dropFirst("<base>/set/".count)) : text
        }
    }

    static var tableTopics: Set<String> { Set(ControlVocabulary.mqttInputs.map(\.input.topic)) }

    @Test func theTopicTableListsExactlyTheSetTopics() throws {
        let rows = Self.rows(try Self.read("docs/operations.md"), under: "## Fleets and Home Assistant")
        let documented = Set(rows.filter { $0.first?.contains("<base>/set/") == true }.flatMap { Self.topics(in: $0[0]) })
        #expect(documented.subtracting(Self.tableTopics).isEmpty,
                "docs/operations.md names set topics the vocabulary lacks: \(documented.subtracting(Self.tableTopics).sorted())")
        #expect(Self.tableTopics.subtracting(documented).isEmpty,
                "docs/operations.md's topic table lacks: \(Self.tableTopics.subtracting(documented).sorted())")
    }

    /// Anywhere in the docs and the README, `<base>/set/X` names a topic of the table (or a
    /// path under one of its forms).
    @Test func everySetTopicTheDocsMentionExists() throws {
        let files = ["README.md"] + (try FileManager.default.contentsOfDirectory(atPath: Self.root + "/docs"))
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        let prefixes = ControlVocabulary.mqttInputs.compactMap(\.input.prefix)
        for file in files {
            let text = try Self.read(file)
            var rest = Substring(text)
            while let hit = rest.range(of: "/set/") {
                let name = rest[hit.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "/" || $0 == "<" || $0 == ">" }
                rest = rest[hit.upperBound...]
                guard !name.isEmpty, !name.hasPrefix("<") else { continue }  // `set/<topic>`: a placeholder
                let known = Self.tableTopics.contains(String(name)) || prefixes.contains { name.hasPrefix($0) }
                    || Self.tableTopics.contains { $0.hasPrefix(name) }
                #expect(known, "\(file): set/\(name) is not a topic of the vocabulary")
            }
        }
    }
}
