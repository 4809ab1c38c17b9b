import Foundation
import Testing
import KioskTestSupport

/// libespeak-ng, libasound and libmosquitto are opened on first use, not linked. A
/// kiosk whose configuration has no speech, cues or MQTT never maps them (nor OpenSSL); one
/// with speech or MQTT maps what it uses. Read from /proc/PID/maps of the built binary while
/// it runs (`run` on the virtual display with the two-level visit of VirtualKioskTests).
@Suite(.serialized) struct LazyLibrariesTests {
    static let lazy = ["libespeak-ng.so", "libasound.so", "libmosquitto.so", "libssl.so", "libcrypto.so", "libsodium.so"]

    /// The libraries among `lazy` that `dialkiosk run` with the menu-nested configuration plus
    /// `extra` mapped at any of the moments its maps were read (every 50 ms from start to exit),
    /// how many times they were read, and the run's exit status and stderr.
    private func mappedWhileRunning(extra: String) throws -> (mapped: Set<String>, samples: Int, status: Int32, err: String) {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        writeFile(dir.path + "/config.yaml", (readFile(MenuSimulateTests.config) ?? "") + extra)
        let script = fixtures.appendingPathComponent("menu-visit.jsonl").path
        let p = try startBuiltKiosk(["run", "--display", "virtual:800x480@60", "--input-script", script,
                                     "--config", dir.path + "/config.yaml", "--exit-after", "3"], stderrFile: dir.path + "/err")
        var mapped = Set<String>()
        var samples = 0
        while p.isRunning {
            if let maps = readFile("/proc/\(p.processIdentifier)/maps"), !maps.isEmpty {
                samples += 1
                for name in Self.lazy where maps.contains("/" + name) { mapped.insert(name) }
            }
            usleep(50_000)
        }
        p.waitUntilExit()
        return (mapped, samples, p.terminationStatus, readFile(dir.path + "/err") ?? "")
    }

    @Test func aKioskWithoutSpeechCuesOrMQTTMapsNoneOfTheirLibraries() throws {
        let run = try mappedWhileRunning(extra: "")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.samples >= 10, "the maps were read \(run.samples) times")
        #expect(run.mapped.isEmpty, "mapped: \(run.mapped.sorted())")
    }

    @Test func speechMapsEspeakAndALSAButNotMosquitto() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let run = try mappedWhileRunning(extra: """
            accessibility:
              voice: en
              sound_cues: on
              device: "file:'\(dir.path)/out.raw',raw"

            """)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.mapped.isSuperset(of: ["libespeak-ng.so", "libasound.so"]), "mapped: \(run.mapped.sorted())")
        #expect(!run.mapped.contains("libmosquitto.so"), "mapped: \(run.mapped.sorted())")
        #expect(!run.err.contains("Failed to load"), "\(run.err)")
        // The visit's selections were spoken into the file PCM.
        let written = (try? FileManager.default.attributesOfItem(atPath: dir.path + "/out.raw"))?[.size] as? Int ?? 0
        #expect(written > 10_000, "\(run.err)")
    }

    @Test func mqttMapsMosquittoButNotEspeak() throws {
        // No broker listens there: the client is made (and the library loaded) all the same.
        let port = TestBroker.freePort()
        let run = try mappedWhileRunning(extra: """
            mqtt:
              host: 127.0.0.1
              port: \(port)
              client_id: lazy-test

            """)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.mapped.contains("libmosquitto.so"), "mapped: \(run.mapped.sorted())")
        #expect(run.mapped.isDisjoint(with: ["libespeak-ng.so", "libasound.so"]), "mapped: \(run.mapped.sorted())")
        #expect(run.err.contains("mqtt: cannot connect to 127.0.0.1:\(port)"), "\(run.err)")
    }

    /// Fleet configuration (signed bundles): libsodium is opened with the `fleet:` section.
    @Test func fleetMapsSodium() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        writeFile(dir.path + "/fleet.pub", "# 32 zero bytes\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n")
        let run = try mappedWhileRunning(extra: """
            fleet:
              trusted_keys: [\(dir.path)/fleet.pub]

            """)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.mapped.contains("libsodium.so"), "mapped: \(run.mapped.sorted())")
        #expect(run.mapped.isDisjoint(with: ["libespeak-ng.so", "libasound.so", "libmosquitto.so"]), "mapped: \(run.mapped.sorted())")
    }
}
