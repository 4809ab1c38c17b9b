import DialCore
import FleetConfig
import Glibc
import Dispatch
import Testing
@testable import KioskRuntime
@testable import KioskConfiguration
@testable import KioskLoop
@testable import KioskReporting
@testable import KioskFeatures
import KioskSeams
import KioskTestSupport

/// A pushed configuration on the run loop with a fake display and clock: the confirmation's wait
/// counts from the new menu's first frame on the glass, and a configuration whose first frame
/// fails is refused at once, the confirmed menu (here the local file) back in the same turn.
@Suite(.serialized) struct FleetFirstFrameTests {
    static let key = try! MinisignSecretKey(seed: [UInt8](repeating: 7, count: 32), keyID: [7, 7, 7, 7, 7, 7, 7, 7])

    /// An item with this id makes the scene's paint throw, as a painter that cannot paint would.
    struct CannotPaint: Error, CustomStringConvertible {
        var description: String { "the painter cannot paint this menu" }
    }

    /// An item with this id makes the scene's build throw, as an icon that cannot be read would.
    struct CannotBuild: Error, CustomStringConvertible {
        var description: String { "/nonexistent/icon.png: No such file or directory" }
    }

    final class Rig {
        let dir = TemporaryDirectory()
        let display = PipeDisplay(width: 160, height: 120)
        let time = FakeClock(now: 100)
        let service: LegacyService
        let loop: FrameLoop
        let gate = DispatchSemaphore(value: 0)
        let journal = Journal()
        var configPath: String { dir.path + "/config.yaml" }
        var stateDir: String { dir.path + "/state" }

        /// `offTheLoop`: reloads are prepared on a thread, as in `run` (`GatedScenes`).
        init(confirm: Double, offTheLoop: Bool = false) throws {
            writeFile(dir.path + "/config.yaml", "items: [{id: a, label: A}, {id: b, label: B}]\n")
            let logger = JournalLogger(format: LogFormat(journalPrefixes: false)) { [journal] in journal.lines.append($0) }
            let build = { (config: KioskConfig, index: Int?) throws -> Scene in
                var scene = try SceneRecipe.scene(config: config, restingOn: index, width: 160, height: 120, rotation: .none, painter: .flat)
                if config.items.contains(where: { $0.id == "broken" }) { scene.paint = { _, _ in throw CannotPaint() } }
                if config.items.contains(where: { $0.id == "unbuildable" }) { throw CannotBuild() }
                return scene
            }
            let config = try ConfigLoader.load(path: dir.path + "/config.yaml")
            let devNull = open("/dev/null", O_WRONLY)
            service = try LegacyService(config: config, configPath: dir.path + "/config.yaml", controlPath: nil, environment: [:],
                                       logger: logger, eventsFD: devNull, now: time.now,
                                       scenes: offTheLoop ? GatedScenes(build: build, gate: gate) : ClosureScenes(build: build))
            let keys = [FleetFirstFrameTests.key.publicKey]
            let store = FleetStore(directory: dir.path + "/state")
            let startup = FleetStartup.choose(store: store, keys: keys, local: config, allowCommands: false)
            service.fleet = FleetBridge(settings: FleetSettings(trustedKeys: [], confirmSeconds: confirm), store: store,
                                        clientID: "k1", keys: keys, startup: startup, logger: logger)
            loop = FrameLoop(output: LoopOutput(presenter: display, power: .painted(), resize: LoopOutput.fixedMode),
                             sources: FrameLoop.sources(displays: [display], service: service.pollSources),
                             scene: try build(config, nil), now: { [time] in time.now }, service: service, log: { _ in })
        }

        deinit {
            service.stop(reason: "test", now: .nan)
            dir.remove()
        }

        func bundle(_ serial: UInt64, _ ids: [String]) throws -> [UInt8] {
            try ConfigBundle.signed(Array(("items:\n" + ids.map { "  - {id: \($0)}\n" }.joined()).utf8), serial: serial, targets: [],
                                    key: FleetFirstFrameTests.key).encoded
        }

        func step() throws { _ = try loop.step(timeoutMS: 0) }

        /// A bundle over the broker, its requests carried out by the loop as a command's are.
        func take(_ bytes: [UInt8], at time: Double) throws { try loop.carryOut(service.takeBundle(bytes, at: time), at: time) }

        /// SIGHUP's reload, its requests carried out by the loop.
        func reload(at time: Double) throws { try loop.carryOut(service.requestReload(at: time), at: time) }

        /// The queued frame's flip event at `time`, and flips at 60 Hz until nothing is queued.
        func flip(at time: Double) throws {
            self.time.now = time
            var frames = 0
            while loop.awaitsFlip && frames < 1000 {
                display.report(.frameShown(time: self.time.now))
                try step()
                self.time.now += 1.0 / 60
                frames += 1
            }
        }

        var shownIDs: [String] { (loop.dial as! MenuDial).dial.items.map(\.id) }

        /// Steps the loop until no preparation runs (each waited for on its pipe, bounded).
        func landPreparations() throws {
            for _ in 0..<20 where service.reloads.isBusy {
                var fds = service.reloads.pollDescriptors
                _ = poll(&fds, nfds_t(fds.count), 10_000)
                try step()
            }
        }
    }

    /// `ClosureScenes` prepared on a thread; once `armed`, preparations wait for `gate` there
    /// (not when built on the loop's thread, the test's).
    final class GatedScenes: SceneBuilding {
        let inner: ClosureScenes
        let gate: DispatchSemaphore
        var armed = false
        init(build: @escaping (KioskConfig, Int?) throws -> Scene, gate: DispatchSemaphore) {
            inner = ClosureScenes(build: build)
            self.gate = gate
        }
        func adjusted(_ config: KioskConfig) -> KioskConfig { config }
        func scene(for config: KioskConfig, resting: SceneResting) throws -> Scene? { try inner.scene(for: config, resting: resting) }
        func preparation() -> ((KioskConfig, String?) throws -> PreparedScene)? {
            guard let prepare = inner.preparation() else { return nil }
            let gate = self.gate, loopThread = pthread_self(), armed = self.armed
            return { config, language in
                if armed && pthread_equal(pthread_self(), loopThread) == 0 {
                    _ = gate.wait(timeout: .now() + 10)
                }
                return try prepare(config, language)
            }
        }
        var preparesOffTheLoop: Bool { true }
    }

    @Test func theConfirmationsWaitCountsFromTheFirstFrameOfTheNewMenu() throws {
        let k = try Rig(confirm: 10)
        try k.loop.start(at: k.time.now)
        try k.flip(at: 100)
        // A reload of the local file first (its times older than the file system's tick, so
        // later reads of the unchanged file are settled ones).
        usleep(100_000)
        try k.reload(at: k.time.now)
        try k.flip(at: 101)
        let parsed = k.service.reloads.parsed

        try k.take(try k.bundle(1, ["x", "y"]), at: 102)
        #expect(k.shownIDs == ["x", "y"])
        #expect(k.service.fleet?.pending?.bundle.serial == 1)
        // Swapped in at 102; its first frame on the glass only at 105 (a slow first flip).
        #expect(k.service.fleet?.nextDeadline == nil)
        try k.flip(at: 105)
        #expect(k.service.fleet?.nextDeadline == 115)
        // SIGHUP while it waits: the file did not change, so this read settles it with the
        // pushed menu over it; the revert below must read it again all the same.
        try k.reload(at: 106)
        #expect(k.service.reloads.parsed == parsed + 1, "the reload read the file")
        #expect(k.shownIDs == ["x", "y"])
        // Not reverted at 112 (10 s after the swap), reverted at 115.
        k.time.now = 112
        try k.step()
        #expect(k.service.fleet?.pending?.bundle.serial == 1)
        k.time.now = 115
        try k.step()
        #expect(k.service.fleet?.pending == nil)
        #expect(k.service.fleet?.lastStatus == .reverted)
        #expect(k.shownIDs == ["a", "b"])
        #expect(k.service.config.items.map(\.id) == ["a", "b"])
    }

    final class Journal: @unchecked Sendable { var lines: [String] = [] }

    /// A pushed bundle that cannot be built is journalled by its serial, not as the local file.
    @Test func aFailedBuildNamesThePushedBundleNotTheLocalFile() throws {
        let k = try Rig(confirm: 10)
        try k.loop.start(at: k.time.now)
        try k.flip(at: 100)
        let bytes = try ConfigBundle.signed(Array("items:\n  - {id: unbuildable}\n  - {id: b}\n".utf8),
                                            serial: 3, targets: [], key: FleetFirstFrameTests.key).encoded
        try k.take(bytes, at: 101)
        let fleet = try #require(k.service.fleet)
        #expect(fleet.lastStatus == .refused && fleet.offered == 3)
        let line = try #require(k.journal.lines.first { $0.contains("reload:") && $0.contains("keeping the running configuration") },
                                "\(k.journal.lines)")
        #expect(line.contains("reload: pushed serial 3 (bundle-3.yaml): "), "\(line)")
        #expect(!line.contains(k.configPath), "\(line)")
        #expect(fleet.reason?.hasPrefix("cannot build: /nonexistent/icon.png") == true, "\(fleet.reason ?? "nil")")
    }

    @Test func aConfigurationWhoseFirstFrameFailsIsRefusedAndTheConfirmedOneRunsAgain() throws {
        let k = try Rig(confirm: 10)
        try k.loop.start(at: k.time.now)
        try k.flip(at: 100)
        let presents = k.display.presents

        try k.take(try k.bundle(1, ["broken", "z"]), at: 101)
        let fleet = try #require(k.service.fleet)
        #expect(fleet.lastStatus == .refused)
        #expect(fleet.offered == 1)
        #expect(fleet.reason == "its first frame failed: the painter cannot paint this menu", "\(fleet.reason ?? "nil")")
        #expect(fleet.pending == nil && fleet.active == nil)
        #expect(!FileManagerLess.exists(k.stateDir + "/pending.bundle"))
        // The local menu is back, and its frame was queued in the same turn.
        #expect(k.shownIDs == ["a", "b"])
        #expect(k.service.config.items.map(\.id) == ["a", "b"])
        #expect(k.display.presents == presents + 1)
        try k.flip(at: 102)
        // The loop goes on: a later good bundle is taken (serial 1 counts as taken).
        try k.take(try k.bundle(2, ["c"]), at: 103)
        try k.flip(at: 103)
        #expect(k.shownIDs == ["c"])
        #expect(k.service.fleet?.nextDeadline == 113)
    }
    /// The first frame of a pushed configuration fails while a reload's preparation runs: that
    /// preparation read the file with the refused configuration over it, so its outcome is
    /// dropped and the file read again after it (committed, it put the refused menu back up,
    /// whose frame failed with nothing left to refuse: the run ended).
    @Test func aPreparationThatReadTheRefusedConfigurationIsDropped() throws {
        let k = try Rig(confirm: 10, offTheLoop: true)
        // The start's frame is queued and not flipped yet: the new scene's first frame waits for it.
        try k.loop.start(at: k.time.now)
        try k.take(try k.bundle(1, ["broken", "z"]), at: 101)
        try k.landPreparations()
        #expect(k.shownIDs == ["broken", "z"])
        let fleet = try #require(k.service.fleet)
        // A SIGHUP of a changed local section starts a preparation, with the pushed menu over
        // the file: it would put the refused menu up again.
        writeFile(k.configPath, "items: [{id: a}, {id: b}]\ninput:\n  seat: seat1\n")
        (k.service.scenes as! GatedScenes).armed = true
        try k.reload(at: 102)
        #expect(k.service.reloads.isBusy)
        // The flip: the pushed menu's first frame fails, refused, the file built again in this turn.
        try k.flip(at: 103)
        #expect(fleet.lastStatus == .refused)
        #expect(fleet.reason == "its first frame failed: the painter cannot paint this menu", "\(fleet.reason ?? "nil")")
        #expect(k.shownIDs == ["a", "b"])
        #expect(k.service.config.input.seat == "seat1")
        // The preparation in flight ends: dropped, the file read again; the local menu stays.
        k.gate.signal()
        try k.landPreparations()
        try k.flip(at: 104)
        try k.landPreparations()
        #expect(k.shownIDs == ["a", "b"])
        #expect(k.service.config.items.map(\.id) == ["a", "b"])
        #expect(fleet.pending == nil && fleet.active == nil)
    }
}

/// access(2) without Foundation.
enum FileManagerLess {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
