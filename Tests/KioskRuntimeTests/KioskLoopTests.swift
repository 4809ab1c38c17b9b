import Foundation
import Glibc
import DialCore
import LinuxSystem
import Testing
@testable import KioskSeams
@testable import KioskRuntime
import KMSOutput
import DialRender
import Dispatch
import Synchronization
@testable import KioskReporting
@testable import KioskConfiguration
@testable import KioskLoop
@testable import KioskFeatures
import KioskTestSupport
import FleetConfig

/// The run loop as `run` wires it (real Dial from DialSetup, real LegacyService with notify and
/// control sockets in a temporary directory, stdout a pipe), with a fake clock and display.
private final class KioskLoop {
    static let size = (width: 160, height: 120)
    let dir = TemporaryDirectory()
    let notify: DatagramReceiver
    let display = PipeDisplay(width: KioskLoop.size.width, height: KioskLoop.size.height, fill: 0x123456)
    let input = PipeInput()
    let time = FakeClock(now: 100)
    let logBox = LogBox()
    var pipeFDs: [Int32] = [-1, -1]
    let signals = PipeSignals()
    let router: FeatureRouter
    var service: LegacyService { router.legacy }
    let loop: FrameLoop
    var configPath: String { dir.path + "/config.yaml" }
    var controlPath: String { dir.path + "/control.sock" }

    /// `power` and `resize` are the loop's (built with this rig's log and service).
    init(config text: String, watchdogUSec: String? = nil, rebuild: ((KioskConfig, Int?) throws -> Scene)? = nil,
         scenes: SceneBuilding? = nil, power: ((LogBox) -> ScreenPower)? = nil,
         resize: ((LegacyService, Int, Int, MenuPath?) throws -> Scene)? = nil) throws {
        notify = DatagramReceiver(path: dir.path + "/notify")
        _ = pipe(&pipeFDs)
        _ = fcntl(pipeFDs[0], F_SETFL, O_NONBLOCK)
        var env = ["NOTIFY_SOCKET": dir.path + "/notify", "PATH": "/usr/bin:/bin"]
        if let watchdogUSec { env["WATCHDOG_USEC"] = watchdogUSec }
        writeFile(dir.path + "/config.yaml", text)
        let path = dir.path + "/config.yaml"
        let logger = JournalLogger(format: LogFormat(journalPrefixes: true)) { [logBox] in logBox.lines.append($0) }
        let config = try ConfigLoader.load(path: path)
        let size = KioskLoop.size
        let makeScene = { (config: KioskConfig, index: Int?) throws -> Scene in
            try SceneRecipe.scene(config: config, restingOn: index, width: size.width, height: size.height,
                                 rotation: .none, painter: .flat)
        }
        let scene = try makeScene(config, nil)
        let service = try LegacyService(config: config, configPath: path, controlPath: dir.path + "/control.sock",
                                       environment: env, logger: logger, eventsFD: pipeFDs[1], now: time.now,
                                       scenes: scenes ?? ClosureScenes(build: rebuild ?? makeScene))
        let router = FeatureRouter(legacy: service, environment: env)
        self.router = router
        let painted = ScreenPower.painted { [logBox] in logBox.lines.append($0) }
        loop = FrameLoop(output: LoopOutput(presenter: display, power: power?(logBox) ?? painted,
                                            resize: resize.map { resize in { [service] in try resize(service, $0, $1, $2) } }
                                                ?? LoopOutput.fixedMode),
                         sources: FrameLoop.sources(signals: signals, displays: [display], inputs: [input], service: router.pollSources),
                         scene: scene, now: { [time] in time.now }, service: router,
                         log: { [logBox] in logBox.lines.append($0) })
    }

    deinit {
        router.stop(reason: "test", now: .nan)
        for fd in pipeFDs { close(fd) }
        dir.remove()
    }

    var logLines: [String] { logBox.lines }

    /// The rest of a drag whose down woke the screen: a move across the ring and the lift.
    func finishTheWakingDrag() throws {
        input.send([.touch(TouchEvent(phase: .motion, x: 80, y: 10, time: clock + 0.05)),
                    .touch(TouchEvent(phase: .up, x: 150, y: 60, time: clock + 0.1))])
        try step()
        try flipUntilIdle()
    }
    var clock: Double {
        get { time.now }
        set { time.now = newValue }
    }

    func signal(_ s: LoopSignal) { signals.send([s]) }

    func step() throws { _ = try loop.step(timeoutMS: 0) }

    /// Starts the loop, lets it come to rest, and connects a control client (accepted).
    func startWithControlClient() throws -> Int32 {
        try loop.start(at: clock)
        try flipUntilIdle()
        let client = connectStream(controlPath)
        try step() // accept
        return client
    }

    /// Flip events at 60 Hz until the loop has nothing queued (bounded).
    func flipUntilIdle() throws {
        var frames = 0
        while loop.awaitsFlip && frames < 1000 {
            clock += 1.0 / 60
            display.report(.frameShown(time: clock))
            try step()
            frames += 1
        }
    }

    func stdout() -> String { drainText(pipeFDs[0]) }

    func notifications() -> [String] { notify.drainMessages() }

    var dial: Dial { (loop.dial as! MenuDial).dial }
    var menuDial: MenuDial { loop.dial as! MenuDial }
}

private final class LogBox {
    var lines: [String] = []
}

private let itemsOnly = """
    items:
      - id: a
        label: Apple
      - id: b
        label: Banana
      - id: c
        label: Cherry

    """
private let threeItems = itemsOnly + "behaviour:\n  default_item: b\n"

@Suite(.serialized) struct KioskLoopTests {
    @Test func readyGoesOutOnlyAfterTheFirstFrameIsShown() throws {
        let k = try KioskLoop(config: threeItems)
        try k.loop.start(at: k.clock)
        try k.step()
        #expect(k.display.presents == 1)
        #expect(k.notifications().isEmpty, "queued is not shown: no READY yet")
        #expect(!k.stdout().contains("started"))
        k.clock += 0.016
        k.display.report(.frameShown(time: k.clock))
        try k.step()
        #expect(k.notifications() == ["READY=1\nSTATUS=Showing 3 items"])
        #expect(k.stdout().contains("\"event\": \"started\", \"items\": 3"))
        try k.flipUntilIdle()
        #expect(k.notifications().isEmpty, "READY once")
    }

    @Test func whileIdleTheWatchdogIsPingedWithoutQueuingFrames() throws {
        // WatchdogSec=4s: pings every 2 s.
        let k = try KioskLoop(config: threeItems, watchdogUSec: "4000000")
        try k.loop.start(at: k.clock)
        k.display.report(.frameShown(time: k.clock + 0.016))
        try k.step()
        try k.flipUntilIdle()
        #expect(k.loop.schedule.state == .idle)
        let presents = k.display.presents
        #expect(k.notifications().filter { $0 == "WATCHDOG=1" }.count == 1)
        let pinged = k.clock
        #expect(k.loop.pollTimeout(now: pinged) == 2000, "poll sleeps until the next ping, no sooner")
        k.clock = pinged + 1.5
        try k.step()
        #expect(k.notifications().isEmpty)
        #expect(k.loop.pollTimeout(now: k.clock) == 500)
        k.clock = pinged + 2.0
        try k.step()
        #expect(k.notifications() == ["WATCHDOG=1"])
        k.clock = pinged + 4.0
        try k.step()
        #expect(k.notifications() == ["WATCHDOG=1"])
        #expect(k.display.presents == presents, "pings queue no frames")
        #expect(k.loop.schedule.state == .idle)
    }

    @Test func withoutWatchdogOrTimersIdlePollWaitsForever() throws {
        let k = try KioskLoop(config: threeItems)
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()
        #expect(k.loop.pollTimeout(now: k.clock) == -1)
    }

    @Test func reloadOfAValidFileRebuildsTheDialOnTheSameItemAndRepaints() throws {
        let k = try KioskLoop(config: threeItems)
        try k.loop.start(at: k.clock)
        k.display.report(.frameShown(time: k.clock + 0.016))
        try k.step()
        try k.flipUntilIdle()
        #expect(k.dial.selectedIndex == 1)
        _ = k.stdout()
        let presents = k.display.presents
        // b moves to the end and is renamed; the default stays a.
        writeFile(k.configPath, """
            items:
              - id: a
                label: Apple
              - id: c
                label: Cherry
              - id: b
                label: Blueberry
            behaviour:
              default_item: a

            """)
        k.signal(.hangUp)
        try k.step()
        #expect(k.dial.items.map(\.label) == ["Apple", "Cherry", "Blueberry"])
        #expect(k.dial.selectedIndex == 2, "still on b, at its new place")
        #expect(k.display.presents == presents + 1, "one repaint, no restart")
        #expect(k.stdout().contains("\"event\": \"reloaded\", \"items\": 3"))
        #expect(k.notifications().contains("READY=1"))
    }

    /// A reload that changed `input:` was applied silently although the seat
    /// is opened once; now it says at warning level that it takes effect at the next start.
    @Test func reloadOfChangedInputSettingsWarnsThatTheyNeedARestart() throws {
        let k = try KioskLoop(config: threeItems)
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()
        writeFile(k.configPath, threeItems + "input:\n  seat: seat1\n  calibration: \"0 -1 1 1 0 0\"\n")
        k.signal(.hangUp)
        try k.step()
        #expect(k.logLines.contains("<4>reload: input settings (seat, calibration, wheel_click) take effect at the next start\n"), "\(k.logLines)")
        // A reload that leaves them alone says nothing about them.
        writeFile(k.configPath, itemsOnly + "behaviour:\n  default_item: c\n"
                  + "input:\n  seat: seat1\n  calibration: \"0 -1 1 1 0 0\"\n")
        k.signal(.hangUp)
        try k.step()
        #expect(k.logLines.filter { $0.contains("input settings") }.count == 1, "\(k.logLines)")
    }

    @Test func reloadOfABrokenFileKeepsTheRunningMenuAndLogsTheLine() throws {
        let k = try KioskLoop(config: threeItems)
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()
        let before = k.dial
        let presents = k.display.presents
        writeFile(k.configPath, "items:\n  - id: a\n    color: blu\n")
        k.signal(.hangUp)
        try k.step()
        #expect(k.dial === before)
        #expect(k.display.presents == presents)
        let line = k.logLines.last ?? ""
        #expect(line.hasPrefix("<3>reload: \(k.configPath):3: items[0].color:"), "\(line)")
        #expect(!k.stdout().contains("reloaded"))
    }

    /// A reload whose rebuild fails (a missing font or icon) must leave one
    /// menu running, the old one: picture, items, `select`, event ids and the hub tap's command.
    @Test func reloadWhoseRebuildFailsKeepsTheWholeOldMenu() throws {
        func menu(_ ids: [String]) -> String {
            "items:\n" + ids.map { "  - id: \($0)\n    command: [\"true\", \"\($0)\"]\n" }.joined()
        }
        struct FontMissing: Error {}
        var rebuildWorks = false
        let k = try KioskLoop(config: menu(["a", "b", "c"])) { config, index in
            guard rebuildWorks else { throw FontMissing() }
            return try SceneRecipe.scene(config: config, restingOn: index, width: KioskLoop.size.width,
                                        height: KioskLoop.size.height, rotation: .none, painter: .flat)
        }
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()
        let dial = k.dial
        let presents = k.display.presents
        _ = k.stdout()
        writeFile(k.configPath, menu(["x", "y", "z"]))
        k.signal(.hangUp)
        try k.step()
        #expect(k.dial === dial)
        #expect(k.display.presents == presents)
        #expect(k.service.config.items.map(\.id) == ["a", "b", "c"])
        #expect(!k.stdout().contains("reloaded"))
        #expect(k.logLines.last?.hasPrefix("<3>reload: \(k.configPath): ") == true, "\(k.logLines.last ?? "")")

        let client = connectStream(k.controlPath)
        defer { close(client) }
        try k.step() // accept
        writeAll(client, "select y\n")
        try k.step()
        #expect(readAvailable(client).contains("no item with id 'y'"))
        writeAll(client, "select c\n")
        try k.step()
        try k.flipUntilIdle()
        #expect(k.dial.selectedIndex == 2)
        // A hub tap activates the item at the top, and runs that item's command.
        k.input.send([.touch(TouchEvent(phase: .down, x: 80, y: 60, time: k.clock)),
                      .touch(TouchEvent(phase: .up, x: 80, y: 60, time: k.clock + 0.05))])
        try k.step()
        try k.flipUntilIdle()
        let out = k.stdout()
        #expect(out.contains("\"event\": \"activated\", \"index\": 2, \"id\": \"c\""), "\(out)")
        #expect(k.logLines.contains { $0.hasPrefix("<6>item 'c': started true (pid ") })

        // The same file again is tried again (not "no change"), and applies once it can be built.
        let failures = k.logLines.filter { $0.hasPrefix("<3>reload: ") }.count
        let parsed = k.service.reloads.parsed
        k.signal(.hangUp)
        try k.step()
        #expect(k.service.reloads.parsed == parsed + 1)
        // The same reason again within 10 s is held back (a flood of reloads of one broken file).
        #expect(k.logLines.filter { $0.hasPrefix("<3>reload: ") }.count == failures)
        #expect(!k.logLines.contains { $0.contains("no change") })
        rebuildWorks = true
        k.signal(.hangUp)
        try k.step()
        #expect(k.dial.items.map(\.id) == ["x", "y", "z"])
        #expect(k.service.config.items.map(\.id) == ["x", "y", "z"])
        #expect(k.stdout().contains("\"event\": \"reloaded\", \"items\": 3"))
    }

    @Test func controlCommandsSelectActivateHideAndReportErrors() throws {
        let k = try KioskLoop(config: threeItems)
        let client = try k.startWithControlClient()
        defer { close(client) }
        writeAll(client, "select c\n")
        try k.step()
        #expect(k.loop.awaitsFlip, "the turn starts at once")
        try k.flipUntilIdle()
        #expect(k.dial.selectedIndex == 2)
        let events = readAvailable(client)
        #expect(events.contains("\"event\": \"selected\", \"index\": 2, \"id\": \"c\""), "\(events)")
        #expect(k.stdout().contains("\"event\": \"selected\", \"index\": 2, \"id\": \"c\""))

        writeAll(client, "select nope\n")
        try k.step()
        #expect(readAvailable(client).contains("no item with id 'nope'"))

        writeAll(client, "activate\n")
        try k.step()
        #expect(k.stdout().contains("\"event\": \"activated\", \"index\": 2, \"id\": \"c\""))

        writeAll(client, "hide\n")
        try k.step()
        #expect(k.dial.visibility != .shown)
        try k.flipUntilIdle()
        writeAll(client, "show\n")
        try k.step()
        try k.flipUntilIdle()
        #expect(k.dial.visibility == .shown)
    }

    /// `select <path>` opens rings on the way, an unknown path is answered and
    /// changes nothing, `back` and Escape close the ring, the activated item's command is found
    /// by its path (the top ring has an item of the same id, without a command), and
    /// `return_after_seconds` goes back to the top ring.
    @Test func nestedMenuThroughTheSocketKeysAndTheIdleReturn() throws {
        let k = try KioskLoop(config: """
            items:
              - id: drinks
                items:
                  - id: coffee
                  - id: tea
                    command: [/bin/true]
              - id: tea
            behaviour:
              return_after_seconds: 30

            """)
        let client = try k.startWithControlClient()
        defer { close(client) }
        func send(_ line: String) throws {
            writeAll(client, line + "\n")
            try k.step()
            try k.flipUntilIdle()
        }
        _ = k.stdout()
        try send("select drinks/tea")
        #expect(k.menuDial.ring == ["drinks"])
        #expect(k.menuDial.selectedPath == ["drinks", "tea"])
        let opened = k.stdout()
        #expect(opened.contains("\"event\": \"opened\", \"id\": \"drinks\""), "\(opened)")
        #expect(opened.contains("\"path\": [\"drinks\", \"tea\"]"), "\(opened)")

        try send("select drinks/milk")
        #expect(readAvailable(client).contains("no item with path 'drinks/milk'"))
        try send("select milk")
        #expect(readAvailable(client).contains("no item with id 'milk'"))
        #expect(k.menuDial.selectedPath == ["drinks", "tea"], "an unknown path changes nothing")

        try send("activate")
        #expect(k.logLines.contains { $0.contains("item 'drinks/tea': started /bin/true") }, "\(k.logLines)")

        try send("back")
        #expect(k.menuDial.ring == .top)
        #expect(k.stdout().contains("\"event\": \"closed\", \"id\": \"drinks\""))

        try send("select drinks/coffee")
        k.input.send([.command(.back, time: k.clock)])  // Escape, as KeyMap maps it
        try k.step()
        try k.flipUntilIdle()
        #expect(k.menuDial.ring == .top)

        try send("select drinks/coffee")
        #expect(k.menuDial.ring == ["drinks"])
        k.clock += 31
        try k.step()
        try k.flipUntilIdle()
        #expect(k.menuDial.ring == .top, "return_after_seconds closes the ring")
        #expect(k.menuDial.selectedPath == ["drinks"])
    }

    /// A reload while a ring below the top is open rests on the top item that opened it (the
    /// index of the item on screen counts in its own ring, not in the top one).
    @Test func aReloadInsideARingKeepsTheTopItemOnTheWay() throws {
        let menu = "items:\n  - id: a\n  - id: b\n    items: [{id: x}, {id: y}]\n  - id: c\n"
        let k = try KioskLoop(config: menu)
        let client = try k.startWithControlClient()
        defer { close(client) }
        writeAll(client, "select b/x\n")
        try k.step()
        try k.flipUntilIdle()
        #expect(k.menuDial.selectedPath == ["b", "x"])
        writeFile(k.configPath, menu + "theme:\n  ring: \"#000000\"\n")
        writeAll(client, "reload\n")
        try k.step()
        try k.flipUntilIdle()
        #expect(k.menuDial.selectedPath == ["b"], "on the top ring, on the item that opened b")
    }

    /// A client's flood of reloads ran in one turn (frames, input and the
    /// watchdog waited 10 s). Now each turn runs at most one reload, frames go on between
    /// them, and poll does not sleep while lines wait.
    @Test func aFloodOfReloadsRunsOnePerTurnWhileFramesGoOn() throws {
        let k = try KioskLoop(config: threeItems)
        let client = try k.startWithControlClient()
        defer { close(client) }
        writeAll(client, "select c\n" + String(repeating: "reload\n", count: 40))
        var reloadsPerTurn: [Int] = []
        var flipsHandled = 0
        while reloadsPerTurn.count < 100 {
            // Counted by the service, not by log lines: those are rate-limited.
            let before = k.service.reloads.requests
            if k.loop.awaitsFlip {
                k.clock += 1.0 / 60
                k.display.report(.frameShown(time: k.clock))
                flipsHandled += 1
            }
            try k.step()
            reloadsPerTurn.append(k.service.reloads.requests - before)
            if k.loop.pollTimeout(now: k.clock) != 0 && k.loop.schedule.state == .idle { break }
        }
        #expect(reloadsPerTurn.allSatisfy { $0 <= 1 }, "\(reloadsPerTurn)")
        #expect(reloadsPerTurn.reduce(0, +) == 40 / ControlServer.linesPerTurn + 1)
        #expect(flipsHandled > 1, "the turn that selected c queued a frame, and the ring turned meanwhile")
        #expect(k.dial.selectedIndex == 2)
    }

    /// Lines read in one turn and left for later ones must be worked off while poll finds
    /// nothing new (the ring at rest, the client silent), not wait for another event.
    @Test func aBacklogIsWorkedOffWhilePollFindsNothing() throws {
        let k = try KioskLoop(config: threeItems)
        let client = try k.startWithControlClient()
        defer { close(client) }
        writeAll(client, String(repeating: "show\n", count: 99) + "select c\n")
        var turns = 0
        repeat {
            try k.step()
            turns += 1
        } while k.loop.pollTimeout(now: k.clock) == 0 && turns < 1000
        #expect(turns == 100 / ControlServer.linesPerTurn + 1)
        #expect(k.loop.awaitsFlip, "the last line, select c, turns the ring")
    }

    /// With stdout unread the loop goes on (frames, watchdog); once the
    /// reader drains the pipe, the loop's poll sees it writable and flushes the waiting lines.
    @Test func aStoppedStdoutReaderNeitherStopsTheLoopNorLosesWholeLinesOnceItReads() throws {
        let k = try KioskLoop(config: threeItems, watchdogUSec: "4000000")
        _ = fcntl(k.pipeFDs[1], 1031 /* F_SETPIPE_SZ */, 4096)
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()
        _ = k.notifications()
        for i in 0..<3_000 { k.service.report([.selected(index: i % 3, path: ["x"], time: k.clock)], frames: i) }
        let events = try #require(k.service.outputQueues.first)
        #expect(events.pendingBytes > 0)
        // The loop still turns: a touch queues a frame, the flips come, the watchdog is pinged.
        k.input.send([.touch(TouchEvent(phase: .down, x: 10, y: 60, time: k.clock)),
                      .touch(TouchEvent(phase: .motion, x: 80, y: 10, time: k.clock + 0.05)),
                      .touch(TouchEvent(phase: .up, x: 150, y: 60, time: k.clock + 0.1))])
        try k.step()
        let presents = k.display.presents
        k.clock += 2
        try k.flipUntilIdle()
        #expect(k.display.presents > presents)
        #expect(k.notifications().contains("WATCHDOG=1"))
        var text = ""
        for _ in 0..<1000 where events.pendingBytes > 0 {
            text += k.stdout()
            try k.step()
        }
        text += k.stdout()
        #expect(events.pendingBytes == 0, "flushed by the loop once writable")
        #expect(text.split(separator: "\n").allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
        #expect(k.logLines.contains { $0.hasPrefix("<4>events: dropped ") && $0.hasSuffix(" event lines: standard output was not being read\n") })
    }

    @Test func blankAfterIdleMinutesThenATouchWakesAndIsSwallowed() throws {
        let k = try KioskLoop(config: itemsOnly + "behaviour:\n  idle: blank\n  idle_after_minutes: 1\n")
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()
        let lit = k.display.pixels[0]
        #expect(lit != 0)
        #expect(k.loop.pollTimeout(now: k.clock) > 0)
        k.clock = 100 + 60
        try k.step()
        #expect(k.loop.look == .blackFrame)
        #expect(k.display.pixels.allSatisfy { $0 == 0 }, "a black frame")
        try k.flipUntilIdle()
        let presents = k.display.presents
        // Asleep: nothing more is presented, and poll has no timer left.
        for _ in 0..<3 { try k.step() }
        #expect(k.display.presents == presents)
        #expect(k.loop.pollTimeout(now: k.clock) == -1)
        let rotation = k.dial.rotation
        k.input.send([.touch(TouchEvent(phase: .down, x: 10, y: 60, time: k.clock))])
        try k.step()
        #expect(k.loop.look == .lit)
        #expect(k.display.presents == presents + 1)
        #expect(k.display.pixels[0] == lit, "awake frame as before")
        try k.finishTheWakingDrag()
        #expect(k.dial.rotation == rotation, "the waking touch does not turn the ring")
    }

    @Test func dimmedFramesAreDarkerVersionsOfTheAwakeOnes() throws {
        let k = try KioskLoop(config: "behaviour:\n  idle: dim\n  idle_after_minutes: 1\n")
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()
        let lit = k.display.pixels
        k.clock = 100 + 60
        try k.step()
        #expect(k.loop.look == .dimmedByPaint)
        #expect(k.display.pixels == lit.map { ($0 >> 1) & 0x7F7F7F })
    }
}

/// Figures, not verdicts: `DIALKIOSK_BENCH=1 swift test -c release --filter KioskLoopBenchmarks`
/// prints how long the loop's turns take while a control client floods it. Nothing here passes
/// or fails on time.
@Suite(.serialized, .enabled(if: getenv("DIALKIOSK_BENCH") != nil)) struct KioskLoopBenchmarks {
    @Test func nineThousandReloadLines() throws {
        let k = try KioskLoop(config: threeItems)
        let client = try k.startWithControlClient()
        defer { close(client) }
        writeAll(client, String(repeating: "reload\n", count: 9000))
        var turns: [Double] = []
        let before = k.logLines.count
        // Until nothing is left to take (bounded, so a loop that stopped taking lines ends too).
        repeat {
            let start = monotonicNow()
            try k.step()
            turns.append(monotonicNow() - start)
        } while k.loop.pollTimeout(now: k.clock) == 0 && turns.count < 20_000
        let reloads = k.logLines[before...].filter { $0.contains("reload:") }.count
        print("control bench: 9000 reload lines: first turn \(fixed(turns[0] * 1000, 1)) ms, longest turn "
              + "\(fixed((turns.max() ?? 0) * 1000, 1)) ms, \(turns.count) turns, \(fixed(turns.reduce(0, +) * 1000, 1)) ms in all, "
              + "\(reloads) reload log lines")
    }
}

/// ScreenPower's seams: what was switched, and a refusal on demand.
private final class FakeOutputPower: OutputPowering {
    var calls: [String] = []
    var refuse = false
    func powerOff() throws {
        if refuse { throw DisplayError(.power(crtc: 42, on: false), code: EINVAL) }
        calls.append("off")
    }
    func powerOn() throws { calls.append("on") }
}

private final class FakeBacklight: BacklightDimming {
    var calls: [String] = []
    func dim(fraction: Double) throws { calls.append("dim \(fraction)") }
    func restore() throws { calls.append("restore") }
}

/// Blank as output off, dim as backlight, and a hotplug's new size, through the real loop.
@Suite struct ScreenPowerLoopTests {
    private static let blankConfig = itemsOnly + "behaviour:\n  idle: blank\n  idle_after_minutes: 1\n"
    private static let dimConfig = itemsOnly + "behaviour:\n  idle: dim\n  idle_after_minutes: 1\n"

    @Test func blankSwitchesTheOutputOffAndATouchSwitchesItOnThenPaints() throws {
        let output = FakeOutputPower()
        let k = try KioskLoop(config: Self.blankConfig, power: { logBox in
            ScreenPower(output: output, backlight: nil) { logBox.lines.append($0) }
        })
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()
        let lit = k.display.pixels[0]
        let presents = k.display.presents
        k.clock = 100 + 60
        try k.step()
        #expect(k.loop.look == .outputOff)
        #expect(output.calls == ["off"])
        #expect(k.display.presents == presents, "no black frame: the output is off")
        // Off: no frame is awaited (no flip timeout), nothing presented, poll sleeps.
        k.clock += 10
        for _ in 0..<3 { try k.step() }
        #expect(k.loop.schedule.state == .idle)
        #expect(k.display.presents == presents)
        #expect(k.loop.pollTimeout(now: k.clock) == -1)
        let rotation = k.dial.rotation
        k.input.send([.touch(TouchEvent(phase: .down, x: 10, y: 60, time: k.clock))])
        try k.step()
        #expect(output.calls == ["off", "on"])
        #expect(k.loop.look == .lit)
        #expect(k.display.presents == presents + 1, "switched on, then painted")
        #expect(k.display.pixels[0] == lit)
        try k.finishTheWakingDrag()
        #expect(k.dial.rotation == rotation, "the waking touch does not turn the ring")
    }

    @Test func aRefusedPowerOffPaintsBlackWithAWarning() throws {
        let output = FakeOutputPower()
        output.refuse = true
        let k = try KioskLoop(config: Self.blankConfig, power: { logBox in
            ScreenPower(output: output, backlight: nil) { logBox.lines.append($0) }
        })
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()
        let presents = k.display.presents
        k.clock = 100 + 60
        try k.step()
        #expect(k.display.presents == presents + 1)
        #expect(k.display.pixels.allSatisfy { $0 == 0 }, "the black frame instead")
        #expect(k.logLines.contains("warning: screen: Failed to switch CRTC 42 off: Invalid argument; painting black instead"))
        try k.flipUntilIdle()
        k.input.send([.touch(TouchEvent(phase: .down, x: 10, y: 60, time: k.clock))])
        try k.step()
        #expect(output.calls.isEmpty, "never switched off, so not switched on")
        #expect(k.display.pixels[0] != 0)
    }

    @Test func dimLowersTheBacklightAndPaintsTheDialAsIs() throws {
        let light = FakeBacklight()
        let k = try KioskLoop(config: Self.dimConfig, power: { _ in ScreenPower(output: nil, backlight: light) { _ in } })
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()
        let lit = k.display.pixels
        k.clock = 100 + 60
        try k.step()
        try k.flipUntilIdle()
        #expect(k.loop.look == .dimmedByBacklight)
        #expect(light.calls == ["dim \(ScreenPower.dimFraction)"])
        let undimmed = k.display.pixels == lit
        #expect(undimmed, "the backlight dims, not the pixels")
        k.input.send([.touch(TouchEvent(phase: .down, x: 10, y: 60, time: k.clock))])
        try k.step()
        #expect(light.calls == ["dim \(ScreenPower.dimFraction)", "restore"])
        k.loop.power.restore()
        #expect(light.calls.count == 2, "restore on exit writes nothing when not dimmed")
    }

    @Test func withoutABacklightTheDimFrameIsPaintedAndWhyIsLoggedOnce() throws {
        let k = try KioskLoop(config: Self.dimConfig, power: { logBox in
            ScreenPower(output: nil, backlight: nil, noBacklight: "no backlight belongs to Virtual-1") { logBox.lines.append($0) }
        })
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()
        let lit = k.display.pixels
        for round in 1...2 {
            k.clock += 61
            try k.step()
            try k.flipUntilIdle()
            #expect(k.display.pixels == lit.map { ($0 >> 1) & 0x7F7F7F }, "round \(round)")
            k.input.send([.touch(TouchEvent(phase: .down, x: 10, y: 60, time: k.clock)),
                          .touch(TouchEvent(phase: .up, x: 10, y: 60, time: k.clock))])
            try k.step()
            try k.flipUntilIdle()
        }
        #expect(k.logLines.filter { $0.contains("no backlight belongs to Virtual-1; painting the dim frame instead") }.count == 1)
    }

    private func resizing(_ config: String) throws -> (KioskLoop, () -> [(Int, Int, MenuPath?)]) {
        var asked: [(Int, Int, MenuPath?)] = []
        let k = try KioskLoop(config: config, resize: { service, width, height, path in
            asked.append((width, height, path))
            return try SceneRecipe.scene(config: service.config, resting: .path(path), width: width, height: height,
                                        rotation: .none, painter: .flat)
        })
        return (k, { asked })
    }

    private func newMode(_ k: KioskLoop) throws {
        k.display.report(.suspended)
        k.display.report(.resized(width: 320, height: 240))
        k.display.report(.resumed)
        try k.step()
    }

    @Test func aNewModeRebuildsTheSceneOnTheSelectedItem() throws {
        let (k, asked) = try resizing(itemsOnly)
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()
        _ = k.dial.select(index: 2, at: k.clock)
        try k.loop.frameIfDue(at: k.clock)
        try k.flipUntilIdle()
        let before = k.dial
        let presents = k.display.presents
        let path = k.menuDial.selectedPath
        try newMode(k)
        #expect(asked().count == 1 && asked()[0].0 == 320 && asked()[0].1 == 240 && asked()[0].2 == path)
        #expect(k.dial !== before)
        #expect(k.dial.selectedIndex == 2)
        #expect(k.dial.geometry.center.x == 160, "laid out for 320 x 240")
        #expect(k.display.presents == presents + 1)
    }

    /// Inside a ring, the ring's slot index was read as a top-ring index, so
    /// `drinks/water` (slot 2 of drinks) came back on the third top item after a new mode.
    @Test func aNewModeInsideARingKeepsThePath() throws {
        let nested = readFile(repositoryRoot + "/tests/vm/cases/files/menu-nested.yaml")!
        let (k, _) = try resizing(nested)
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()
        _ = k.menuDial.select(path: ["drinks", "water"], at: k.clock)
        try k.loop.frameIfDue(at: k.clock)
        try k.flipUntilIdle()
        #expect(k.menuDial.selectedPath == ["drinks", "water"])
        try newMode(k)
        try k.flipUntilIdle()
        #expect(k.menuDial.selectedPath == ["drinks", "water"])
        #expect(k.menuDial.ring == ["drinks"])
    }
}

/// A reload's icons are decoded on a worker while the loop keeps serving the
/// old menu (input, commands, frames, the watchdog ping); the turn that sees the worker done
/// swaps the new menu in. It was decoded in the reload's own turn: 20 s for 512 items, and
/// systemd's watchdog (10 s) killed the kiosk.
@Suite struct KioskReloadWorkerTests {
    /// A decoder held until the test opens it (bounded at 10 s, so a decode on the loop's turn
    /// shows as failed expectations, not as a hang).
    private final class Gate: Sendable {
        let entered = DispatchSemaphore(value: 0)
        let opened = DispatchSemaphore(value: 0)
        let decodes = Mutex(0)
        /// The nice value of the thread that decoded last.
        let nice = Mutex<Int32>(0)
        func decode(_ path: String) throws -> RGBAImage {
            decodes.withLock { $0 += 1 }
            nice.withLock { $0 = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
            entered.signal()
            _ = opened.wait(timeout: .now() + 10)
            return try PNGReader.readRGBA(path)
        }
    }

    /// The kiosk rig with `run`'s scenes, prepared off the loop, whose icon decodes go through
    /// `gate`, and an 8x8 icon file in its directory.
    private func rig(_ gate: Gate) throws -> (KioskLoop, icon: String) {
        let icons = IconCache { try gate.decode($0) }
        let size = KioskLoop.size
        let scenes = RunScenes(items: nil, painter: .dial, rotation: .none, panelSize: { (size.width, size.height) }, icons: icons)
        let k = try KioskLoop(config: threeItems, watchdogUSec: "2000000", scenes: scenes)
        let icon = k.dir.path + "/cup.png"
        var picture = PixelBuffer(width: 8, height: 8)
        let count = picture.rowPitch * 8
        picture.withUnsafeMutablePixels { p in for i in 0..<count { p[i] = 0xFF8000 } }
        try PNGWriter.write(picture, to: icon)
        return (k, icon)
    }

    @Test func aReloadDecodesOffTheLoopWhileTheOldMenuKeepsRunning() throws {
        let gate = Gate()
        let (k, icon) = try rig(gate)
        let client = try k.startWithControlClient()
        defer { close(client) }
        _ = k.stdout()
        _ = k.notifications()

        // Three items naming one icon, relabelled.
        writeFile(k.configPath, "items:\n" + ["a", "b", "c"].map { "  - id: \($0)\n    label: New \($0)\n    icon: \(icon)\n" }.joined())
        k.signal(.hangUp)
        try k.step()
        #expect(gate.entered.wait(timeout: .now() + 10) == .success, "the worker started decoding")
        #expect(k.dial.items.map(\.label) == ["Apple", "Banana", "Cherry"], "the old menu runs while the icons decode")
        #expect(k.notifications().contains { $0.hasPrefix("RELOADING=1") })

        // The loop goes on: a command is served, frames flow, the watchdog is pinged.
        writeAll(client, "select c\n")
        try k.step()
        try k.flipUntilIdle()
        #expect(k.dial.selectedIndex == 2)
        k.clock += 3
        try k.step()
        #expect(k.notifications().contains("WATCHDOG=1"))
        #expect(!k.stdout().contains("reloaded"))

        // The decode ends; the next turn swaps the new menu in, still on c.
        gate.opened.signal()
        var done = k.service.reloads.pollDescriptors
        #expect(done.count == 1)
        _ = poll(&done, nfds_t(done.count), 10_000)
        try k.step()
        #expect(k.dial.items.map(\.label) == ["New a", "New b", "New c"])
        #expect(k.dial.selectedIndex == 2)
        #expect(k.stdout().contains("\"event\": \"reloaded\""))
        #expect(k.notifications().contains("READY=1"))
        #expect(gate.decodes.withLock { $0 } == 1, "one file, one decode")
        #expect(gate.nice.withLock { $0 } == 10, "the worker runs below the loop")
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == 0, "and the loop where it was")
        #expect(!k.service.reloads.isBusy)
    }

    /// A storm of reloads while one is prepared coalesces: the prepared one lands, then one
    /// more preparation reads the latest file; 50 requests cost two parses and two swaps.
    @Test func aStormDuringAPreparationLandsItAndThenTheLatestFile() throws {
        let gate = Gate()
        let (k, icon) = try rig(gate)
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()
        _ = k.stdout()
        func menu(_ n: Int) -> String { "items:\n  - id: a\n    label: V\(n)\n    icon: \(icon)\n  - id: b\n" }
        writeFile(k.configPath, menu(0))
        k.signal(.hangUp)
        try k.step()
        #expect(gate.entered.wait(timeout: .now() + 10) == .success)
        for n in 1...50 {
            writeFile(k.configPath, menu(n))
            k.signal(.hangUp)
            try k.step()
        }
        #expect(k.dial.items.first?.label == "Apple", "nothing swapped while it was prepared")
        gate.opened.signal()
        for _ in 0..<100 where k.service.reloads.isBusy {
            var fds = k.service.reloads.pollDescriptors
            _ = poll(&fds, nfds_t(fds.count), 10_000)
            try k.step()
        }
        #expect(k.dial.items.first?.label == "V50")
        let printed = k.stdout()
        #expect(printed.split(separator: "\n").filter { $0.contains("\"reloaded\"") }.count == 2, "\(printed)")
        #expect(k.service.reloads.parsed == 2)
    }

    /// Reloads asked for while one is prepared: the prepared one is applied when it is done (a
    /// steady stream of reloads must not starve them all), then the file is read again, so the
    /// latest file wins.
    @Test func aReloadDuringAPreparedOneMakesTheLatestFileWin() throws {
        let gate = Gate()
        let (k, icon) = try rig(gate)
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()

        writeFile(k.configPath, "items:\n  - id: a\n    label: First\n    icon: \(icon)\n")
        k.signal(.hangUp)
        try k.step()
        #expect(gate.entered.wait(timeout: .now() + 10) == .success)
        writeFile(k.configPath, "items:\n  - id: a\n    label: Second\n    icon: \(icon)\n  - id: b\n")
        k.signal(.hangUp)
        try k.step()
        gate.opened.signal()
        var done = k.service.reloads.pollDescriptors
        _ = poll(&done, nfds_t(done.count), 10_000)
        try k.step()
        // The first prepared reload landed; the second reads the latest file (its icon is
        // cached: no second decode, so it is ready at once).
        var printed = k.stdout()
        #expect(printed.contains("\"reloaded\", \"items\": 1"))
        for _ in 0..<100 where k.service.reloads.isBusy {
            var fds = k.service.reloads.pollDescriptors
            _ = poll(&fds, nfds_t(fds.count), 10_000)
            try k.step()
        }
        #expect(k.dial.items.map(\.label) == ["Second", "b"])
        printed += k.stdout()
        #expect(printed.split(separator: "\n").filter { $0.contains("\"reloaded\"") }.count == 2, "both applied, the latest last")
    }

    /// A bundle that comes while a SIGHUP's preparation runs is built by the read after it,
    /// though the file did not change since that preparation read it (settled): it was taken
    /// as built by the preparation that read before it came, and the read after it found the
    /// file unchanged, so the pushed menu never went up while the kiosk reported it pending.
    @Test func aBundleThatComesDuringAReloadIsBuiltByTheReadAfterIt() throws {
        let gate = Gate()
        let (k, icon) = try rig(gate)
        let key = try MinisignSecretKey(seed: [UInt8](repeating: 9, count: 32), keyID: [9, 9, 9, 9, 9, 9, 9, 9])
        let keys = [key.publicKey]
        let store = FleetStore(directory: k.dir.path + "/state")
        let logger = JournalLogger(format: LogFormat(journalPrefixes: false)) { _ in }
        k.service.fleet = FleetBridge(settings: FleetSettings(trustedKeys: [], confirmSeconds: 30), store: store, clientID: "k1",
                                      keys: keys, startup: FleetStartup.choose(store: store, keys: keys, local: k.service.config,
                                                                               allowCommands: false),
                                      logger: logger)
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()

        // The file changes, and is older than the file system's tick when read: settled then.
        writeFile(k.configPath, "items:\n  - id: a\n    label: First\n    icon: \(icon)\n")
        usleep(100_000)
        k.signal(.hangUp)
        try k.step()
        #expect(gate.entered.wait(timeout: .now() + 10) == .success)
        let bundle = try ConfigBundle.signed(Array("items:\n  - {id: x, label: Pushed}\n".utf8), serial: 1, targets: [], key: key)
        try k.loop.carryOut(k.service.takeBundle(bundle.encoded, at: k.clock), at: k.clock)
        #expect(k.service.fleet?.building?.serial == 1)

        gate.opened.signal()
        for _ in 0..<100 where k.service.reloads.isBusy {
            var fds = k.service.reloads.pollDescriptors
            _ = poll(&fds, nfds_t(fds.count), 10_000)
            try k.step()
        }
        try k.flipUntilIdle()
        #expect(k.dial.items.map(\.label) == ["Pushed"], "the pushed menu is up")
        #expect(k.service.fleet?.pending?.bundle.serial == 1)
        #expect(k.service.fleet?.nextDeadline != nil, "its first frame started the confirmation's wait")
    }
}

/// A reload's whole scene (the parsed menu, the painter with its icons, sprites, labels, rings
/// and background) is built off the loop: the loop's own turns of a big menu's reload cost it a
/// small part of what the build costs. Measured in the loop thread's CPU time (the rig steps
/// the loop on this thread; the worker has its own), so a loaded machine does not change it.
/// Before, the worker built the painter but the loop prepared it again (its background and
/// every label the budget had let go): 1.1 s of a 512-item menu at 1080p.
@Suite struct ReloadOffTheLoopTests {
    /// 512 items: eight rings of 63 with long labels, and the eight ring items (the probe's menu).
    static func bigMenu(_ generation: Int) -> String {
        "items:\n" + (0..<8).map { r in
            "  - id: r\(r)\n    label: Ring \(r) \(generation)\n    items:\n"
                + (0..<63).map { "      - {id: i\($0), label: \"Item \(r).\($0) with a long label \(generation)\"}\n" }.joined()
        }.joined()
    }

    private func threadCPU() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    @Test func theLoopSpendsLittleOfABigMenusBuildOnItsReload() throws {
        let size = KioskLoop.size
        let scenes = RunScenes(items: nil, painter: .dial, rotation: .none, panelSize: { (size.width, size.height) })
        let k = try KioskLoop(config: Self.bigMenu(0), scenes: scenes)
        try k.loop.start(at: k.clock)
        try k.flipUntilIdle()

        writeFile(k.configPath, Self.bigMenu(1))
        var loopCPU = 0.0
        func step() throws {
            let start = threadCPU()
            try k.step()
            loopCPU += threadCPU() - start
        }
        k.signal(.hangUp)
        try step()
        var done = k.service.reloads.pollDescriptors
        #expect(done.count == 1, "the reload is prepared on the worker")
        _ = poll(&done, nfds_t(done.count), 60_000)
        // The commit, and the new menu's first frame.
        try step()
        #expect(k.dial.items.first?.label == "Ring 0 1")
        #expect(!k.service.reloads.isBusy)

        // What the loop would spend building that scene itself.
        let config = try ConfigLoader.load(path: k.configPath)
        let start = threadCPU()
        _ = try DialSetup(config: config, width: size.width, height: size.height).makePainter()
        let build = threadCPU() - start
        #expect(loopCPU < build / 4, "the loop spent \(loopCPU * 1000) ms of CPU on the reload; a build takes \(build * 1000) ms")
    }
}

/// Every state a client can see follows from the event lines it got. A client
/// model built only from `opened`, `closed` and `selected` lines must equal the dial's open ring
/// and selected slot after every step of random navigation, reloads (also in the middle of a
/// ring change, also ones that remove the open ring) and a start on a nested default item.
@Suite struct EventStreamPropertyTests {
    /// The client: the open ring and the selected slot, from the lines alone.
    private struct Client {
        var ring: [String] = []
        var selected: [String]?
        mutating func read(_ text: String) {
            for line in text.split(separator: "\n") {
                guard let data = line.data(using: .utf8),
                      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                      let event = object["event"] as? String else { continue }
                let path = object["path"] as? [String]
                switch event {
                case "opened": ring = path ?? ring
                case "closed": ring = Array((path ?? ring).dropLast())
                case "selected": selected = path
                default: break
                }
            }
        }
    }

    private static let menus = [
        "items:\n  - id: a\n  - id: drinks\n    items:\n      - id: coffee\n      - id: tea\n        items: [{id: green}, {id: black}]\n  - id: c\n",
        "items:\n  - id: drinks\n    items:\n      - id: tea\n      - id: water\n  - id: a\n  - id: d\n",
        "items:\n  - id: a\n  - id: b\n",
    ]
    private static let paths = ["a", "c", "d", "b", "drinks", "drinks/coffee", "drinks/tea", "drinks/water",
                                "drinks/tea/green", "drinks/tea/black", "drinks/..", "drinks/tea/.."]

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func aClientModelFromTheEventsEqualsTheDial(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let start = Self.menus[0] + "behaviour:\n  default_item: drinks/tea/green\n"
        let k = try KioskLoop(config: start)
        let client = try k.startWithControlClient()
        defer { close(client) }
        var model = Client()
        func check(_ what: String) {
            model.read(k.stdout())
            #expect(model.ring == k.menuDial.ring.ids, "seed \(seed), after \(what)")
            #expect(model.selected == k.menuDial.selectedPath?.ids, "seed \(seed), after \(what)")
        }
        check("the start on drinks/tea/green")
        for step in 0..<40 {
            let what: String
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1:
                let path = Self.paths.randomElement(using: &random)!
                writeAll(client, "select \(path)\n")
                what = "select \(path)"
            case 2:
                writeAll(client, "back\n")
                what = "back"
            case 3:
                writeAll(client, "activate\n")
                what = "activate"
            default:
                let menu = Self.menus.randomElement(using: &random)!
                writeFile(k.configPath, menu + "theme:\n  ring: \"#0000\(String(format: "%02d", step))\"\n")
                k.signal(.hangUp)
                what = "a reload"
            }
            try k.step()
            check("step \(step): \(what)")
            // Sometimes into the middle of the ring change or the turn, sometimes to rest.
            if Bool.random(using: &random) {
                try k.flipUntilIdle()
            } else {
                for _ in 0..<Int.random(in: 0..<5, using: &random) where k.loop.awaitsFlip {
                    k.clock += 1.0 / 60
                    k.display.report(.frameShown(time: k.clock))
                    try k.step()
                }
            }
            check("step \(step): \(what), then frames")
        }
    }
}
