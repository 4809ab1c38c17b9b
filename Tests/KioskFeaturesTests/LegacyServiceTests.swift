import Glibc
import DialCore
import Testing
import KioskLoop
@testable import KioskReporting
@testable import KioskConfiguration
@testable import KioskFeatures
import KioskTestSupport

/// The service (the router over its features and the unsplit remainder) with a real notify
/// socket, a real control socket and a pipe for stdout.
@Suite struct LegacyServiceTests {
    final class Fixture {
        let dir = TemporaryDirectory()
        let notify: DatagramReceiver
        var pipeFDs: [Int32] = [-1, -1]
        var logs: [String] = []
        var router: FeatureRouter!
        var service: LegacyService { router.legacy }

        init(config: KioskConfig = .demo, configText: String? = nil, watchdogUSec: String? = "4000000",
             scenes: SceneBuilding = KeepingScene()) throws {
            notify = DatagramReceiver(path: dir.path + "/notify")
            _ = pipe(&pipeFDs)
            _ = fcntl(pipeFDs[0], F_SETFL, O_NONBLOCK)
            var env = ["NOTIFY_SOCKET": dir.path + "/notify", "PATH": "/usr/bin:/bin"]
            if let watchdogUSec { env["WATCHDOG_USEC"] = watchdogUSec }
            var path: String?
            if let configText {
                path = dir.path + "/config.yaml"
                writeFile(path!, configText)
            }
            let logger = JournalLogger(format: LogFormat(journalPrefixes: true)) { [unowned self] in self.logs.append($0) }
            router = FeatureRouter(legacy: try LegacyService(config: path.map { try ConfigLoader.load(path: $0) } ?? config, configPath: path,
                                                             controlPath: dir.path + "/control.sock", environment: env, logger: logger,
                                                             eventsFD: pipeFDs[1], now: 0, scenes: scenes),
                                   environment: env)
        }

        deinit {
            router.stop(reason: "test", now: .nan)
            close(pipeFDs[0])
            close(pipeFDs[1])
            dir.remove()
        }

        func stdout() -> String { drainText(pipeFDs[0]) }

        func notifications() -> [String] { notify.drainMessages() }

        /// The dial's events through the bus, as the loop hands them over.
        func report(_ events: [DialEvent], frames: Int, at time: Double) throws {
            _ = try router.handle(.dialEvents(events, frames: frames), at: time, dial: Self.snapshot)
        }

        static let snapshot: DialSnapshot = {
            let g = DialGeometry.fitting(width: 64, height: 48, count: 4)
            return DialSnapshot(pose: PoseBuilder(layout: DialLayout(count: 4), geometry: g).pose(rotation: 0, visibility: .shown, time: 0),
                                selectedPath: nil, ring: nil)
        }()
    }

    @Test func startReportsReadyAndStartedEverywhere() throws {
        let f = try Fixture()
        let client = connectStream(f.dir.path + "/control.sock")
        defer { close(client) }
        _ = f.service.handleControl(f.service.pollDescriptors.map { pollfd(fd: $0.fd, events: $0.events, revents: $0.events) }, now: 0)
        _ = try f.router.handle(.firstFrameShown, at: 1.5, dial: Fixture.snapshot)
        #expect(f.notifications() == ["READY=1\nSTATUS=Showing 10 items"])
        #expect(f.stdout() == "{\"t\": 1.5, \"event\": \"started\", \"items\": 10}\n")
        #expect(readAvailable(client) == "{\"t\": 1.5, \"event\": \"started\", \"items\": 10}\n")
    }

    @Test func watchdogPingsAtHalfTheInterval() throws {
        let f = try Fixture()
        _ = f.router.tick(now: 10)
        #expect(f.notifications() == ["WATCHDOG=1"])
        #expect(f.router.nextWakeup(now: 10) == 12)
        _ = f.router.tick(now: 11.9)
        #expect(f.notifications().isEmpty)
        _ = f.router.tick(now: 12)
        #expect(f.notifications() == ["WATCHDOG=1"])
    }

    @Test func activationRunsTheItemsCommand() throws {
        let markerDir = TemporaryDirectory()
        defer { markerDir.remove() }
        let marker = markerDir.path + "/ran"
        let items = [MenuItem(id: "a", label: "A", color: RGBColor(hex: 0), command: ["touch", marker])]
        let g = try Fixture(config: KioskConfig(items: items), watchdogUSec: nil)
        try g.report([.selected(index: 0, path: ["a"], time: 2), .activated(index: 0, path: ["a"], time: 3)], frames: 5, at: 3)
        #expect(g.stdout() == "{\"t\": 2.0, \"event\": \"selected\", \"index\": 0, \"id\": \"a\", \"label\": \"A\", \"path\": [\"a\"]}\n"
                + "{\"t\": 3.0, \"event\": \"activated\", \"index\": 0, \"id\": \"a\", \"label\": \"A\", \"path\": [\"a\"]}\n")
        let started = g.logs.first { $0.hasPrefix("<6>item 'a': started touch (pid ") }
        let pid = try #require(started.flatMap { Int32($0.split(separator: " ").last!.dropLast(2)) })
        var info = siginfo_t()
        waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
        // No wake-up every second while it runs, only its timeout (30 s
        // by default); its exit arrives as SIGCHLD.
        #expect(g.router.nextWakeup(now: 3) == 33)
        _ = g.router.tick(now: 3.5)
        #expect(access(marker, F_OK) == 0)
        #expect(g.router.nextWakeup(now: 3.5) == nil)
    }

    @Test func reloadAppliesAValidFileAndKeepsTheMenuOnABrokenOne() throws {
        let f = try Fixture(configText: "items: [{id: a, label: Old}]\n")
        _ = f.notifications()
        writeFile(f.dir.path + "/config.yaml", "items: [{id: a, label: New}]\n")
        #expect(f.service.requestReload(at: 5).isEmpty == false, "a repaint at least")
        #expect(f.service.config.items.map(\.label) == ["New"])
        #expect(f.notifications() == ["RELOADING=1\nMONOTONIC_USEC=5000000", "STATUS=Showing 1 items", "READY=1"])
        #expect(f.stdout() == "{\"t\": 5.0, \"event\": \"reloaded\", \"items\": 1}\n")

        writeFile(f.dir.path + "/config.yaml", "items:\n  - id: a\n    label: [x]\n")
        #expect(f.service.requestReload(at: 6).isEmpty)
        #expect(f.service.config.items.map(\.label) == ["New"])
        let path = f.dir.path + "/config.yaml"
        #expect(f.logs.last == "<3>reload: \(path):3: items[0].label: expected a text value, got a list; keeping the running configuration\n")
        #expect(f.stdout() == "")
    }

    /// A file that parses but cannot be built (a missing font or icon)
    /// changes nothing, and the same file is tried again on the next reload.
    @Test func reloadWhoseBuildFailsChangesNothingAndIsTriedAgain() throws {
        struct MissingIcon: Error, CustomStringConvertible {
            var description: String { "/home/x/icon.png: No such file or directory" }
        }
        /// Scenes whose build fails while `failing`.
        final class Scenes: SceneBuilding {
            var failing = true, builds = 0
            func adjusted(_ config: KioskConfig) -> KioskConfig { config }
            func scene(for config: KioskConfig, resting: SceneResting) throws -> Scene? { nil }
            var preparesOffTheLoop: Bool { false }
            func preparation() -> ((KioskConfig, String?) throws -> PreparedScene)? {
                { [self] config, _ in
                    builds += 1
                    if failing { throw MissingIcon() }
                    return PreparedScene(language: nil) { _ in Scene(dial: Dial(items: config.items, geometry: .fitting(width: 64, height: 48, count: config.items.count))) { _, _ in nil } }
                }
            }
        }
        let scenes = Scenes()
        let f = try Fixture(configText: "items: [{id: a, label: Old}]\n", scenes: scenes)
        _ = f.notifications()
        let path = f.dir.path + "/config.yaml"
        writeFile(path, "items: [{id: b, label: New}]\n")
        for now in [5.0, 6.0] {
            #expect(f.service.requestReload(at: now).isEmpty, "nothing for the loop to do")
        }
        #expect(scenes.builds == 2, "the same file is tried again, not 'no change'")
        #expect(f.service.config.items.map(\.id) == ["a"])
        #expect(f.stdout() == "", "no reloaded line")
        #expect(f.logs.last == "<3>reload: \(path): /home/x/icon.png: No such file or directory; keeping the running configuration\n")
        #expect(f.notifications().contains("STATUS=Reload failed: \(path): /home/x/icon.png: No such file or directory"))
        scenes.failing = false
        guard case .replaceScene(let make, _)? = f.service.requestReload(at: 7).first else {
            Issue.record("no new scene")
            return
        }
        #expect(try make(nil).dial.selectedIndex != nil)
        #expect(f.service.config.items.map(\.id) == ["b"])
    }

    @Test func commandTimeoutIsABehaviourKey() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/config.yaml"
        #expect(try ConfigLoader.load(path: nil).behaviour.commandTimeout == 30)
        writeFile(path, "behaviour:\n  command_timeout_seconds: 5\n")
        #expect(try ConfigLoader.load(path: path).behaviour.commandTimeout == 5)
        writeFile(path, "behaviour:\n  command_timeout_seconds: 0\n")
        #expect(throws: ConfigError.self) { _ = try ConfigLoader.load(path: path) }
    }

    /// An item's own `timeout_seconds` wins over the behaviour default, for that item only.
    @Test func anItemsTimeoutOverridesTheDefault() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/config.yaml"
        writeFile(path, "items:\n  - {id: a, command: [sleep, '60'], timeout_seconds: 7}\n  - {id: b, command: [sleep, '60']}\n"
                  + "behaviour:\n  command_timeout_seconds: 20\n")
        let config = try ConfigLoader.load(path: path)
        #expect(config.items.map(\.commandTimeout) == [7, nil])
        let g = try Fixture(config: config, watchdogUSec: nil)
        defer { g.router.stop(reason: "test", now: 4) }
        try g.report([.activated(index: 0, path: ["a"], time: 3)], frames: 1, at: 3)
        #expect(g.router.nextWakeup(now: 3) == 10)
        writeFile(path, "items:\n  - {id: a, command: [sleep, '1'], timeout_seconds: 0}\n")
        #expect(throws: ConfigError.self) { _ = try ConfigLoader.load(path: path) }
    }

    @Test func stopSendsStoppingAndClosesTheSocket() throws {
        let f = try Fixture()
        f.router.stop(reason: "SIGTERM", now: 9)
        f.router.stop(reason: "SIGTERM", now: 9)
        #expect(f.notifications() == ["STOPPING=1"])
        #expect(f.stdout() == "{\"t\": 9.0, \"event\": \"stopping\", \"reason\": \"SIGTERM\"}\n")
        #expect(access(f.dir.path + "/control.sock", F_OK) != 0)
        #expect(f.service.pollDescriptors.isEmpty)
    }
}
