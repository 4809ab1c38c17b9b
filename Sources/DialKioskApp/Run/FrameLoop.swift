import DialCore
import Glibc
import LinuxSystem

/// The dial as the loop drives it (DialCore's `Dial`; tests use a scripted one).
protocol DialDriving: AnyObject {
    func handle(_ event: InputEvent) -> [DialEvent]
    func advance(to time: Double) -> [DialEvent]
    var needsFrame: Bool { get }
    var pose: DialPose { get }
    /// The item at 12 o'clock (kept across a reload by its id).
    var selectedIndex: Int? { get }
    /// Turn item `index` to the top (`select <id>`, return to the default item).
    func select(index: Int, at time: Double) -> [DialEvent]
    /// Fan the items out or fold them into the hub (`show`, `hide`).
    func setShown(_ shown: Bool, at time: Double)
}

extension Dial: DialDriving {}

/// What the loop does with VT switch signals (KMSOutput's display + console; absent off a VT).
protocol VTSwitching: AnyObject {
    /// Stop presenting, drop master, let the switch proceed.
    func release() throws -> [DisplayEvent]
    /// Take the VT and master back.
    func acquire() throws -> [DisplayEvent]
}

/// What is painted: the dial and the painter built for it from one configuration (a reload
/// swaps both together).
struct Scene {
    var dial: DialDriving
    /// Paints a pose into a scanout buffer (the painter plus the rotated copy); returns the
    /// damage in scanout pixels (nil: all), as `FramePresenter.present` takes it.
    var paint: (DialPose, FrameTarget) throws -> [PixelRect]?
}

/// One thread, one poll(): the display's descriptors, the input descriptors, the signalfd,
/// the exit timer and the control socket. While the dial moves, every `.frameShown(time)`
/// advances it to `time`, paints and queues the next frame; at rest nothing is queued and
/// poll() waits until input, a signal, a display change or the service's next deadline (the
/// watchdog ping, a behaviour timer; none without a service).
final class FrameLoop {
    /// Where the loop stands with the display.
    enum FrameState: Equatable {
        /// Nothing queued; the dial rests (poll sleeps).
        case idle
        /// A frame is queued; its `.frameShown` will drive the next one.
        case awaitingFrame
        /// The output is gone (VT released, unplugged): nothing is presented until `.resumed`.
        case suspended
    }

    /// Why `run()` returned.
    enum Ending: Equatable {
        case signal
        case timerExpired
    }

    let presenter: FramePresenter
    let displaySources: [DisplayEventSource]
    let inputSources: [InputSource]
    private(set) var scene: Scene
    var dial: DialDriving { scene.dial }
    let now: () -> Double
    /// The kiosk's outside world (systemd, events, control socket, commands, idle timers);
    /// nil in tests of the display path alone.
    var service: KioskService?
    /// Builds the dial and painter for a reloaded configuration, resting on an item index
    /// (nil: the configuration's default item).
    var rebuild: ((KioskConfig, Int?) throws -> Scene)?
    var vt: VTSwitching?
    /// Blank switches the output off, dim lowers the backlight (nil: both are painted).
    var power: ScreenPower?
    /// Builds the scene for a new scanout size (width, height) after a hotplug re-modeset,
    /// resting on an item index.
    var resize: ((Int, Int, Int?) throws -> Scene)?
    var signalFD: Int32 = -1
    var readSignals: () -> [LoopSignal] = { [] }
    var timerFD: Int32 = -1
    var timerExpired: () -> Bool = { false }
    var stats: FrameStats?
    var log: (String) -> Void = { print($0) }

    private(set) var state: FrameState = .idle
    private(set) var presented = 0
    /// Frames that failed to queue in a row, the decision what to do about it, and when the
    /// frame is tried again (nil: nothing to retry).
    private var failuresInARow = 0
    var retryPolicy = PresentRetryPolicy()
    var refreshPeriod = 1.0 / 60
    private(set) var retryAt: Double?
    /// A queued frame whose flip event has not come after this long is queued again: an
    /// unbound or wedged card never answers, and waiting for it would hang the kiosk.
    var flipTimeout = 2.0
    private var awaitingSince: Double?
    private var lastPaintSeconds = 0.0
    /// Something other than the dial changed the picture (dim, wake, reload): paint once more.
    private var repaintPending = false
    /// READY=1 went out (after the first frame reached the screen).
    private(set) var announced = false
    /// The black frame of a blanked screen is queued or shown: no further frames until wake.
    private var blankShown = false

    init(presenter: FramePresenter, displaySources: [DisplayEventSource], inputSources: [InputSource],
         dial: DialDriving, now: @escaping () -> Double,
         paint: @escaping (DialPose, FrameTarget) throws -> [PixelRect]?) {
        self.presenter = presenter
        self.displaySources = displaySources
        self.inputSources = inputSources
        self.scene = Scene(dial: dial, paint: paint)
        self.now = now
    }

    /// Shows the first frame at `time` (the modeset).
    func start(at time: Double) throws {
        report(dial.advance(to: time))
        try presentFrame()
    }

    /// Feeds events that did not come through a source (the demo fling).
    func inject(_ events: [InputEvent]) throws {
        for e in events { report(dial.handle(e)) }
        try frameIfDue(at: now())
    }

    /// Polls until a signal or the exit timer ends the run.
    func run() throws -> Ending {
        while true {
            if let ending = try step(timeoutMS: pollTimeout(now: now())) { return ending }
        }
    }

    /// How long poll() may sleep: -1 (until an event) while idle with nothing pending;
    /// otherwise until the service's next deadline (the watchdog ping, a behaviour timer, a
    /// child to reap), a failed frame's retry, or a queued frame's overdue flip event; 0 while
    /// control-socket lines wait from an earlier turn.
    func pollTimeout(now: Double) -> Int32 {
        if service?.hasControlBacklog == true { return 0 }
        let flipDue = state == .awaitingFrame ? awaitingSince.map { $0 + flipTimeout } : nil
        let due = [retryAt, flipDue, service?.nextWakeup(now: now)].compactMap { $0 }.min()
        guard let due else { return -1 }
        let ms = ((due - now) * 1000).rounded(.up)
        guard ms > 0 else { return 0 }
        return Int32(min(ms, Double(Int32.max)))
    }

    /// `pollTimeout` at the loop's clock.
    func pollTimeoutMS() -> Int32 { pollTimeout(now: now()) }

    /// Tries a failed frame again once its time has come; queues an overdue frame again.
    private func retryIfDue() throws {
        if state == .awaitingFrame, let since = awaitingSince, now() - since >= flipTimeout {
            log("display: no flip event for \(fixed(flipTimeout, 1)) s; queuing the frame again")
            state = .idle
            awaitingSince = nil
            try presentFrame()
            return
        }
        guard let due = retryAt, now() >= due else { return }
        retryAt = nil
        if state == .idle { try presentFrame() }
    }

    /// One poll() and everything it found, then retries and the service's housekeeping.
    /// `timeoutMS` -1 waits forever; `run` passes `pollTimeout`, tests pass 0.
    func step(timeoutMS: Int32) throws -> Ending? {
        var fds: [pollfd] = []
        for s in displaySources { fds.append(pollfd(fd: s.pollDescriptor, events: Int16(POLLIN), revents: 0)) }
        for s in inputSources { fds.append(pollfd(fd: s.pollDescriptor, events: Int16(POLLIN), revents: 0)) }
        fds.append(pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0))
        fds.append(pollfd(fd: timerFD, events: Int16(POLLIN), revents: 0))
        // Output waiting for a slow reader: polled for POLLOUT only while lines wait.
        let outputs = (service?.outputQueues ?? []).compactMap { queue in queue.pollDescriptor.map { (queue, $0) } }
        fds += outputs.map(\.1)
        let controlStart = fds.count
        fds += service?.pollDescriptors ?? []
        if case .failure(let failure) = LinuxSystem.pollDescriptors(&fds, timeoutMS: timeoutMS) {
            throw CommandFailure("poll failed: \(failure)", status: .osError)
        }
        // Also when nothing is ready (r == 0): control lines left from earlier turns, retries
        // and housekeeping still have their turn.
        let ready = fds.map { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }
        let signalIndex = displaySources.count + inputSources.count
        for (i, (queue, _)) in outputs.enumerated() where fds[signalIndex + 2 + i].revents != 0 { queue.flush() }
        if ready[signalIndex] {
            for s in readSignals() {
                if let ending = try handle(s) { return ending }
            }
        }
        if ready[signalIndex + 1] && timerExpired() { return .timerExpired }
        for (i, s) in displaySources.enumerated() where ready[i] {
            for e in try s.drainDisplayEvents() { try handle(e) }
        }
        var gotInput = false
        for (i, s) in inputSources.enumerated() where ready[displaySources.count + i] {
            for e in try s.drain() {
                try input(e)
                gotInput = true
            }
        }
        if gotInput { try frameIfDue(at: now()) }
        let control = Array(fds[controlStart...])
        if service?.hasControlBacklog == true || control.contains(where: { $0.revents != 0 }) {
            try handleControl(control)
        }
        try retryIfDue()
        try housekeeping()
        return nil
    }

    /// One input event: through the behaviour timers (a touch on a dark screen only wakes it),
    /// then to the dial.
    private func input(_ event: InputEvent) throws {
        guard let service else {
            report(dial.handle(event))
            return
        }
        let (passOn, actions) = service.filter(event)
        try apply(actions, at: now())
        if passOn { report(dial.handle(event)) }
    }

    /// The display's news.
    func handle(_ event: DisplayEvent) throws {
        switch event {
        case .frameShown(let time):
            guard state == .awaitingFrame else { return }
            if !announced {
                // The first frame is on the glass: only now is the service "started".
                announced = true
                service?.started(now: time)
            }
            if let line = stats?.frameShown(at: time, paintSeconds: lastPaintSeconds) { log(line) }
            report(dial.advance(to: time))
            if !blankShown && (dial.needsFrame || repaintPending) {
                try presentFrame()
            } else {
                state = .idle
                // The last second's summary and the idle line: one log line each (a log line
                // never carries a newline; the logger would escape it).
                for line in stats?.wentIdle(at: time).split(separator: "\n") ?? [] { log(String(line)) }
            }
        case .suspended:
            state = .suspended
            log("display: suspended")
        case .resized(let width, let height):
            log("display: new mode \(width)x\(height)")
            if let resize { replaceScene(try resize(width, height, dial.selectedIndex)) }
        case .resumed:
            log("display: resumed")
            state = .idle
            report(dial.advance(to: now()))
            blankShown = false
            try presentFrame()
        }
    }

    private func handle(_ signal: LoopSignal) throws -> Ending? {
        switch signal {
        case .terminate:
            return .signal
        case .hangUp:
            if service != nil {
                try reload(at: now())
            } else if state == .idle {
                try presentFrame()
            }
        case .vtRelease:
            if let vt { for e in try vt.release() { try handle(e) } }
        case .vtAcquire:
            if let vt { for e in try vt.acquire() { try handle(e) } }
        case .childExited:
            break  // the housekeeping at the end of this turn reaps it
        }
        return nil
    }

    /// Input or a command arrived: when resting and the dial now moves, queue a frame at once.
    func frameIfDue(at time: Double) throws {
        guard state == .idle, dial.needsFrame, !blankShown else { return }
        report(dial.advance(to: time))
        try presentFrame()
    }

    /// The picture changed outside the dial (dim, blank, wake, reload): paint now when resting,
    /// else with the next frame. A blanked screen gets its one black frame.
    func repaint(at time: Double) throws {
        repaintPending = true
        if screen != .blanked { blankShown = false }
        if screen == .blanked, power?.isOutputOff == true { return restWhileOff() }
        guard state == .idle else { return }
        report(dial.advance(to: time))
        try presentFrame()
    }

    /// The output is off (its pending flip done, ScreenPower): nothing is queued or awaited
    /// until a wake, so poll sleeps.
    private func restWhileOff() {
        blankShown = true
        repaintPending = false
        state = .idle
        awaitingSince = nil
    }

    /// A reloaded configuration's dial and painter take over between two frames.
    func replaceScene(_ new: Scene) {
        scene = new
    }

    /// What the screen shows (always awake without a service).
    var screen: IdleSchedule.Screen { service?.idle.screen ?? .awake }

    private func presentFrame() throws {
        let pose = dial.pose
        let screen = power?.look(for: self.screen) ?? self.screen
        let paint = scene.paint
        var seconds = 0.0
        do {
            try presenter.present { target in
                let before = now()
                defer { seconds = now() - before }
                switch screen {
                case .awake:
                    return try paint(pose, target)
                case .dimmed:
                    try Dimming.paintDimmed(pose, into: target, paint)
                case .blanked:
                    Dimming.black(target)
                }
                return nil
            }
        } catch {
            // The frame was not queued: retry where the kernel's answer says it can clear,
            // otherwise leave with the error (teardown restores the CRTC).
            failuresInARow += 1
            let failure = PresentFailure(error)
            switch retryPolicy.recovery(for: failure, failuresInARow: failuresInARow, refreshPeriod: refreshPeriod) {
            case .retry(let delay):
                log("display: \(error); trying again in \(fixed(delay * 1000, 0)) ms")
                state = .idle
                retryAt = now() + delay
                return
            case .giveUp:
                throw error
            }
        }
        failuresInARow = 0
        retryAt = nil
        awaitingSince = now()
        if screen == .blanked { blankShown = true }
        repaintPending = false
        lastPaintSeconds = seconds
        presented += 1
        state = .awaitingFrame
    }

    /// The dial's events go out as event lines through the service (commands start on
    /// `activated`), or as log lines without one.
    func report(_ events: [DialEvent]) {
        if let service {
            service.report(events, frames: presented)
            return
        }
        for e in events {
            switch e {
            case .selected(let index, let time):
                log("selected index=\(index) time=\(fixed(time, 3))")
            case .activated(let index, let time):
                log("activated index=\(index) time=\(fixed(time, 3))")
            case .rest(let time, let rotation, let index):
                log("rest rotation=\(fixed(rotation, 6)) index=\(index.map(String.init) ?? "none") time=\(fixed(time, 3))")
            }
        }
    }
}
