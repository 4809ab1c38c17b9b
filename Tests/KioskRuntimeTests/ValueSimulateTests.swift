import Foundation
import Testing
@testable import KioskRuntime
import KioskTestSupport

/// A value item through the built binary: `simulate` opens, turns and commits its value dial
/// with the same event lines a whole kiosk (`run --display virtual --input-script`) prints for
/// the same script, since the value dial is the dial's own mode in both.
@Suite struct ValueSimulateTests {
    static let config = """
        items:
          - id: heating
            label: Heating
            value: {min: 15, max: 25, step: 0.5, unit: "C", commit_after_seconds: 1}
          - {id: tea, label: Tea}

        """

    /// A hub tap on the selected value item, then a sixth of a turn clockwise around the hub
    /// (four detents of 15 degrees), then nothing: the pause commits.
    static var script: String {
        var lines = ["{\"t\": 1.0, \"type\": \"down\", \"x\": 400, \"y\": 240}",
                     "{\"t\": 1.05, \"type\": \"up\", \"x\": 400, \"y\": 240}",
                     "{\"t\": 1.5, \"type\": \"down\", \"x\": 550, \"y\": 240}"]
        for k in 1...12 {
            let a = Double(k) * 5 * .pi / 180
            lines.append("{\"t\": \(1.5 + Double(k) * 0.02), \"type\": \"motion\", \"x\": \(400 + 150 * cos(a)), \"y\": \(240 + 150 * sin(a))}")
        }
        lines.append("{\"t\": 1.8, \"type\": \"up\", \"x\": 475, \"y\": 369.9}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// (event, phase, value, path) of the value dial's lines and any activation.
    private func valueEvents(_ out: String) -> [String] {
        jsonLines(out).compactMap { line in
            guard let event = line["event"] as? String, ["opened", "closed", "value", "activated"].contains(event) else { return nil }
            let value = (line["value"] as? NSNumber).map { "\($0)" } ?? "-"
            return [event, line["phase"] as? String ?? "-", value, ((line["path"] as? [String]) ?? []).joined(separator: "/")]
                .joined(separator: " ")
        }
    }

    @Test func simulateOpensTurnsAndCommitsAValueDialAsAKioskDoes() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        writeFile(dir.path + "/value.yaml", Self.config)
        writeFile(dir.path + "/turn.jsonl", Self.script)
        let simulated = try runDialkiosk(["simulate", "--config", dir.path + "/value.yaml", "--script", dir.path + "/turn.jsonl"])
        #expect(simulated.status == 0, "\(simulated.err)")
        #expect(valueEvents(simulated.out) == [
            "opened - 15.0 heating",
            "value changing 15.5 heating", "value changing 16.0 heating", "value changing 16.5 heating", "value changing 17.0 heating",
            "value committed 17.0 heating",
        ], "\(simulated.out)")
        let run = try runDialkiosk(["run", "--display", "virtual:800x480@60", "--input-script", dir.path + "/turn.jsonl",
                                    "--config", dir.path + "/value.yaml", "--exit-after", "4.5"])
        #expect(run.status == 0, "\(run.err)")
        #expect(valueEvents(run.out) == valueEvents(simulated.out), "run: \(run.out)\nsimulate: \(simulated.out)")
    }
}
