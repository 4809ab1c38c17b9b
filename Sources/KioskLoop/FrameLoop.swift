import DialCore
import Glibc
import KioskSeams
import LinuxSystem

/// The dial as the loop drives it (DialCore's `MenuDial`; tests use a scripted one).
package protocol DialDriving: AnyObject {
    func handle(_ event: InputEvent) -> [DialEvent]
    func advance(to time: Double) -> [DialEvent]
    var needsFrame: Bool { get }
    var pose: DialPose { get }
    /// The item at 12 o'clock (kept across a reload by its id).
    var selectedIndex: Int? { get }
    /// The slot at 12 o'clock by its path through the rings (nil: none).
    var selectedPath: MenuPath? { get }
    /// To the top ring and its default item (`behaviour.return_after_seconds`).
    func returnToTop(at time: Double) -> [DialEvent]
    /// Slot `path` to the top, changing rings as needed (`select <path>`); nil: no such slot.
    func select(path: MenuPath, at time: Double) -> [DialEvent]?
    /// Fan the items out or fold them into the hub (`show`, `hide`).
    func setShown(_ shown: Bool, at time: Double)
    /// When the value dials' setpoints have something to do (nil: never; a dial without them).
    var valueDeadline: Double? { get }
    /// The setpoints' pauses, rests and guards that came due by `time`, as the dial's events.
    func advanceValues(to time: Double) -> [DialEvent]
}

extension DialDriving {
    package var valueDeadline: Double? { nil }
    package func advanceValues(to time: Double) -> [DialEvent] { [] }
}

extension MenuDial: DialDriving {}

/// What the loop does with VT switch signals (KMSOutput's display + console; absent off a VT).
package protocol VTSwitching: AnyObject {
    /// Stop presenting, drop master, let the switch proceed.
    func release() throws -> [DisplayEvent]
    /// Take the VT and master back.
    func acquire() throws -> [DisplayEvent]
}

/// What is painted: the dial and the painter built for it from one configuration (a reload
/// swaps both together).
package struct Scene {
    package var dial: DialDriving
    /// Paints a pose into a scanout buffer (the painter plus the rotated copy); returns the
    /// damage in scanout pixels (nil: all), as `FramePresenter.present` takes it.
    package var paint: (DialPose, FrameTarget) throws -> [PixelRect]?
    /// Shows the texts in another language from the next frame on (nil: the painter has none).
    package var setLanguage: ((String?) -> Void)?

    package init(dial: DialDriving, paint: @escaping (DialPose, FrameTarget) throws -> [PixelRect]?) {
        self.dial = dial
        self.paint = paint
    }
}

/// One thread, one poll() over the sources the loop was built with (display, input, signals,
/// the exit timer, the service's output, control socket and deadlines). While the dial moves,
/// every `.frameShown` advances it to the flip's time, paints and queues the next frame; at rest
/// nothing is queued and poll() waits until a source has news or a deadline comes. What to paint
/// when is `FrameSchedule`'s decision; the loop paints, polls and reports.
package final class FrameLoop {
    /// Why `run()` returned.
    package enum Ending: Equatable {
        case signal
        /// `--exit-after` ran out, a virtual run reached its horizon or frame limit.
        case timerExpired
        /// Nothing could wake the loop any more (a virtual clock with no deadline left: the
        /// script is over and the ring rests).
        case quiet
    }

    package let presenter: FramePresenter
    /// Served in this order every turn (`sources(...)` builds the usual list).
    package let sources: [any PollSource]
    package private(set) var scene: Scene
    package var dial: DialDriving { scene.dial }
    /// The loop's one clock (CLOCK_MONOTONIC in `run`, a fake in tests): read once when poll
    /// returns, for everything that turn; and around a paint for `--stats` and render late.
    package let now: () -> Double
    /// The kiosk's outside world (systemd, events, control socket, commands, idle timers,
    /// reloads); `NoService` in simulate, bench and the tests of the display path.
    package let service: LoopService
    package let vt: VTSwitching
    package private(set) var stats: FrameStats?
    package let log: (String) -> Void
    package private(set) var schedule: FrameSchedule
    private var lastPaintSeconds = 0.0
    /// The one owner of what the glass shows: the loop asks it what to paint and whether the
    /// screen is dark; blank switches the output off, dim lowers the backlight (or both are
    /// painted).
    package let power: ScreenPower
    package let resize: LoopOutput.Resize
    /// `--render-late on`: when the next frame starts after a flip event (nil: at once).
    package private(set) var renderLate: RenderLateSchedule?
    /// Which frame first shows which input sample (`--stats`' latency).
    private var inputFrames = InputFrameTracker()
    /// A scene swapped in whose first frame is not on the glass yet: `unpainted` until its first
    /// frame is queued, `queued` until that frame's flip event (the service hears of both ends).
    private var newScene: NewSceneFrame?
    private enum NewSceneFrame { case unpainted, queued }
    /// `run --stats`: the longest turn (nil: not measured; simulate's clock is virtual).
    package var turns: TurnStats?
    /// The snapshot a service that reads none gets (`LoopService.readsDial`), taken once.
    private var unreadSnapshot: DialSnapshot?

    package init(output: LoopOutput, sources: [any PollSource], scene: Scene, now: @escaping () -> Double,
         service: LoopService = NoService(), pacing: LoopPacing = LoopPacing(),
         log: @escaping (String) -> Void = { print($0) }) {
        presenter = output.presenter
        vt = output.vt
        power = output.power
        resize = output.resize
        self.sources = sources
        self.scene = scene
        self.now = now
        self.service = service
        stats = pacing.stats
        schedule = pacing.schedule
        renderLate = pacing.renderLate
        self.log = log
        service.attach(screen: power)
    }

    /// The sources in the order a turn serves them: output waiting for a slow reader first (it
    /// moves on even in a turn that ends the run), signals and the exit timer (which may end
    /// it), the display, input, the control socket, and the service's deadlines last.
    package static func sources(signals: (any PollSource)? = nil, timer: (any PollSource)? = nil,
                        displays: [DisplayEventSource], inputs: [InputSource] = [],
                        service: ServiceSources = .none) -> [any PollSource] {
        var list: [any PollSource] = service.first
        list += [signals, timer].compactMap { $0 }
        list += displays.map(DisplayEvents.init) as [any PollSource]
        list += inputs.map(InputEvents.init) as [any PollSource]
        return list + service.last
    }

    /// Shows the first frame at `time` (the modeset).
    package func start(at time: Double) throws {
        report(dial.advance(to: time))
        resyncEvents(at: time)
        try presentFrame(at: time)
    }

    /// Feeds events that did not come through a source (the demo fling).
    package func inject(_ events: [InputEvent]) throws {
        for e in events { report(dial.handle(e)) }
        try frameIfDue(at: now())
    }

    /// Turns until a signal, the exit timer or the waiter ends the run: `PollWaiter` sleeps in
    /// poll(2) until the next deadline, `VirtualWaiter` jumps a virtual clock to it.
    package func run(waiter: LoopWaiter = PollWaiter()) throws -> Ending {
        while true {
            let requested = sources.map(\.pollDescriptors)
            var fds = Array(requested.joined())
            let start = now()
            let ending = try waiter.wait(&fds, until: deadline(now: start), now: start)
            let began = turns.map { _ in TurnStats.read() }
            let served = try ending ?? serve(fds, requested)
            if let began { turns?.turnEnded(since: began) }
            if let ending = served {
                if let line = turns?.line { log(line) }
                if let line = stats?.sinceStart { log(line) }
                return ending
            }
        }
    }

    /// The latest time the loop may wait until at `now`: the schedule's retry or overdue flip,
    /// and the sources' wake-ups (the next virtual vblank or script sample, the watchdog ping,
    /// a behaviour timer, a command's deadline, control lines left from an earlier turn); nil
    /// (until an event) when there is none.
    package func deadline(now: Double) -> Double? {
        let wakeUps = sources.compactMap { $0.wakeUp(now: now) } + [dial.valueDeadline.map { max(now, $0) }].compactMap { $0 }
        return schedule.deadline(now: now, deadlines: wakeUps, flipPending: presenter.isFlipPending)
    }

    /// `deadline` as poll()'s timeout in milliseconds (-1: none).
    package func pollTimeout(now: Double) -> Int32 {
        FrameSchedule.timeoutMS(until: deadline(now: now), now: now)
    }

    /// True while the display's flip is pending and its event is what the loop waits for.
    package var awaitsFlip: Bool { schedule.awaitsFlip(flipPending: presenter.isFlipPending) }

    /// `pollTimeout` at the loop's clock.
    package func pollTimeoutMS() -> Int32 { pollTimeout(now: now()) }

    /// One turn after the wait: every source is served, also when nothing is ready (control
    /// lines left from earlier turns, the service's housekeeping and virtual sources whose time
    /// came have their turn), at one reading of the clock; then a retry or an overdue frame when
    /// the schedule says so. `fds`: what the wait returned of `requested`, each source's
    /// descriptors in the sources' order.
    package func serve(_ fds: [pollfd], _ requested: [[pollfd]]) throws -> Ending? {
        let time = now()
        // The turn's length for `--stats` (a long one holds every flip and input behind it),
        // from the first frame on: the start's turns build the scene, which is no stall.
        defer { if stats != nil && schedule.hasShownAFrame { stats?.turnTook(now() - time) } }
        var polled = fds[...]
        for (source, mine) in zip(sources, requested) {
            let events = try source.serve(Array(polled.prefix(mine.count)), now: time)
            polled = polled.dropFirst(mine.count)
            for event in events {
                if let ending = try handle(event, at: time) { return ending }
            }
        }
        // A value dial's pause that came due commits it (its events go out as the dial's).
        if let due = dial.valueDeadline, due <= time {
            report(dial.advanceValues(to: time))
            try frameIfDue(at: time)
        }
        if case .present(let reason) = schedule.decision(at: time, flipPending: presenter.isFlipPending) {
            if reason == .flipOverdue {
                log("display: no flip event for \(fixed(schedule.flipTimeout, 1)) s; queuing the frame again")
            }
            try presentFrame(at: time)
        }
        return nil
    }

    /// One source's news, at the turn's `time` (tests hand events in here as a source would).
    @discardableResult
    package func handle(_ event: LoopEvent, at time: Double) throws -> Ending? {
        switch event {
        case .display(let e):
            try handle(e, at: time)
        case .input(let events):
            for e in events { try input(e, at: time) }
            try frameIfDue(at: time)
        case .signal(let s):
            return try handle(s, at: time)
        case .timerExpired:
            return .timerExpired
        case .message(let message):
            try tell(message, at: time)
        case .requests(let requests):
            try carryOut(requests, at: time)
        }
        return nil
    }

    /// One input event: the screen's owner admits it (a touch on a dark screen only wakes it),
    /// the service hears of it (activity for its idle timers; speech stops before the dial's
    /// next item is spoken), a changed glass is repainted, and the dial gets what `InputRoute`
    /// gives it.
    private func input(_ event: InputEvent, at time: Double) throws {
        let (admission, changed) = power.admit(event)
        let toDial = InputRoute.reachesDial(event, admission: admission)
        try tell(.input(event, admission: admission, screenChanged: changed), at: time)
        if changed { try repaint(at: time) }
        guard toDial else { return }
        inputFrames.fed(inputAt: event.time)
        report(dial.handle(event))
    }

    /// The display's news, at the turn's `time`.
    package func handle(_ event: DisplayEvent, at time: Double) throws {
        switch event {
        case .frameShown(let shown):
            guard schedule.takesFlipEvent else {
                // The display sends this only as the answer to its pending flip (a suspend or a
                // power-off drops the answer it cancels); the schedule, retrying a frame,
                // painting late or suspended, does not wait for it.
                return log("display: a flip event at \(fixed(shown, 3)) while no frame is awaited (\(schedule.state)); ignored")
            }
            // The first frame is on the glass: only now is the service "started".
            if !schedule.hasShownAFrame { try tell(.firstFrameShown, at: shown) }
            if newScene == .queued {
                newScene = nil
                try tell(.sceneShown, at: shown)
            }
            let input = inputFrames.shown()
            if let line = stats?.frameShown(at: shown, paintSeconds: lastPaintSeconds, inputTime: input) { log(line) }
            report(dial.advance(to: shown))
            let paintAt = renderLate?.paintStart(afterFlipAt: shown, refreshPeriod: schedule.refreshPeriod)
            switch schedule.flipShown(dialNeedsFrame: dialWantsFrame, paintAt: paintAt) {
            case .present:
                try presentFrame(at: time)
            case .wait:
                break  // render late: `step` paints when the schedule says it is time
            case .sleep:
                // The last second's summary and the idle line: one log line each (a log line
                // never carries a newline; the logger would escape it).
                for line in stats?.wentIdle(at: shown).split(separator: "\n") ?? [] { log(String(line)) }
                // At rest nothing is drawn: the pages a spin's sprites and labels freed go back.
                HeapPolicy.releaseFreed()
            }
        case .suspended:
            inputFrames.outputLost()
            schedule.suspended()
            log("display: suspended")
        case .resized(let width, let height):
            log("display: new mode \(width)x\(height)")
            replaceScene(try resize(width, height, dial.selectedPath))
            resyncEvents(at: time)
        case .resumed:
            log("display: resumed")
            _ = schedule.resumed()
            report(dial.advance(to: time))
            try presentFrame(at: time)
        }
    }

    private func handle(_ signal: LoopSignal, at time: Double) throws -> Ending? {
        switch signal {
        case .terminate:
            return .signal
        case .hangUp:
            try tell(.hangUp, at: time)
        case .vtRelease:
            for e in try vt.release() { try handle(e, at: time) }
        case .vtAcquire:
            for e in try vt.acquire() { try handle(e, at: time) }
        case .childExited:
            break  // the service's deadlines source reaps it this turn
        }
        return nil
    }

    /// Input or a command arrived: when resting and the dial now moves, queue a frame at once.
    func frameIfDue(at time: Double) throws {
        guard schedule.dialChanged(dialNeedsFrame: dialWantsFrame, flipPending: presenter.isFlipPending) != nil else { return }
        report(dial.advance(to: time))
        try presentFrame(at: time)
    }

    /// The picture changed outside the dial (dim, blank, wake, reload): paint now when resting,
    /// else with the next frame. A blanked screen gets its one black frame.
    func repaint(at time: Double) throws {
        // The output is off (ScreenPower): nothing owed or awaited, poll sleeps until a wake.
        guard look.presents else { return schedule.outputSwitchedOff() }
        guard schedule.repaintRequested(flipPending: presenter.isFlipPending) != nil else { return }
        report(dial.advance(to: time))
        try presentFrame(at: time)
    }

    /// A reloaded configuration's dial and painter take over between two frames.
    func replaceScene(_ new: Scene) {
        // The value dials go with the menu where their items stay as they were.
        if let old = dial as? MenuDial, let next = new.dial as? MenuDial, old !== next { next.keepValues(of: old) }
        scene = new
        newScene = .unpainted
        // The old painter is gone: its free pages go back (HeapPolicy), so reloads stay flat.
        HeapPolicy.releaseFreed()
    }

    /// What the glass shows (`ScreenPower` decides).
    var look: ScreenLook { power.look }

    /// The dial moves and the screen shows it: while dark a moving dial queues no frames.
    private var dialWantsFrame: Bool { dial.needsFrame && !look.isDark }

    /// SIGHUP without a service: the frame again.
    func refresh(at time: Double) throws {
        if schedule.refreshRequested(flipPending: presenter.isFlipPending) != nil { try presentFrame(at: time) }
    }

    /// After a dial change that made no events of its own (start, reload, new scene): the
    /// event lines that bring clients' view of the menu to the dial's (`KioskService.resync`).
    func resyncEvents(at time: Double, previousMenu: MenuTree? = nil) {
        tellLogging(.dialReplaced(previousMenu: previousMenu), at: time)
    }

    /// Tells the service `message`, with what the dial shows now, and carries out the requests
    /// it answers with.
    private func tell(_ message: LoopMessage, at time: Double) throws {
        try carryOut(try service.handle(message, at: time, dial: dialSnapshot), at: time)
    }

    /// What the service may know of the dial (it reads no more than this).
    package var dialSnapshot: DialSnapshot {
        guard service.readsDial else {
            if let unread = unreadSnapshot { return unread }
            unreadSnapshot = freshSnapshot
            return freshSnapshot
        }
        return freshSnapshot
    }

    private var freshSnapshot: DialSnapshot {
        DialSnapshot(pose: dial.pose, selectedPath: dial.selectedPath, ring: (dial as? MenuDial)?.ring)
    }

    /// `tell` where the loop has nothing to undo (the dial already moved): a failure is logged.
    private func tellLogging(_ message: LoopMessage, at time: Double) {
        do {
            try tell(message, at: time)
        } catch {
            log("service: \(error)")
        }
    }

    private func presentFrame(at time: Double) throws {
        // A frame the loop must show while the output is off (resumed): on, and black.
        power.frameNeeded()
        let pose = dial.pose
        let painting = power.look.paint
        let paint = scene.paint
        var seconds = 0.0
        var start = now()
        // A late paint counts from its planned start: how late poll() and the scheduler woke
        // the loop is part of what the next plan must leave room for.
        if case .paintingAt(let planned) = schedule.state { start = min(start, planned) }
        do {
            try presenter.present { target in
                let before = now()
                // Summed: a first frame paints every new buffer (`BufferAges.prime`).
                defer { seconds += now() - before }
                switch painting {
                case .picture:
                    return try paint(pose, target)
                case .halved:
                    try Dimming.paintDimmed(pose, into: target, paint)
                case .black:
                    Dimming.black(target)
                }
                return nil
            }
        } catch {
            // A new scene that cannot paint its first frame goes back, not the kiosk: the
            // service swaps a working scene in (its repaint queues that one's frame).
            if newScene == .unpainted, PresentFailure(error) == .other {
                newScene = nil
                schedule.frameDropped()
                return try tell(.sceneFailed(String(describing: error)), at: time)
            }
            // The frame was not queued: retry where the kernel's answer says it can clear,
            // otherwise leave with the error (teardown restores the CRTC).
            switch schedule.presentFailed(PresentFailure(error), at: time) {
            case .retry(let delay):
                log("display: \(error); trying again in \(fixed(delay * 1000, 0)) ms")
                return
            case .giveUp:
                throw error
            }
        }
        // When the frame really went out, not when the turn began: a turn that stood still (a
        // slow command, a reload) must not make a flip queued just now look overdue.
        schedule.presented(at: max(time, now()))
        if newScene == .unpainted { newScene = .queued }
        inputFrames.queued()
        lastPaintSeconds = seconds
        // Render late plans for the whole call: waking, painting, copying, queueing the flip.
        renderLate?.recordPaint(now() - start)
    }

    /// The dial's events go out as event lines through the service (commands start on
    /// `activated`), or as log lines without one.
    func report(_ events: [DialEvent]) {
        tellLogging(.dialEvents(events, frames: schedule.framesQueued), at: now())
    }

    /// Carries out what the behaviour timers and the screen's owner decided (the owner has
    /// already switched the output and backlight; the picture follows here).
    func apply(_ actions: [BehaviourAction], at time: Double) throws {
        for action in actions {
            switch action {
            case .returnToDefault:
                report(dial.returnToTop(at: time))
                try frameIfDue(at: time)
            case .repaint:
                try repaint(at: time)
            }
        }
    }
}

/// A dial without rings as the loop drives it (`bench`, the tests): the menu's ways between
/// rings do not apply to it.
extension Dial: DialDriving {
    package func returnToTop(at time: Double) -> [DialEvent] { [] }
    package func select(path: MenuPath, at time: Double) -> [DialEvent]? { nil }
    package var selectedPath: MenuPath? { nil }
}
