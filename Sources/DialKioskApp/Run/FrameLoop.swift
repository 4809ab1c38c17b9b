import DialCore
#if canImport(Glibc)
import Glibc
#endif

/// The dial as the loop drives it (DialCore's `Dial`; tests use a scripted one).
protocol DialDriving: AnyObject {
    func handle(_ event: InputEvent) -> [DialEvent]
    func advance(to time: Double) -> [DialEvent]
    var needsFrame: Bool { get }
    var pose: DialPose { get }
}

extension Dial: DialDriving {}

/// What the loop does with VT switch signals (KMSOutput's display + console; absent off a VT).
protocol VTSwitching: AnyObject {
    /// Stop presenting, drop master, let the switch proceed.
    func release() throws -> [DisplayEvent]
    /// Take the VT and master back.
    func acquire() throws -> [DisplayEvent]
}

/// One thread, one poll(): the display's descriptors, the input descriptors, the signalfd and
/// the exit timer. While the dial moves, every `.frameShown(time)` advances it to `time`,
/// paints and queues the next frame; at rest nothing is queued and poll() waits with no
/// timeout until input, a signal or a display change arrives.
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
    let dial: DialDriving
    /// Paints a pose into a scanout buffer (the painter plus the rotated copy).
    let paint: (DialPose, FrameTarget) throws -> Void
    let now: () -> Double
    var vt: VTSwitching?
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

    init(presenter: FramePresenter, displaySources: [DisplayEventSource], inputSources: [InputSource],
         dial: DialDriving, now: @escaping () -> Double,
         paint: @escaping (DialPose, FrameTarget) throws -> Void) {
        self.presenter = presenter
        self.displaySources = displaySources
        self.inputSources = inputSources
        self.dial = dial
        self.now = now
        self.paint = paint
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
            if let ending = try step(timeoutMS: pollTimeoutMS()) { return ending }
        }
    }

    /// -1 (wait for an event) while idle; otherwise until a failed frame is due for another
    /// try or a queued frame's flip event is overdue.
    func pollTimeoutMS() -> Int32 {
        let flipDue = state == .awaitingFrame ? awaitingSince.map { $0 + flipTimeout } : nil
        guard let due = [retryAt, flipDue].compactMap({ $0 }).min() else { return -1 }
        return Int32(max(0, min(10_000, ((due - now()) * 1000).rounded(.up))))
    }

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

    /// One poll() and everything it found. `timeoutMS` -1 waits forever (the only value `run`
    /// uses); tests pass 0.
    func step(timeoutMS: Int32) throws -> Ending? {
        var fds: [pollfd] = []
        for s in displaySources { fds.append(pollfd(fd: s.pollDescriptor, events: Int16(POLLIN), revents: 0)) }
        for s in inputSources { fds.append(pollfd(fd: s.pollDescriptor, events: Int16(POLLIN), revents: 0)) }
        fds.append(pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0))
        fds.append(pollfd(fd: timerFD, events: Int16(POLLIN), revents: 0))
        let r = poll(&fds, nfds_t(fds.count), timeoutMS)
        if r < 0 {
            if errno == EINTR { return nil }
            throw CommandFailure("poll failed: \(String(cString: strerror(errno)))", status: .osError)
        }
        if r == 0 {
            try retryIfDue()
            return nil
        }
        let ready = fds.map { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }
        let signalIndex = displaySources.count + inputSources.count
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
                report(dial.handle(e))
                gotInput = true
            }
        }
        if gotInput { try frameIfDue(at: now()) }
        try retryIfDue()
        return nil
    }

    /// The display's news.
    func handle(_ event: DisplayEvent) throws {
        switch event {
        case .frameShown(let time):
            guard state == .awaitingFrame else { return }
            if let line = stats?.frameShown(at: time, paintSeconds: lastPaintSeconds) { log(line) }
            report(dial.advance(to: time))
            if dial.needsFrame {
                try presentFrame()
            } else {
                state = .idle
                if let line = stats?.wentIdle(at: time) { log(line) }
            }
        case .suspended:
            state = .suspended
            log("display: suspended")
        case .resumed:
            log("display: resumed")
            state = .idle
            report(dial.advance(to: now()))
            try presentFrame()
        }
    }

    private func handle(_ signal: LoopSignal) throws -> Ending? {
        switch signal {
        case .terminate:
            return .signal
        case .hangUp:
            if state == .idle { try presentFrame() }
        case .vtRelease:
            if let vt { for e in try vt.release() { try handle(e) } }
        case .vtAcquire:
            if let vt { for e in try vt.acquire() { try handle(e) } }
        }
        return nil
    }

    /// Input arrived: when resting and the dial now moves, queue a frame at once.
    private func frameIfDue(at time: Double) throws {
        guard state == .idle, dial.needsFrame else { return }
        report(dial.advance(to: time))
        try presentFrame()
    }

    private func presentFrame() throws {
        let pose = dial.pose
        var seconds = 0.0
        do {
            try presenter.present { target in
                let before = now()
                try paint(pose, target)
                seconds = now() - before
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
        lastPaintSeconds = seconds
        presented += 1
        state = .awaitingFrame
    }

    private func report(_ events: [DialEvent]) {
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
