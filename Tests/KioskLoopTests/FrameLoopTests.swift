import Testing
import Glibc
import DialCore
@testable import KioskSeams
@testable import KioskLoop
import KioskTestSupport

/// A dial that moves until `restAt` and records what it was told.
private final class ScriptedDial: StandInDial {
    var restAt: Double
    var advancedTo: [Double] = []
    var handled: [InputEvent] = []
    var now = 0.0
    init(restAt: Double) { self.restAt = restAt }
    func handle(_ event: InputEvent) -> [DialEvent] {
        handled.append(event)
        if case .touch(let t) = event { restAt = t.time + 0.1 }
        return []
    }
    func advance(to time: Double) -> [DialEvent] {
        advancedTo.append(time)
        now = time
        return now >= restAt ? [.rest(time: time, rotation: 0.5, index: 3)] : []
    }
    var needsFrame: Bool { now < restAt }
    var selectedIndex: Int? { 3 }
    var pose: DialPose { standInPose(rotation: now, time: now) }
}

/// The dial's events as a service hears them (NoService keeps none).
private final class EventsHeard: LoopService {
    var events: [DialEvent] = []
    func handle(_ message: LoopMessage, at time: Double, dial: DialSnapshot) throws -> [LoopRequest] {
        if case .dialEvents(let news, _) = message { events += news }
        return []
    }
    var rested: Bool { events.contains { if case .rest = $0 { return true } else { return false } } }
}

@Suite struct FrameLoopTests {
    private func makeLoop(_ display: PipeDisplay, _ dial: DialDriving, inputs: [InputSource] = [],
                          signals: PollSource? = nil, timer: PollSource? = nil, stats: FrameStats? = nil,
                          service: LoopService = NoService(), lines: @escaping (String) -> Void = { _ in }) -> FrameLoop {
        let scene = Scene(dial: dial) { _, target in
            target.base.storeBytes(of: UInt32(0xABCDEF), as: UInt32.self)
            return nil
        }
        return FrameLoop(output: LoopOutput(presenter: display),
                         sources: FrameLoop.sources(signals: signals, timer: timer, displays: [display], inputs: inputs),
                         scene: scene, now: { 0 }, service: service, pacing: LoopPacing(stats: stats), log: lines)
    }

    @Test func eachFlipEventDrivesTheNextFrameWhileMoving() throws {
        let display = PipeDisplay(), dial = ScriptedDial(restAt: 1.0)
        let loop = makeLoop(display, dial)
        try loop.start(at: 0.5)
        #expect(display.presents == 1)
        #expect(display.pixels[0] == 0xABCDEF)
        for (i, t) in [0.6, 0.7, 0.8].enumerated() {
            display.report(.frameShown(time: t))
            #expect(try loop.step(timeoutMS: 0) == nil)
            #expect(display.presents == 2 + i)
            #expect(loop.awaitsFlip)
        }
        #expect(dial.advancedTo == [0.5, 0.6, 0.7, 0.8])
    }

    @Test func atRestNothingIsQueuedAndPollFindsNothing() throws {
        let display = PipeDisplay(), dial = ScriptedDial(restAt: 1.0)
        let heard = EventsHeard()
        let loop = makeLoop(display, dial, service: heard)
        try loop.start(at: 0.9)
        display.report(.frameShown(time: 1.0))
        _ = try loop.step(timeoutMS: 0)
        #expect(loop.schedule.state == .idle)
        #expect(display.presents == 1)
        #expect(heard.events.contains(.rest(time: 1.0, rotation: 0.5, index: 3)))
        // Idle means idle: nothing is ready, nothing is presented.
        for _ in 0..<3 { _ = try loop.step(timeoutMS: 0) }
        #expect(display.presents == 1)
        #expect(dial.advancedTo == [0.9, 1.0])
    }

    @Test func inputWhileIdleQueuesAFrameAtOnce() throws {
        let display = PipeDisplay(), dial = ScriptedDial(restAt: 0), input = PipeInput()
        let loop = makeLoop(display, dial, inputs: [input])
        try loop.start(at: 0)
        display.report(.frameShown(time: 0.016))
        _ = try loop.step(timeoutMS: 0)
        #expect(loop.schedule.state == .idle)
        input.send([.touch(TouchEvent(phase: .down, x: 1, y: 1, time: 2.0))])
        _ = try loop.step(timeoutMS: 0)
        #expect(dial.handled.count == 1)
        #expect(display.presents == 2)
        #expect(loop.awaitsFlip)
    }

    @Test func inputWhileAFrameIsQueuedWaitsForItsEvent() throws {
        let display = PipeDisplay(), dial = ScriptedDial(restAt: 5), input = PipeInput()
        let loop = makeLoop(display, dial, inputs: [input])
        try loop.start(at: 0)
        input.send([.touch(TouchEvent(phase: .motion, x: 1, y: 1, time: 0.01))])
        _ = try loop.step(timeoutMS: 0)
        #expect(display.presents == 1)
    }

    @Test func suspendedIgnoresStaleFlipsAndResumedRepaints() throws {
        let display = PipeDisplay(), dial = ScriptedDial(restAt: 10)
        let loop = makeLoop(display, dial)
        try loop.start(at: 0)
        display.report(.suspended)
        _ = try loop.step(timeoutMS: 0)
        #expect(loop.schedule.state == .suspended)
        display.report(.frameShown(time: 0.1))
        _ = try loop.step(timeoutMS: 0)
        #expect(display.presents == 1)
        display.report(.resumed)
        _ = try loop.step(timeoutMS: 0)
        #expect(display.presents == 2)
        #expect(loop.awaitsFlip)
    }

    @Test func terminateSignalEndsTheRun() throws {
        let display = PipeDisplay(), dial = ScriptedDial(restAt: 0)
        let signals = PipeSignals()
        let loop = makeLoop(display, dial, signals: signals)
        signals.send([.hangUp, .terminate])
        #expect(try loop.step(timeoutMS: 0) == .signal)
    }

    /// Without a service (NoService), SIGHUP has no file to reload: it repaints the frame.
    @Test func aHangUpWithoutAServiceRepaintsOnce() throws {
        let display = PipeDisplay(), dial = ScriptedDial(restAt: 0)
        let signals = PipeSignals()
        let loop = makeLoop(display, dial, signals: signals)
        try loop.start(at: 0.5)
        display.report(.frameShown(time: 0.6))
        _ = try loop.step(timeoutMS: 0)
        #expect(display.presents == 1)
        #expect(!loop.awaitsFlip)
        signals.send([.hangUp])
        #expect(try loop.step(timeoutMS: 0) == nil)
        #expect(display.presents == 2)
    }

    @Test func exitTimerEndsTheRun() throws {
        let display = PipeDisplay(), dial = ScriptedDial(restAt: 0)
        let timer = try ExitTimer(seconds: 0.000_001)
        defer { timer.close() }
        let loop = makeLoop(display, dial, timer: timer)
        #expect(try loop.step(timeoutMS: 5000) == .timerExpired)
    }

    /// A source is one type: its wake-up bounds poll's sleep, and what it serves reaches the loop
    /// also in a turn where no descriptor was ready.
    @Test func aNewSourceIsOneTypeWithADeadlineAndEvents() throws {
        struct Alarm: PollSource {
            var pollDescriptors: [pollfd] { [] }
            func wakeUp(now: Double) -> Double? { 1.5 }
            func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] { [.timerExpired] }
        }
        let display = PipeDisplay(), dial = ScriptedDial(restAt: 0)
        let loop = makeLoop(display, dial, timer: Alarm())
        #expect(loop.pollTimeout(now: 1) == 500)
        #expect(try loop.step(timeoutMS: 0) == .timerExpired)
    }

    @Test func signalsMapToLoopSignals() {
        #expect(LoopSignal(signal: SIGTERM) == .terminate)
        #expect(LoopSignal(signal: SIGINT) == .terminate)
        #expect(LoopSignal(signal: SIGHUP) == .hangUp)
        #expect(LoopSignal(signal: SIGUSR1) == .vtRelease)
        #expect(LoopSignal(signal: SIGUSR2) == .vtAcquire)
        // A command's exit wakes the loop (it no longer polls every second while one runs).
        #expect(LoopSignal(signal: SIGCHLD) == .childExited)
        #expect(LoopSignal(signal: SIGPIPE) == nil)
    }

    @Test func realDialFlungByTheDemoAnimatesThenRests() throws {
        let display = PipeDisplay()
        let items = DemoMenu.items
        let g = DialGeometry.fitting(width: 64, height: 48, count: items.count)
        let dial = MenuDial(tree: try MenuTree(flat: items), geometry: { _ in g })
        var lines: [String] = []
        let heard = EventsHeard()
        let loop = makeLoop(display, dial, stats: FrameStats(), service: heard) { lines.append($0) }
        try loop.start(at: 100)
        try loop.inject(DemoFling.events(geometry: g, radPerSecond: 20, endTime: 100.05))
        // A 60 Hz frame clock until the loop goes idle (bounded, in case it never does).
        var t = 100.0
        var frames = 0
        while loop.awaitsFlip && frames < 2000 {
            t += 1.0 / 60
            display.report(.frameShown(time: t))
            _ = try loop.step(timeoutMS: 0)
            frames += 1
        }
        #expect(loop.schedule.state == .idle)
        #expect(frames > 30, "a 20 rad/s fling coasts for more than half a second")
        #expect(heard.rested)
        #expect(lines.contains { $0.hasPrefix("stats: 60.0 flips/s") })
        #expect(lines.contains { $0.contains("0 flips/s until input") })
        // One line per log call: the logger escapes a newline (so `^stats: idle` must start one).
        #expect(lines.allSatisfy { !$0.contains("\n") })
        #expect(lines.contains { $0.hasPrefix("stats: idle at ") })
    }
}
