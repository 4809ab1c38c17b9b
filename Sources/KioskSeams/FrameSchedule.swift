/// When the run loop queues a frame, as a value with pure transitions: every scheduling decision
/// of the loop (paint now, wait until a time, sleep until something happens) is made here and
/// unit-tested on a fake clock; the loop only paints, polls and reports.
///
/// One frame is queued at a time: a queued frame's flip event drives the next one while the
/// dial moves; at rest nothing is queued and the loop sleeps in poll(). Whether a flip is
/// pending is not held here: the display owns it (its `PageFlipState`, `FramePresenter`'s
/// `isFlipPending`), and the methods that depend on it take the display's answer as
/// `flipPending`. Every successful present leaves a flip pending on the display and each
/// pending flip is answered by one `.frameShown` (or dropped with the output), so the display's
/// answer is the only one. Whether the screen is
/// dark is not decided here: `ScreenLook` (ScreenPower) owns it, and the loop tells the schedule
/// through `dialNeedsFrame` (false while dark) and `outputSwitchedOff`.
public struct FrameSchedule: Sendable, Equatable {
    /// Where the loop stands with the display.
    public enum State: Sendable, Equatable {
        /// No frame owed: either nothing is queued and the picture on the glass is current
        /// (poll sleeps), or the display's flip is pending and its event decides the next frame
        /// (`afterFlip`).
        case idle
        /// A frame failed to queue; it is tried again at `at`.
        case retrying(at: Double)
        /// Render late: the flip event came while the dial moves, and the next frame is painted
        /// at `at` (as late as it still makes the next vblank); input until then goes into it.
        case paintingAt(Double)
        /// The output is gone (VT released, unplugged): nothing is presented until `resumed`.
        case suspended
    }

    /// What the flip event of the queued frame leads to.
    public enum AfterFlip: Sendable, Equatable {
        /// Another frame while the dial moves, else rest.
        case dialDecides
        /// The picture changed outside the dial while the frame was queued: paint once more.
        case repaint
    }

    /// Why a frame is queued now.
    public enum Reason: Sendable, Equatable {
        /// The dial moves (a flip event, input, a command).
        case dialMoves
        /// Something other than the dial changed the picture (dim, blank, wake, reload, SIGHUP).
        case repaint
        /// The output came back.
        case resumed
        /// A frame that failed to queue is tried again.
        case retry
        /// The queued frame's flip event has not come after `flipTimeout`: an unbound or wedged
        /// card never answers, and waiting for it would hang the kiosk.
        case flipOverdue
    }

    /// What the loop does next.
    public enum Decision: Sendable, Equatable {
        /// Paint and queue a frame now.
        case present(Reason)
        /// Nothing to paint yet; poll may sleep until this time at the latest.
        case wait(until: Double)
        /// Nothing to paint until something happens (input, a signal, a display event).
        case sleep
    }

    public private(set) var state: State = .idle
    /// When the last frame was queued: a flip the display still has pending after
    /// `flipTimeout` from here is overdue.
    public private(set) var queuedAt = 0.0
    /// What the pending flip's event leads to.
    public private(set) var afterFlip: AfterFlip = .dialDecides
    /// Frames queued since start (the event lines' frame count).
    public private(set) var framesQueued = 0
    /// True once a flip event has been seen: the first frame is on the glass (READY=1).
    public private(set) var hasShownAFrame = false
    /// Frames that failed to queue in a row.
    public private(set) var failuresInARow = 0
    public var retryPolicy: PresentRetryPolicy
    /// The display's refresh period, the unit of a busy CRTC's back-off.
    public var refreshPeriod: Double
    /// How long a queued frame's flip event may take before the frame is queued again.
    public var flipTimeout: Double

    public init(retryPolicy: PresentRetryPolicy = PresentRetryPolicy(), refreshPeriod: Double = 1.0 / 60,
                flipTimeout: Double = 2.0) {
        self.retryPolicy = retryPolicy
        self.refreshPeriod = refreshPeriod
        self.flipTimeout = flipTimeout
    }

    /// True while the display's flip (`flipPending`) is what the loop waits for.
    public func awaitsFlip(flipPending: Bool) -> Bool {
        state == .idle && flipPending
    }

    /// True when a flip event is the answer the schedule waits for: in any other state (a retry
    /// or a late paint planned, the output suspended) it is stale and the loop ignores it.
    public var takesFlipEvent: Bool { state == .idle }

    /// Nothing is queued and the output is there: a new frame may be queued at once. A frame
    /// waiting for its retry counts (new news replaces the failed frame).
    private func resting(flipPending: Bool) -> Bool {
        switch state {
        case .idle: return !flipPending
        case .retrying: return true
        case .paintingAt, .suspended: return false
        }
    }

    // MARK: What happened

    /// A frame was queued at `now`.
    public mutating func presented(at now: Double) {
        framesQueued += 1
        failuresInARow = 0
        queuedAt = now
        afterFlip = .dialDecides
        state = .idle
    }

    /// A frame failed to queue at `now`: retry it after the policy's delay, or give up.
    public mutating func presentFailed(_ failure: PresentFailure, at now: Double) -> PresentRecovery {
        failuresInARow += 1
        let recovery = retryPolicy.recovery(for: failure, failuresInARow: failuresInARow, refreshPeriod: refreshPeriod)
        if case .retry(let delay) = recovery { state = .retrying(at: now + delay) }
        return recovery
    }

    /// A frame that failed to queue is given up without leaving the loop (its scene was taken
    /// back): nothing is queued or retried; the next news queues a frame.
    public mutating func frameDropped() {
        failuresInARow = 0
        state = .idle
    }

    /// The display's pending flip was answered (the loop has advanced the dial to its time; it
    /// asks only when `takesFlipEvent`): the next frame, or rest. A stale event changes nothing.
    /// `dialNeedsFrame` is false while the screen is dark: the black frame is the last one.
    public mutating func flipShown(dialNeedsFrame: Bool) -> Decision {
        guard takesFlipEvent else { return .sleep }
        hasShownAFrame = true
        let then = afterFlip
        afterFlip = .dialDecides
        switch then {
        case .repaint:
            return .present(.repaint)
        case .dialDecides where dialNeedsFrame:
            return .present(.dialMoves)
        case .dialDecides:
            state = .idle
        }
        return .sleep
    }

    /// `flipShown` with render late: a frame for the moving dial waits until `paintAt` (from
    /// `RenderLateSchedule`; nil paints at once) instead of being queued now. A repaint, a
    /// blanked screen and rest go as `flipShown` says.
    public mutating func flipShown(dialNeedsFrame: Bool, paintAt: Double?) -> Decision {
        let decision = flipShown(dialNeedsFrame: dialNeedsFrame)
        guard decision == .present(.dialMoves), let paintAt else { return decision }
        state = .paintingAt(paintAt)
        return .wait(until: paintAt)
    }

    /// Input or a command set the dial moving (`dialNeedsFrame`; false while the screen is
    /// dark, which only a wake repaints): a frame at once when nothing is queued; otherwise the
    /// queued frame's flip event brings the next one.
    public func dialChanged(dialNeedsFrame: Bool, flipPending: Bool) -> Reason? {
        guard dialNeedsFrame, resting(flipPending: flipPending) else { return nil }
        return .dialMoves
    }

    /// The picture changed outside the dial (dim, blank, wake, reload): a frame now when
    /// nothing is queued, else once more after the queued one.
    public mutating func repaintRequested(flipPending: Bool) -> Reason? {
        switch state {
        case .idle where flipPending:
            afterFlip = .repaint
            return nil
        case .idle, .retrying:
            return .repaint
        case .suspended:
            return nil  // `resumed` paints anyway
        case .paintingAt:
            return nil  // the frame about to be painted shows the new picture
        }
    }

    /// The output was switched off (a blank that powers it down, after its pending flip, whose
    /// event the display drops): no frame is owed or awaited, and nothing is retried.
    public mutating func outputSwitchedOff() {
        if state != .suspended { state = .idle }
        afterFlip = .dialDecides
    }

    /// SIGHUP without a service: repaint when nothing is queued; a queued frame shows the
    /// current picture already.
    public func refreshRequested(flipPending: Bool) -> Reason? {
        resting(flipPending: flipPending) ? .repaint : nil
    }

    /// The output is gone: stale flip events and retries are dropped until `resumed`.
    public mutating func suspended() {
        state = .suspended
    }

    /// The output is back: paint the current picture (the kernel forgot the old one).
    public mutating func resumed() -> Reason {
        state = .idle
        return .resumed
    }

    // MARK: What next

    /// Whether a retry or an overdue flip (`flipPending`: the display's answer) is due at `now`,
    /// or until when poll may sleep.
    public func decision(at now: Double, flipPending: Bool) -> Decision {
        switch state {
        case .retrying(let at):
            return now >= at ? .present(.retry) : .wait(until: at)
        case .paintingAt(let at):
            return now >= at ? .present(.dialMoves) : .wait(until: at)
        case .idle where flipPending:
            return now - queuedAt >= flipTimeout ? .present(.flipOverdue) : .wait(until: queuedAt + flipTimeout)
        case .idle, .suspended:
            return .sleep
        }
    }

    /// poll()'s timeout in milliseconds at `now`: until the earliest of this schedule's time and
    /// `deadlines` (the other sources' wake-ups), rounded up so poll never wakes early; 0 when
    /// one is due; -1 (until an event) when there is none.
    public func pollTimeout(now: Double, deadlines: [Double], flipPending: Bool) -> Int32 {
        FrameSchedule.timeoutMS(until: deadline(now: now, deadlines: deadlines, flipPending: flipPending), now: now)
    }

    /// The earliest of this schedule's time and `deadlines` at `now` (`now` when a frame is due);
    /// nil when there is none: the loop waits for an event.
    public func deadline(now: Double, deadlines: [Double], flipPending: Bool) -> Double? {
        var times = deadlines
        switch decision(at: now, flipPending: flipPending) {
        case .present: return now
        case .wait(let until): times.append(until)
        case .sleep: break
        }
        return times.min()
    }

    /// poll()'s timeout in milliseconds from `now` until `deadline`, rounded up so poll never
    /// wakes early; 0 when it is due; -1 (until an event) for none.
    public static func timeoutMS(until deadline: Double?, now: Double) -> Int32 {
        guard let deadline else { return -1 }
        let ms = ((deadline - now) * 1000).rounded(.up)
        guard ms > 0 else { return 0 }
        return Int32(min(ms, Double(Int32.max)))
    }
}
