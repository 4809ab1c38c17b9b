import Foundation
import Testing
@testable import KioskRuntime
import KioskTestSupport

/// Nested menus through `simulate`: a scripted two-level visit through the real binary
/// prints the ring events `run` prints, with paths.
@Suite struct MenuSimulateTests {
    /// The VM case's menu (drinks with coffee, tea and water; food; help), so both tests drive
    /// the same configuration.
    static let config = repository.appendingPathComponent("tests/vm/cases/files/menu-nested.yaml").path

    /// (event, path) of every line but `rest`.
    private func ringEvents(_ out: String) -> [String] {
        jsonLines(out).compactMap { line in
            guard let event = line["event"] as? String, event != "rest" else { return nil }
            return event + " " + ((line["path"] as? [String]) ?? []).joined(separator: "/")
        }
    }

    @Test func aTwoLevelVisitPrintsOpenedSelectedAndClosedWithPaths() throws {
        let script = fixtures.appendingPathComponent("menu-visit.jsonl").path
        let r = try runDialkiosk(["simulate", "--config", Self.config, "--script", script])
        #expect(r.status == 0, "\(r.err)")
        #expect(ringEvents(r.out) == [
            "opened drinks",           // the hub tap on drinks opens its ring
            "selected drinks/coffee",  // which shows its first item
            "selected drinks/tea",     // the drag turns it one slot
            "closed drinks",           // the long press goes back
            "selected drinks",         // to the top ring, on the item that opened the ring
        ], "\(r.out)")
        let lines = jsonLines(r.out)
        let tea = lines.first { ($0["path"] as? [String]) == ["drinks", "tea"] }
        #expect(tea?["index"] as? Int == 1 && tea?["id"] as? String == "tea" && tea?["label"] as? String == "Tea")
        let closed = lines.first { $0["event"] as? String == "closed" }
        // The long press fires while the finger is held (0.6 s after it went down at 6.0), not at the lift.
        #expect((closed?["t"] as? Double).map { $0 > 6.5 && $0 < 7.5 } == true, "\(String(describing: closed))")
    }

    /// A start on a nested default item: the stream opens the ring before the dial closes it,
    /// as `run` prints it.
    @Test func aNestedDefaultItemIsOpenedBeforeItIsClosed() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        writeFile(dir.path + "/c.yaml", (readFile(Self.config) ?? "") + "behaviour:\n  default_item: drinks/tea\n")
        // A long press on the hub: back to the top ring.
        writeFile(dir.path + "/s.jsonl", """
            {"t": 0.5, "type": "down", "x": 400, "y": 240}
            {"t": 2.5, "type": "up", "x": 400, "y": 240}

            """)
        let r = try runDialkiosk(["simulate", "--config", dir.path + "/c.yaml", "--script", dir.path + "/s.jsonl", "--size", "800x480"])
        #expect(r.status == 0, "\(r.err)")
        #expect(ringEvents(r.out) == ["opened drinks", "selected drinks/tea", "closed drinks", "selected drinks"], "\(r.out)")
    }
}
