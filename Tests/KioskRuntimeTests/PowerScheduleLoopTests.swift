import DialCore
import Glibc
import Testing
@testable import KioskSeams
@testable import KioskRuntime
@testable import KioskReporting
@testable import KioskConfiguration
@testable import KioskLoop
@testable import KioskFeatures
import OpeningHours
import KioskTestSupport

/// A week of virtual time on the virtual display (with its power switch) and a real
/// LegacyService with opening hours: the flips stop at each closing, the loop does not wake
/// while closed, and a touch outside the hours wakes the screen for the idle time only.
@Suite struct PowerScheduleLoopTests {
    /// Monday 2 March 2026, 00:00 local, in a zone one hour east of UTC.
    static let monday = 1_772_409_600.0 - 3600
    static let config = """
        behaviour:
          idle: dim
          idle_after_minutes: 1
        power:
          schedule:
            - {days: mon-fri, on: "07:00", off: "19:30"}
            - {days: sat, on: "09:00", off: "14:00"}
          outside_hours: off
          touch_outside_hours: wake

        """

    final class Rig {
        let clock = VirtualClock()
        let dir = TemporaryDirectory()
        let display: VirtualDisplay
        let service: LegacyService
        let loop: FrameLoop
        var log: [String] = []
        /// Every turn's time (the loop's wake-ups) and the flips so far at it.
        var turns: [(time: Double, flips: Int, look: ScreenLook)] = []
        var eventsFDs: [Int32] = [-1, -1]
        var events = ""

        init(touchesAt: [Double]) throws {
            let clock = self.clock
            writeFile(dir.path + "/config.yaml", PowerScheduleLoopTests.config)
            let config = try ConfigLoader.load(path: dir.path + "/config.yaml")
            _ = pipe(&eventsFDs)
            _ = fcntl(eventsFDs[0], F_SETFL, O_NONBLOCK)
            let logger = JournalLogger(format: LogFormat(journalPrefixes: false)) { _ in }
            service = try LegacyService(config: config, configPath: dir.path + "/config.yaml", controlPath: nil,
                                       environment: [:], logger: logger, eventsFD: eventsFDs[1], now: 0,
                                       wallClock: { PowerScheduleLoopTests.monday + clock.now },
                                       localClock: LocalClock(fixedOffset: 3600))
            display = VirtualDisplay(width: 160, height: 120, timing: .init(refresh: 60)) { clock.now }
            let scene = try SceneRecipe.scene(config: config, restingOn: nil, width: 160, height: 120,
                                             rotation: .none, painter: .flat)
            let geometry = (scene.dial as! MenuDial).geometry
            var next = touchesAt.flatMap { ScreenDarkLoopTests.drag(at: $0, on: geometry) }.makeIterator()
            let input = try ScriptInput(now: { clock.now }) { next.next() }
            var rig: Rig?
            let power = ScreenPower(output: display, backlight: nil, noBacklight: "none here") { rig?.log.append($0) }
            let sources = FrameLoop.sources(displays: [display], inputs: [input], service: service.pollSources)
            loop = FrameLoop(output: LoopOutput(presenter: display, power: power), sources: sources, scene: scene,
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

        struct Recorder: LoopWaiter {
            let rig: Rig
            let inner: VirtualWaiter
            func wait(_ fds: inout [pollfd], until deadline: Double?, now: Double) throws -> FrameLoop.Ending? {
                rig.turns.append((now, rig.display.flips, rig.loop.look))
                rig.drain()
                return try inner.wait(&fds, until: deadline, now: now)
            }
        }

        func drain() {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(eventsFDs[0], &buffer, buffer.count)
                guard n > 0 else { break }
                events += String(decoding: buffer[0..<n], as: UTF8.self)
            }
        }

        func run(until horizon: Double) throws {
            try loop.start(at: clock.now)
            _ = try loop.run(waiter: Recorder(rig: self, inner: VirtualWaiter(clock: clock, horizon: horizon)))
            drain()
        }

        /// Power event lines: (time, state, reason).
        var powerLines: [(Double, String, String)] {
            events.split(separator: "\n").compactMap { line in
                guard line.contains("\"event\": \"power\"") else { return nil }
                func field(_ name: String) -> String? {
                    guard let r = line.range(of: "\"\(name)\": ") else { return nil }
                    let rest = line[r.upperBound...]
                    let end = rest.firstIndex(where: { $0 == "," || $0 == "}" }) ?? rest.endIndex
                    return String(rest[..<end]).replacingOccurrences(of: "\"", with: "")
                }
                guard let t = field("t").flatMap(Double.init), let s = field("state"), let r = field("reason") else { return nil }
                return (t, s, r)
            }
        }
    }

    static let hour = 3600.0
    static let day = 86_400.0

    @Test func aWeekOfOpeningHours() throws {
        // A touch on Tuesday at 22:00 (closed) and one on Wednesday at 10:00 (open).
        let tuesdayNight = Self.day + 22 * Self.hour
        let rig = try Rig(touchesAt: [tuesdayNight, 2 * Self.day + 10 * Self.hour])
        try rig.run(until: 7 * Self.day)
        // The closings and openings of the week, on the loop clock (Monday 00:00 local is 0).
        let day = Self.day, hour = Self.hour
        var opens: [(Double, Double)] = []
        for d in 0..<5 {
            let midnight: Double = Double(d) * day
            opens.append((midnight + 7 * hour, midnight + 19.5 * hour))
        }
        let saturday: Double = 5 * day
        opens.append((saturday + 9 * hour, saturday + 14 * hour))
        // Closed spells: before the first opening, between each closing and the next opening, after the last.
        var closed: [(Double, Double)] = [(0, opens[0].0)]
        for i in 0..<opens.count {
            let end: Double = i + 1 < opens.count ? opens[i + 1].0 : 7 * day
            closed.append((opens[i].1, end))
        }
        let power = rig.powerLines
        // Each opening and closing is one power line at its instant.
        for (on, off) in opens {
            #expect(power.contains { abs($0.0 - on) < 0.001 && $0.1 == "on" && $0.2 == "schedule" }, "opening at \(on): \(power)")
            #expect(power.contains { abs($0.0 - off) < 0.001 && $0.1 == "off" && $0.2 == "schedule" }, "closing at \(off): \(power)")
        }
        for (from, to) in closed {
            let inside = rig.turns.filter { $0.time > from + 0.001 && $0.time < to - 0.001 }
            let touch = tuesdayNight >= from && tuesdayNight < to
            // The first closed spell starts with the first frame; a touch brings its own turns.
            let touchFrom: Double = tuesdayNight - 1, touchTo: Double = tuesdayNight + 61
            let spellTurns = touch ? inside.filter { $0.time < touchFrom || $0.time > touchTo } : inside
            let lateTurns = spellTurns.filter { $0.time > from + 1 }
            #expect(lateTurns.count <= 1, "wake-ups while closed (\(from)...\(to)): \(lateTurns.map(\.time))")
            let before = rig.turns.last { $0.time <= from + 1 }?.flips ?? 0
            let flipsWhileClosed = (spellTurns.last?.flips ?? before) - before
            #expect(flipsWhileClosed == 0, "flips while closed (\(from)...\(to))")
        }
        // The touch on Tuesday night: on (touch) at once, off (schedule) a minute later, not the idle dim.
        let night = power.filter { $0.0 >= tuesdayNight && $0.0 < tuesdayNight + 120 }
        #expect(night.map(\.1) == ["on", "off"] && night.map(\.2) == ["touch", "schedule"], "\(night)")
        if night.count == 2 { #expect(abs(night[1].0 - night[0].0 - 60) < 1, "\(night)") }
        let lit = rig.turns.filter { $0.time > tuesdayNight && $0.time < tuesdayNight + 30 }
        #expect(lit.contains { $0.look == .lit }, "the screen is lit after the touch")
        // Inside the hours idle still dims after a minute.
        #expect(power.contains { abs($0.0 - opens[0].0 - 60) < 0.001 && $0.1 == "dim" && $0.2 == "idle" }, "\(power)")
        // The whole week: one turn per transition or timer, not a poll.
        #expect(rig.turns.count < 200, "\(rig.turns.count) turns in a week")
    }
}

/// The wall clock jumping under a running service (an NTP correction at boot, a resumed VM):
/// the next turn looks at the hours again, and the one deadline moves with them.
@Suite struct PowerClockJumpTests {
    final class Wall: @unchecked Sendable { var shift = 0.0 }

    @Test func aJumpForwardAndBackIsSeenAtTheNextTurn() throws {
        let config = try ConfigParser.parse(PowerScheduleLoopTests.config, file: "k.yaml")
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        defer { close(fds[0]); close(fds[1]) }
        let wall = Wall()
        let logger = JournalLogger(format: LogFormat(journalPrefixes: false)) { _ in }
        let service = try LegacyService(config: config, configPath: nil, controlPath: nil, environment: [:], logger: logger,
                                       eventsFD: fds[1], now: 0,
                                       wallClock: { PowerScheduleLoopTests.monday + wall.shift },
                                       localClock: LocalClock(fixedOffset: 3600))
        defer { service.stop(reason: "test", now: .nan) }
        let power = ScreenPower.painted()
        service.attach(screen: power)
        service.started(now: 0)
        _ = service.tick(now: 0.1)
        #expect(power.state == (.off, .schedule), "Monday 00:00: closed")
        #expect(service.hours.deadline.map { abs($0 - (0.1 + 7 * 3600)) < 0.01 } == true, "\(String(describing: service.hours.deadline))")
        // NTP sets the clock to Monday 08:00 while the loop clock reads 1 s.
        wall.shift = 8 * 3600
        #expect(service.tick(now: 1) == [.repaint])
        #expect(power.state == (.on, .schedule))
        #expect(service.hours.deadline.map { abs($0 - (1 + 11.5 * 3600)) < 0.01 } == true, "closes at 19:30")
        // And back to Sunday night.
        wall.shift = -3600
        #expect(service.tick(now: 2) == [.repaint])
        #expect(power.state == (.off, .schedule))
        // No jump, no new look: the turn costs a clock read.
        #expect(service.tick(now: 3).isEmpty)
    }
}
