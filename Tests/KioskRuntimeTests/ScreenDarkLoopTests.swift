import DialCore
import Glibc
import KioskVocabulary
import Testing
@testable import KioskSeams
@testable import KioskRuntime
@testable import KioskReporting
@testable import KioskConfiguration
@testable import KioskLoop
@testable import KioskFeatures
import KioskTestSupport

/// "Is the screen dark" and "is a flip pending" on the device loop, the virtual display (with
/// its power switch) and a real LegacyService, in virtual time: after every turn the owners that
/// used to decide each fact on their own must agree (the behaviour timers, the screen's look,
/// the display's power switch, the schedule and the display's pending flip), and no frame is
/// flipped while the output is off.
@Suite struct ScreenDarkLoopTests {
    /// The demo menu; blank after 3 s without a touch.
    static let config = "behaviour:\n  idle: blank\n  idle_after_minutes: 0.05\n"

    /// Control commands at given times, as the control socket would hand them over.
    final class Commands: PollSource {
        private var due: [(Double, ControlCommand)]
        init(_ due: [(Double, ControlCommand)]) { self.due = due }
        var pollDescriptors: [pollfd] { [] }
        func wakeUp(now: Double) -> Double? { due.first?.0 }
        func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
            var out: [LoopEvent] = []
            while let (t, command) = due.first, t <= now {
                due.removeFirst()
                let request = ControlServer.Request(client: ControlServer.ClientID(fd: -1), command: command)
                out.append(.message(.news(KioskNews.command(request))))
            }
            return out
        }
    }

    final class Rig {
        let clock = VirtualClock()
        let dir = TemporaryDirectory()
        let display: VirtualDisplay
        let service: LegacyService
        let loop: FrameLoop
        var log: [String] = []
        /// Every look the screen took, in order (repeats dropped), with the time it was seen.
        var looks: [(Double, ScreenLook)] = []
        /// Broken agreements, each said once per turn.
        var disagreements: [String] = []
        /// Flips while the output was off.
        var flipsWhileOff = 0
        private var flipsAtOff: Int?
        /// The most frames presented in one dark spell (the black frame is one).
        var presentsWhileDark = 0
        private var presentsAtDark: Int?
        var eventsFDs: [Int32] = [-1, -1]

        /// `powerSwitch`: blank switches the virtual display off; else the black frame is painted.
        /// `dragsAt`: when a drag across the ring starts.
        init(dragsAt: [Double], commands: [(Double, ControlCommand)], powerSwitch: Bool = true) throws {
            let clock = self.clock
            writeFile(dir.path + "/config.yaml", ScreenDarkLoopTests.config)
            let config = try ConfigLoader.load(path: dir.path + "/config.yaml")
            _ = pipe(&eventsFDs)
            _ = fcntl(eventsFDs[0], F_SETFL, O_NONBLOCK)
            var lines: [String] = []
            let logger = JournalLogger(format: LogFormat(journalPrefixes: false)) { lines.append($0) }
            service = try LegacyService(config: config, configPath: dir.path + "/config.yaml", controlPath: nil,
                                       environment: [:], logger: logger, eventsFD: eventsFDs[1], now: 0,
                                       scenes: ClosureScenes { config, index in
                                           try SceneRecipe.scene(config: config, restingOn: index, width: 160, height: 120,
                                                                rotation: .none, painter: .flat)
                                       })
            display = VirtualDisplay(width: 160, height: 120, timing: .init(refresh: 60)) { clock.now }
            let scene = try SceneRecipe.scene(config: config, restingOn: nil, width: 160, height: 120,
                                             rotation: .none, painter: .flat)
            let geometry = (scene.dial as! MenuDial).geometry
            var next = dragsAt.flatMap { ScreenDarkLoopTests.drag(at: $0, on: geometry) }.makeIterator()
            let input = try ScriptInput(now: { clock.now }) { next.next() }
            var rig: Rig?
            let power = ScreenPower(output: powerSwitch ? display : nil, backlight: nil, noBacklight: "none here") {
                rig?.log.append($0)
            }
            var sources = FrameLoop.sources(displays: [display], inputs: [input], service: service.pollSources)
            sources.append(Commands(commands))
            let service = self.service
            let resize: LoopOutput.Resize = { width, height, path in
                try SceneRecipe.scene(config: service.config, resting: .path(path), width: width, height: height,
                                     rotation: .none, painter: .flat)
            }
            loop = FrameLoop(output: LoopOutput(presenter: display, power: power, resize: resize), sources: sources, scene: scene,
                             now: { clock.now }, service: service,
                             pacing: LoopPacing(schedule: FrameSchedule(refreshPeriod: display.refreshPeriod)),
                             log: { rig?.log.append($0) })
            rig = self
        }

        deinit {
            service.stop(reason: "test", now: .nan)
            for fd in eventsFDs { close(fd) }
            dir.remove()
        }

        var menuDial: MenuDial { loop.dial as! MenuDial }

        func run(until horizon: Double) throws {
            try loop.start(at: clock.now)
            _ = try loop.run(waiter: Checker(rig: self, inner: VirtualWaiter(clock: clock, horizon: horizon)))
        }

        /// What the screen's policy says the screen is, as the look must show it.
        private func agrees(_ screen: PowerState, _ look: ScreenLook) -> Bool {
            switch screen {
            case .on: return look == .lit
            case .dim: return look == .dimmedByPaint || look == .dimmedByBacklight
            case .off: return look.isDark
            }
        }

        /// After every turn: each fact has one answer.
        func check() {
            let look = loop.look
            if looks.last?.1 != look { looks.append((clock.now, look)) }
            var broken: [String] = []
            // The display is the one holder of "a flip is pending": a frame queued over its
            // pending flip is one the schedule queued without asking it.
            if display.presentsWhilePending != 0 {
                broken.append("a frame was queued while the display's flip was pending (\(display.presentsWhilePending))")
            }
            if display.isPoweredOff != (look == .outputOff) {
                broken.append("output off: display \(display.isPoweredOff), look \(look)")
            }
            if service.screen !== loop.power {
                broken.append("screen: the service reads another owner than the loop's")
            }
            if !agrees(service.screen.state.state, look) {
                broken.append("screen: policy \(service.screen.state), look \(look)")
            }
            if display.presentsWhileOff != 0 {
                broken.append("a present switched the display on itself (\(display.presentsWhileOff))")
            }
            if !broken.isEmpty { disagreements.append("t=\(clock.now): " + broken.joined(separator: "; ")) }
            if look == .outputOff {
                let base = flipsAtOff ?? display.flips
                flipsAtOff = base
                flipsWhileOff = max(flipsWhileOff, display.flips - base)
            } else {
                flipsAtOff = nil
            }
            if look.isDark {
                let base = presentsAtDark ?? display.presents
                presentsAtDark = base
                presentsWhileDark = max(presentsWhileDark, display.presents - base)
            } else {
                presentsAtDark = nil
            }
        }
    }

    /// Checks the rig before every wait (after every turn).
    struct Checker: LoopWaiter {
        let rig: Rig
        let inner: VirtualWaiter
        func wait(_ fds: inout [pollfd], until deadline: Double?, now: Double) throws -> FrameLoop.Ending? {
            rig.check()
            return try inner.wait(&fds, until: deadline, now: now)
        }
    }

    /// A drag across the ring from `start`: down, moves, up.
    static func drag(at start: Double, on g: DialGeometry) -> [InputEvent] {
        return (0...8).map { k in
            let a = -1.2 + Double(k) * 0.2
            let phase: TouchPhase = k == 0 ? .down : k == 8 ? .up : .motion
            return .touch(TouchEvent(phase: phase, x: g.center.x + g.ringRadius * cos(a),
                                     y: g.center.y + g.ringRadius * sin(a), time: start + Double(k) * 0.02))
        }
    }

    @Test func blankWakeDimAndBlankAgainKeepEveryOwnerInAgreement() throws {
        // Idle after 3 s: blank (output off). A drag at 6 s wakes without turning the ring;
        // `screen dim` at 7 s, `screen on` at 8 s; idle blanks at 11 s; `screen dim` at 12 s
        // (out of the dark: the output comes on) and `screen off` 5 ms later, while the dim
        // frame's flip is pending, switches it off again and drops that flip's answer.
        let rig = try Rig(dragsAt: [6],
                          commands: [(7, .screen(.dim)), (8, .screen(.on)), (12, .screen(.dim)), (12.005, .screen(.off))])
        try rig.run(until: 5.9)
        let rotationBeforeDrag = rig.menuDial.dial.rotation
        #expect(rig.loop.look == .outputOff)
        try rig.runOn(until: 6.9)
        #expect(rig.menuDial.dial.rotation == rotationBeforeDrag, "the waking drag does not turn the ring")
        #expect(rig.loop.look == .lit)
        try rig.runOn(until: 14)
        #expect(rig.disagreements.isEmpty, "\(rig.disagreements)")
        #expect(rig.flipsWhileOff == 0, "no flips while the output is off")
        let looks = rig.looks.map(\.1)
        #expect(looks == [.lit, .outputOff, .lit, .dimmedByPaint, .lit, .outputOff, .dimmedByPaint, .outputOff],
                "\(rig.looks)")
        #expect(!rig.log.contains { $0.contains("cannot take") || $0.contains("while no frame is awaited") }, "\(rig.log)")
    }

    @Test func aReloadWhileBlankWakesTheScreenWithItsNewTimers() throws {
        // The new behaviour timers start awake: the screen must wake with them, or a touch
        // would pass to the dial of a screen that stays dark (the timers see it awake).
        let rig = try Rig(dragsAt: [], commands: [(4, .reload)])
        writeFile(rig.dir.path + "/config.yaml", "behaviour:\n  idle: blank\n  idle_after_minutes: 0.1\n")
        try rig.run(until: 5)
        #expect(rig.looks.map(\.1) == [.lit, .outputOff, .lit], "\(rig.looks)")
        try rig.runOn(until: 11)
        #expect(rig.looks.map(\.1) == [.lit, .outputOff, .lit, .outputOff], "blank again 6 s after the reload: \(rig.looks)")
        #expect(rig.looks.last?.0 == 10)
        #expect(rig.disagreements.isEmpty, "\(rig.disagreements)")
    }

    @Test func aNewModeWhileTheOutputIsOffShowsTheBlackFrameUntilATouch() throws {
        // The output must be lit for the frame a resume owes (the new mode's modeset does it):
        // the screen's owner switches it on and the frame is black; a touch then wakes it.
        let rig = try Rig(dragsAt: [6], commands: [])
        try rig.run(until: 4)
        #expect(rig.loop.look == .outputOff)
        let presents = rig.display.presents
        rig.display.changeMode(width: 320, height: 240)
        try rig.runOn(until: 5)
        #expect(rig.display.presents == presents + 1)
        #expect(rig.loop.look == .blackFrame)
        try rig.runOn(until: 7)
        #expect(rig.looks.map(\.1) == [.lit, .outputOff, .blackFrame, .lit], "\(rig.looks)")
        #expect(rig.disagreements.isEmpty, "\(rig.disagreements)")
    }

    @Test func aBlankWhileTheRingSpinsPaintsOneBlackFrameAndNoMore() throws {
        // A fling at 1 s; `screen off` at 1.2 s while the ring still turns. Without a power
        // switch the black frame is painted, and the turning ring must not bring more frames.
        let rig = try Rig(dragsAt: [1], commands: [(1.2, .screen(.off)), (5, .screen(.on))], powerSwitch: false)
        try rig.run(until: 1.19)
        #expect(rig.menuDial.needsFrame, "the ring still turns at the blank")
        try rig.runOn(until: 6)
        #expect(rig.disagreements.isEmpty, "\(rig.disagreements)")
        #expect(rig.looks.map(\.1) == [.lit, .blackFrame, .lit], "\(rig.looks)")
        #expect(rig.presentsWhileDark == 1, "the black frame, then nothing until the wake")
    }
}

extension ScreenDarkLoopTests.Rig {
    /// Runs on from where the last run stopped (the loop is started already).
    func runOn(until horizon: Double) throws {
        _ = try loop.run(waiter: ScreenDarkLoopTests.Checker(rig: self, inner: VirtualWaiter(clock: clock, horizon: horizon)))
    }
}
