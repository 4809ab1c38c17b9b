import FleetConfig
import Glibc
import KioskConfiguration
import KioskReporting
import KioskVocabulary
import Testing
@testable import KioskFeatures
import KioskTestSupport

/// The kiosk's side of commit confirmed, on a fake clock: take, build, pending until the
/// deadline, confirm or revert; what start-up runs after each step.
@Suite struct FleetBridgeTests {
    static let key = try! MinisignSecretKey(seed: [UInt8](repeating: 3, count: 32), keyID: [3, 3, 3, 3, 3, 3, 3, 3])
    let dir: String = {
        var template = Array("/tmp/fleet-bridge-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }()

    func bundle(_ serial: UInt64, _ ids: [String]) throws -> [UInt8] {
        let text = "items:\n" + ids.map { "  - {id: \($0), label: \($0)}\n" }.joined()
        return try ConfigBundle.signed(Array(text.utf8), serial: serial, targets: [], key: Self.key).encoded
    }

    /// A bundle whose first item's icon is the blob of `blob`'s bytes.
    func bundle(_ serial: UInt64, icon blob: [UInt8]) throws -> [UInt8] {
        let text = "items:\n  - {id: a, label: A, icon: 'sha256:\(try Sodium.sha256Hex(blob))'}\n  - {id: b}\n"
        return try ConfigBundle.signed(Array(text.utf8), serial: serial, targets: [], key: Self.key).encoded
    }

    func bridge(confirm: Double = 60, logs: UnsafeMutablePointer<[String]>? = nil) throws -> FleetBridge {
        let settings = FleetSettings(trustedKeys: [], confirmSeconds: confirm)
        let keys = [Self.key.publicKey]
        let store = FleetStore(directory: dir)
        let startup = FleetStartup.choose(store: store, keys: keys, local: KioskConfig(), allowCommands: false)
        let logger = JournalLogger(format: LogFormat(journalPrefixes: false)) { logs?.pointee.append($0) }
        return FleetBridge(settings: settings, store: store, clientID: "k1", keys: keys, startup: startup, logger: logger)
    }

    @Test func unconfirmedRevertsAtTheDeadlineAndConfirmedSurvivesARestart() throws {
        let fleet = try bridge(confirm: 60)
        guard case .take(let config, serial: 1) = fleet.offer(try bundle(1, ["a", "b"]), local: KioskConfig()) else {
            Issue.record("not taken"); return
        }
        #expect(config.items.map(\.id) == ["a", "b"])
        fleet.built(nil, now: 100)
        // The wait starts with the new menu's first frame, not at the swap.
        #expect(fleet.nextDeadline == nil)
        #expect(fleet.firstFrameShown(now: 100))
        #expect(fleet.nextDeadline == 160)
        #expect(!fleet.revertIfDue(now: 159.9))
        #expect(fleet.confirm(1) == nil)
        #expect(fleet.nextDeadline == nil)
        // Serial 2, never confirmed: reverted at its deadline, serial 1 runs again.
        guard case .take = fleet.offer(try bundle(2, ["c"]), local: KioskConfig()) else { Issue.record("2 not taken"); return }
        fleet.built(nil, now: 200)
        _ = fleet.firstFrameShown(now: 200)
        #expect(fleet.stateLine.text.contains("\"serial\": 2, "))
        #expect(fleet.revertIfDue(now: 260))
        #expect(fleet.active?.serial == 1)
        #expect(fleet.overlay(local: KioskConfig()).items.map(\.id) == ["a", "b"])
        #expect(fleet.stateLine.text.contains("\"serial\": 1, ") && fleet.stateLine.text.contains("\"status\": \"reverted\", \"offered\": 2"))
        // A restart: serial 1 runs, serial 2 is a replay.
        let again = try bridge()
        #expect(again.active?.serial == 1)
        guard case .refused = again.offer(try bundle(2, ["c"]), local: KioskConfig()) else { Issue.record("replay taken"); return }
        #expect(again.reason?.contains("not above 2") == true)
    }

    /// Anyone on the broker can send bundles at will: one refusal for the same reason is
    /// logged, the repeats are counted into the next different line.
    @Test func aFloodOfRefusedBundlesLogsEachReasonOnce() throws {
        var logs: [String] = []
        let fleet = try bridge(logs: &logs)
        for _ in 0..<5000 { _ = fleet.refuseOversized(bytes: 1 << 20) }
        #expect(logs.count == 1, "\(logs.count) lines")
        var forged = try bundle(7, ["x"])
        forged[forged.count - 1] ^= 1
        _ = fleet.offer(forged, local: KioskConfig())
        #expect(logs.count == 2)
        #expect(logs.last?.contains("the previous refusal came 4999 more times") == true, "\(logs.last ?? "")")
    }

    @Test func killedWhilePendingStartsOnTheConfirmed() throws {
        let fleet = try bridge()
        _ = fleet.offer(try bundle(5, ["x"]), local: KioskConfig())
        fleet.built(nil, now: 0)
        // No confirm, no revert: the process dies here.
        let restarted = try bridge()
        #expect(restarted.active == nil)
        #expect(restarted.stateLine.text.contains("\"status\": \"reverted\", \"offered\": 5"))
    }

    @Test func aFailedBuildIsRefusedAtOnceAndTheRetainedRunningBundleIsIgnored() throws {
        let fleet = try bridge(confirm: 0)
        let one = try bundle(1, ["a"])
        _ = fleet.offer(one, local: KioskConfig())
        fleet.built(nil, now: 0)
        #expect(fleet.confirmed == nil)
        _ = fleet.firstFrameShown(now: 0)
        #expect(fleet.confirmed?.serial == 1)  // confirm_seconds 0: confirmed at its first frame
        guard case .ignored = fleet.offer(one, local: KioskConfig()) else { Issue.record("running bundle not ignored"); return }
        _ = fleet.offer(try bundle(2, ["b"]), local: KioskConfig())
        fleet.built("missing icon", now: 1)
        #expect(fleet.active?.serial == 1)
        #expect(fleet.lastStatus == .refused && fleet.reason == "cannot build: missing icon")
    }
}

/// Icons named by their SHA-256 travel apart from the bundle; the kiosk fetches, checks and keeps
/// them before it builds, and refuses the bundle when one does not come or is not what it names.
extension FleetBridgeTests {
    @Test func iconBlobsAreFetchedCheckedAgainstTheirHashAndKept() throws {
        let fleet = try bridge(confirm: 60)
        let icon: [UInt8] = Array("a PNG's bytes".utf8), other: [UInt8] = Array("other bytes".utf8)
        let hex = try Sodium.sha256Hex(icon)
        let store = FleetStore(directory: dir)

        // Bytes that are not the ones named: refused at once, nothing kept.
        #expect(try summary(fleet.offer(bundle(1, icon: icon), local: KioskConfig(), now: 10)) == "fetch \(hex)")
        #expect(fleet.nextDeadline == 40)  // blob_wait_seconds 30
        #expect(summary(fleet.blobArrived(hex, payload: other)) == "refused")
        #expect(try fleet.reason == "blob sha256:\(hex) came with other bytes (their SHA-256 is \(Sodium.sha256Hex(other)))")
        #expect(!store.hasBlob(hex))
        #expect(try store.read(.pending) == nil)
        // One over the bound (never copied): refused.
        #expect(try summary(fleet.offer(bundle(2, icon: icon), local: KioskConfig(), now: 10)) == "fetch \(hex)")
        #expect(summary(fleet.blobArrived(hex, payload: nil)) == "refused")
        #expect(fleet.reason?.hasSuffix("is larger than \(ConfigBundle.maxBlobBytes)") == true)
        // Never comes: refused when the wait is over, not before.
        #expect(try summary(fleet.offer(bundle(3, icon: icon), local: KioskConfig(), now: 100)) == "fetch \(hex)")
        #expect(!fleet.blobsOverdue(now: 129.9))
        #expect(fleet.blobsOverdue(now: 130))
        #expect(fleet.lastStatus == .refused && fleet.offered == 3)
        #expect(fleet.reason?.hasPrefix("blob sha256:\(hex) did not come within 30 s") == true)
        // Comes right: kept in the state folder, the icon read from there, the bundle built.
        #expect(try summary(fleet.offer(bundle(4, icon: icon), local: KioskConfig(), now: 200)) == "fetch \(hex)")
        #expect(summary(fleet.blobArrived(hex, payload: icon)) == "take 4 \(store.blobDirectory)/\(hex)")
        #expect(store.hasBlob(hex))
        fleet.built(nil, now: 201)
        #expect(fleet.firstFrameShown(now: 201) && fleet.confirm(4) == nil)
        // A later bundle with the same icon needs no fetch.
        #expect(try summary(fleet.offer(bundle(5, icon: icon), local: KioskConfig(), now: 300)) == "take 5 \(store.blobDirectory)/\(hex)")
        fleet.built(nil, now: 301)
        #expect(fleet.firstFrameShown(now: 301) && fleet.confirm(5) == nil)

        // A changed blob in the state folder: start-up refuses the bundle naming it and runs the one before.
        writeFile(store.blobDirectory + "/" + hex, "tampered")
        let restarted = try bridge()
        #expect(restarted.active == nil)  // serial 4, the last good one, names the same blob
        writeFile(store.blobDirectory + "/" + hex, "a PNG's bytes")
        #expect(try bridge().active?.serial == 5)
    }

    @Test func aLocalFileCannotNameAnIconByItsHash() throws {
        let hex = String(repeating: "ab", count: 32)
        #expect(throws: ConfigError.self) { try ConfigParser.parse("items:\n  - {id: a, icon: 'sha256:\(hex)'}\n", file: "c.yaml") }
        do {
            _ = try ConfigParser.parse("items:\n  - {id: a, icon: 'sha256:\(hex)'}\n", file: "c.yaml")
        } catch {
            #expect("\(error)".hasPrefix("c.yaml:2: items[0].icon: an icon named by its SHA-256 comes only with a pushed configuration"), "\(error)")
        }
        let pushed = try ConfigParser.parse("items:\n  - {id: a, icon: 'sha256:\(hex)'}\n", file: "c.yaml", blobDirectory: "/s/blobs")
        #expect(pushed.items.first?.iconPath == "/s/blobs/" + hex)
        #expect(throws: ConfigError.self) { try ConfigParser.parse("items:\n  - {id: a, icon: 'sha256:ABC'}\n", file: "c.yaml", blobDirectory: "/s") }
    }
}

/// What a test checks of an offer: the serial taken and its first item's icon, or the blobs to fetch.
private func summary(_ offer: FleetBridge.Offer) -> String {
    switch offer {
    case .take(let config, let serial): return "take \(serial) \(config.items.first?.iconPath ?? "-")"
    case .fetch(let list): return "fetch " + list.joined(separator: ",")
    case .refused: return "refused"
    case .ignored: return "ignored"
    }
}

/// How a confirmation is spelled on MQTT and the control socket.
@Suite struct FleetConfirmCommandTests {
    @Test func confirmBySerialOrByHomeAssistantsButton() {
        #expect(MQTTCommand.parse(name: "config_confirm", payload: "42\n") == .success(.confirmConfig(serial: 42)))
        #expect(MQTTCommand.parse(name: "config_confirm", payload: "PRESS") == .success(.confirmConfig(serial: nil)))
        #expect((try? MQTTCommand.parse(name: "config_confirm", payload: "0").get()) == nil)
        #expect((try? MQTTCommand.parse(name: "config_confirm", payload: "-1").get()) == nil)
        #expect(ControlLine.parse("confirm 42") == .command(.confirmConfig(serial: 42)))
        #expect(ControlLine.parse("confirm") == .invalid("confirm needs the serial of the pushed configuration, a whole number from 1"))
    }
}
