import DialCore
import Foundation
import KioskVocabulary
import Testing
@testable import KioskFeatures

/// The event writers against the event vocabulary: every line the writers make has its row's
/// name and keys in order, and every `"event"` name the sources write is a row of the table
/// (and every row is written somewhere).
@Suite struct EventWriterTests {
    /// One of each service event. The switch is exhaustive: a new case does not compile here
    /// until it is given an example, whose line the test then checks against the table.
    static func example(_ event: KioskEvent) -> KioskEvent {
        switch event {
        case .dial: return .dial(.selected(index: 1, path: ["a"], time: 1), frames: 0)
        case .started: return .started(time: 1, items: 2)
        case .reloaded: return .reloaded(time: 1, items: 2)
        case .stopping: return .stopping(time: 1, reason: "signal")
        case .error: return .error(time: 1, message: "no")
        case .language: return .language(time: 1, code: "de")
        case .power: return .power(time: 1, state: "off", reason: "idle", detail: "")
        }
    }

    static let menu = try! MenuTree([MenuNode(MenuItem(id: "a", label: "A", color: RGBColor(hex: 0)))])

    static func check(_ line: EventLine) {
        let keys = line.fields.map(\.0)
        guard let name = line.fields.first(where: { $0.0 == "event" }), case .event(let event) = name.1 else {
            Issue.record("\(line.text) has no event name of the vocabulary")
            return
        }
        let kind = EventVocabulary.event(event)
        #expect(kind.admits(keys), "\(line.text): keys \(keys), the table says \(kind.fields)")
    }

    @Test func theServiceAndDialWritersFollowTheTable() {
        let events: [KioskEvent] = [.started(time: 0, items: 0), .reloaded(time: 0, items: 0), .stopping(time: 0, reason: ""),
                                    .error(time: 0, message: ""), .language(time: 0, code: ""),
                                    .power(time: 0, state: "", reason: "", detail: ""), .dial(.rest(time: 0, rotation: 0, index: nil), frames: 0)]
        for event in events { Self.check(.kiosk(Self.example(event), menu: Self.menu)) }
        let dial: [DialEvent] = [.selected(index: 0, path: ["a"], time: 1), .activated(index: nil, path: ["a", ".."], time: 1),
                                 .rest(time: 1, rotation: 0.5, index: 0), .opened(path: ["a"], time: 1), .closed(path: ["a"], time: 1)]
        for event in dial { Self.check(.dialEvent(event, menu: Self.menu, frames: 3)) }
        #expect(HomeAssistantDiscovery.eventTypes.allSatisfy { EventVocabulary.event($0) != nil })
    }

    /// `("event", .event(.name))` in the sources: the keys of a literal line around it are the
    /// row's, in order; each row is written somewhere; and no source spells an event's name as
    /// a string (`("event", .string(...))`): names come from `EventName` only.
    @Test func everyEventTheSourcesWriteIsInTheTable() throws {
        let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
        let files = try #require(FileManager.default.enumerator(atPath: root + "/Sources")).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        var written = Set<String>()
        let marker = "(\"event\", .event(.", spelled = "(\"event\", .string("
        for file in files {
            let text = try String(contentsOfFile: root + "/Sources/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains(spelled) {
                Issue.record("Sources/\(file) spells an event name instead of naming an EventName: \(line.trimmingPrefix(while: { $0 == " " }))")
            }
            // Written by a function of its own (the dial's and the value dial's `head`, EventLine.swift).
            var head = text.startIndex
            while let hit = text.range(of: "head(t, .", range: head..<text.endIndex) {
                head = hit.upperBound
                written.insert(String(text[hit.upperBound...].prefix { $0.isLetter }))
            }
            var from = text.startIndex
            while let hit = text.range(of: marker, range: from..<text.endIndex) {
                from = hit.upperBound
                let name = String(text[hit.upperBound...].prefix { $0.isLetter })
                written.insert(name)
                guard let kind = EventVocabulary.event(name) else {
                    Issue.record("Sources/\(file): event \(name) is not in the table")
                    continue
                }
                // The list the pair stands in: from the nearest `[(` before it to its `]`.
                guard let open = text.range(of: "[(", options: .backwards, range: text.startIndex..<text.index(after: hit.lowerBound)) else { continue }
                var depth = 0, end = open.lowerBound
                for i in text.indices[open.lowerBound...] {
                    if text[i] == "[" { depth += 1 } else if text[i] == "]" { depth -= 1; if depth == 0 { end = i; break } }
                }
                let list = text[open.lowerBound..<end]
                var keys: [String] = []
                var rest = list[...]
                while let key = rest.range(of: "(\"") {
                    let word = rest[key.upperBound...].prefix { $0 != "\"" }
                    let after = rest[key.upperBound...].dropFirst(word.count)
                    if after.hasPrefix("\", ") { keys.append(String(word)) }
                    rest = after
                }
                let shape = kind.fields + kind.sometimes
                #expect(kind.admits(keys) || (keys.count < kind.fields.count && Array(shape.prefix(keys.count)) == keys),
                        "Sources/\(file): \(name) written with keys \(keys), the table says \(kind.fields) then \(kind.sometimes)")
            }
        }
        for kind in EventVocabulary.events { #expect(written.contains(kind.name), "event \(kind.name) is in the table but no source writes it") }
    }
}
