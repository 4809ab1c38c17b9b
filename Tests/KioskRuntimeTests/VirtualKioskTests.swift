import DialCore
import Foundation
import Testing
@testable import KioskRuntime
import KioskTestSupport

/// A kiosk on the virtual display: the same gesture script through `simulate`
/// and through a whole kiosk (`run --display virtual:800x480@60 --input-script`, the built
/// binary, in real time) gives the same ring events; blanking and waking work with no GPU.
@Suite struct VirtualKioskTests {
    static let config = MenuSimulateTests.config

    /// (event, path) of every selected, activated, opened and closed line.
    private func ringEvents(_ out: String) -> [String] {
        jsonLines(out).compactMap { line in
            guard let event = line["event"] as? String, ["selected", "activated", "opened", "closed"].contains(event) else { return nil }
            return event + " " + ((line["path"] as? [String]) ?? []).joined(separator: "/")
        }
    }

    @Test func simulateAndAVirtualKioskMakeTheSameChoices() throws {
        let script = fixtures.appendingPathComponent("menu-visit.jsonl").path
        let simulated = try runDialkiosk(["simulate", "--config", Self.config, "--script", script])
        #expect(simulated.status == 0, "\(simulated.err)")
        // The script ends at 7.5 s; the kiosk runs on untouched until --exit-after.
        let run = try runDialkiosk(["run", "--display", "virtual:800x480@60", "--input-script", script,
                                    "--config", Self.config, "--exit-after", "8.5"])
        #expect(run.status == 0, "\(run.err)")
        #expect(ringEvents(simulated.out).count == 5)
        // A kiosk starts by telling its clients where the dial rests;
        // `simulate` prints only what the dial does. After that line the two agree.
        let kiosk = ringEvents(run.out)
        #expect(kiosk.first == "selected drinks", "\(run.out)")
        #expect(Array(kiosk.dropFirst()) == ringEvents(simulated.out), "run: \(run.out)\nsimulate: \(simulated.out)")
        #expect(run.err.contains("run: ended by --exit-after"), "\(run.err)")
    }

    @Test func aVirtualKioskBlanksWhenIdleAndATouchWakesIt() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        writeFile(dir.path + "/blank.yaml", "behaviour:\n  idle: blank\n  idle_after_minutes: 0.02\n")
        writeFile(dir.path + "/tap.jsonl", "{\"t\": 2.5, \"type\": \"down\", \"x\": 700, \"y\": 400}\n"
                  + "{\"t\": 2.55, \"type\": \"up\", \"x\": 700, \"y\": 400}\n")
        let run = try runDialkiosk(["run", "--display", "virtual:320x240@30", "--input-script", dir.path + "/tap.jsonl",
                                    "--config", dir.path + "/blank.yaml", "--exit-after", "3.5"])
        #expect(run.status == 0, "\(run.err)")
        // Blank after the idle time, then the tap wakes it. On a loaded machine the exit may
        // come late enough for the idle time to blank it again after the wake, which is right:
        // the order is checked, not what was last.
        let screen = run.err.split(separator: "\n").filter { $0.contains("screen: ") }.map { String($0) }
        let blank = screen.firstIndex { $0.hasSuffix("screen: blank") }
        let wake = blank.flatMap { b in screen.indices.first { $0 > b && screen[$0].hasSuffix("screen: wake") } }
        #expect(blank != nil && wake != nil, "\(run.err)")
    }

    @Test(arguments: ["virtual", "virtual:", "virtual:800x480@0", "virtual:10x10", "kms:800x480", "virtual:800x480@x"])
    func aBadDisplaySpecIsAUsageError(spec: String) throws {
        let run = try runDialkiosk(["run", "--display", spec, "--exit-after", "1"])
        #expect(run.status == 64, "\(run.err)")
        #expect(run.err.contains("--display"), "\(run.err)")
    }

    /// A script that ends with the finger held on the hub inside a ring let
    /// the long press go back after the script, exited 0 and printed neither `unfinished` nor
    /// the warning (the ring it went back to was at rest).
    @Test func aFingerHeldInANestedRingIsReported() throws {
        let script = """
            {"t": 0.2, "type": "down", "x": 400, "y": 240}
            {"t": 0.26, "type": "up", "x": 400, "y": 240}
            {"t": 3.0, "type": "down", "x": 400, "y": 240}

            """
        let r = try runDialkiosk(["simulate", "--config", Self.config], stdin: script)
        let last = jsonLines(r.out).last
        #expect(last?["event"] as? String == "unfinished", "\(r.out)")
        #expect(last?["reason"] as? String == "finger-down", "\(r.out)")
        #expect(r.err.contains("finger down"), "\(r.err)")
    }
}
