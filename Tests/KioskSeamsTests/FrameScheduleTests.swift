import Testing
@testable import KioskSeams

/// Every transition of the loop's schedule, on a fake clock (times are plain numbers). Whether
/// a flip is pending is the display's answer, passed in as `flipPending` (`pending`: one is,
/// `none`: none is), as the loop passes its presenter's `isFlipPending`.
@Suite struct FrameScheduleTests {
    private let pending = true, none = false

    /// A schedule with one frame queued at `t`.
    private func queued(at t: Double = 10) -> FrameSchedule {
        var s = FrameSchedule()
        s.presented(at: t)
        return s
    }

    @Test func startsIdleAndSleeps() {
        let s = FrameSchedule()
        #expect(s.state == .idle)
        #expect(s.decision(at: 0, flipPending: none) == .sleep)
        #expect(s.pollTimeout(now: 0, deadlines: [], flipPending: none) == -1)
        #expect(!s.awaitsFlip(flipPending: none) && !s.hasShownAFrame)
    }

    @Test func anOutputSwitchedOffRestsWithNothingAwaited() {
        // Switched off while a frame was queued (its flip came during the power-off, and the
        // display dropped its answer): no flip is awaited and poll sleeps. Whether a moving dial
        // paints is the screen's look (the loop passes dialNeedsFrame false while dark).
        var s = queued(at: 10)
        s.outputSwitchedOff()
        #expect(s.state == .idle && s.afterFlip == .dialDecides)
        // The display dropped the pending flip with the power-off.
        #expect(!s.awaitsFlip(flipPending: none))
        #expect(s.decision(at: 100, flipPending: none) == .sleep)
        #expect(s.pollTimeout(now: 100, deadlines: [], flipPending: none) == -1)
        #expect(s.dialChanged(dialNeedsFrame: false, flipPending: none) == nil)
        #expect(s.repaintRequested(flipPending: none) == .repaint)
        var gone = FrameSchedule()
        gone.suspended()
        gone.outputSwitchedOff()
        #expect(gone.state == .suspended, "a suspended output stays suspended")
    }

    @Test func aQueuedFrameWaitsForItsFlipUntilTheTimeout() {
        let s = queued(at: 10)
        #expect(s.state == .idle && s.queuedAt == 10 && s.afterFlip == .dialDecides)
        #expect(s.awaitsFlip(flipPending: pending))
        #expect(s.framesQueued == 1)
        #expect(s.decision(at: 11, flipPending: pending) == .wait(until: 12))
        #expect(s.pollTimeout(now: 11, deadlines: [], flipPending: pending) == 1000)
        #expect(s.decision(at: 12, flipPending: pending) == .present(.flipOverdue))
        #expect(s.pollTimeout(now: 12.5, deadlines: [], flipPending: pending) == 0)
        // The display's answer decides: with no flip pending there is nothing to be overdue.
        #expect(s.decision(at: 12, flipPending: none) == .sleep)
        #expect(!s.awaitsFlip(flipPending: none))
    }

    @Test func aFlipDrivesTheNextFrameWhileTheDialMovesThenRests() {
        var s = queued()
        #expect(s.flipShown(dialNeedsFrame: true) == .present(.dialMoves))
        #expect(s.hasShownAFrame)
        s.presented(at: 10.016)
        #expect(s.flipShown(dialNeedsFrame: false) == .sleep)
        #expect(s.state == .idle)
        #expect(s.framesQueued == 2)
    }

    @Test func aStaleFlipChangesNothing() {
        // A flip event while a retry waits or the output is suspended is not the answer the
        // schedule waits for.
        var s = FrameSchedule()
        _ = s.presentFailed(.busy, at: 1)
        #expect(!s.takesFlipEvent)
        #expect(s.flipShown(dialNeedsFrame: true) == .sleep)
        #expect(s.state == .retrying(at: 1 + 1.0 / 60) && !s.hasShownAFrame)
        s.suspended()
        #expect(s.flipShown(dialNeedsFrame: true) == .sleep)
        #expect(s.state == .suspended)
    }

    @Test func theDialMovingQueuesAFrameOnlyWhenNothingIsQueued() {
        var s = FrameSchedule()
        #expect(s.dialChanged(dialNeedsFrame: true, flipPending: none) == .dialMoves)
        #expect(s.dialChanged(dialNeedsFrame: false, flipPending: none) == nil)
        s.presented(at: 1)
        #expect(s.dialChanged(dialNeedsFrame: true, flipPending: pending) == nil, "the flip event brings the next frame")
        s.suspended()
        #expect(s.dialChanged(dialNeedsFrame: true, flipPending: none) == nil)
    }

    @Test func aRepaintWhileAFrameIsQueuedPaintsOnceMoreAfterIt() {
        var s = queued()
        #expect(s.repaintRequested(flipPending: pending) == nil)
        #expect(s.state == .idle && s.afterFlip == .repaint)
        #expect(s.flipShown(dialNeedsFrame: false) == .present(.repaint))
        s.presented(at: 10.02)
        #expect(s.flipShown(dialNeedsFrame: false) == .sleep)
        #expect(s.state == .idle)
    }

    @Test func aRepaintAtRestPaintsNow() {
        var s = FrameSchedule()
        #expect(s.repaintRequested(flipPending: none) == .repaint)
        s.suspended()
        #expect(s.repaintRequested(flipPending: none) == nil, "resumed paints anyway")
    }

    @Test func theBlackFrameIsTheLastWhileTheDialIsToldNotToMove() {
        // The black frame of a blank is queued; the loop passes dialNeedsFrame false while dark.
        var s = queued()
        #expect(s.flipShown(dialNeedsFrame: false) == .sleep)
        #expect(s.state == .idle)
        #expect(s.decision(at: 100, flipPending: none) == .sleep)
        #expect(s.dialChanged(dialNeedsFrame: false, flipPending: none) == nil)
        #expect(s.repaintRequested(flipPending: none) == .repaint, "a wake paints")
    }

    @Test func aWakeWhileTheBlackFrameIsQueuedPaintsAfterIt() {
        var s = queued()
        #expect(s.repaintRequested(flipPending: pending) == nil)
        #expect(s.afterFlip == .repaint)
        #expect(s.flipShown(dialNeedsFrame: false) == .present(.repaint))
    }

    @Test func aBusyFailureRetriesAfterARefreshAndBacksOff() {
        var s = FrameSchedule(refreshPeriod: 0.01)
        #expect(s.presentFailed(.busy, at: 5) == .retry(after: 0.01))
        #expect(s.state == .retrying(at: 5.01))
        #expect(s.decision(at: 5, flipPending: none) == .wait(until: 5.01))
        #expect(s.pollTimeout(now: 5, deadlines: [], flipPending: none) == 10)
        #expect(s.decision(at: 5.01, flipPending: none) == .present(.retry))
        #expect(s.presentFailed(.busy, at: 5.01) == .retry(after: 0.02))
        #expect(s.failuresInARow == 2)
        s.presented(at: 5.04)
        #expect(s.failuresInARow == 0)
        #expect(s.awaitsFlip(flipPending: pending))
    }

    @Test func aVanishedDeviceGivesUpAtOnce() {
        var s = FrameSchedule()
        #expect(s.presentFailed(.gone, at: 1) == .giveUp)
        #expect(s.decision(at: 2, flipPending: none) == .sleep)
    }

    @Test func newsDuringARetryWaitIsPaintedAtOnce() {
        var s = FrameSchedule()
        _ = s.presentFailed(.busy, at: 1)
        #expect(s.dialChanged(dialNeedsFrame: true, flipPending: none) == .dialMoves)
        #expect(s.repaintRequested(flipPending: none) == .repaint)
        #expect(s.refreshRequested(flipPending: none) == .repaint)
    }

    @Test func suspendedDropsTheRetryAndTheFlipWaitUntilResumed() {
        var s = FrameSchedule()
        _ = s.presentFailed(.busy, at: 1)
        s.suspended()
        #expect(s.decision(at: 100, flipPending: none) == .sleep)
        s = queued(at: 1)
        s.suspended()
        // Whatever the display still says, a suspended schedule waits for no flip.
        #expect(!s.awaitsFlip(flipPending: pending))
        #expect(s.decision(at: 100, flipPending: pending) == .sleep)
        #expect(s.refreshRequested(flipPending: none) == nil)
        #expect(s.resumed() == .resumed)
        #expect(s.state == .idle)
    }

    @Test func aRefreshAddsNoFrameBehindAQueuedOne() {
        var s = FrameSchedule()
        #expect(s.refreshRequested(flipPending: none) == .repaint)
        s.presented(at: 1)
        #expect(s.refreshRequested(flipPending: pending) == nil)
        #expect(s.flipShown(dialNeedsFrame: false) == .sleep)
    }

    @Test func pollSleepsUntilTheEarliestDeadlineRoundedUp() {
        let s = queued(at: 10)
        #expect(s.pollTimeout(now: 10, deadlines: [10.5], flipPending: pending) == 500)
        #expect(s.pollTimeout(now: 10, deadlines: [13], flipPending: pending) == 2000)
        #expect(s.pollTimeout(now: 10, deadlines: [10.0001], flipPending: pending) == 1, "never wakes early")
        #expect(s.pollTimeout(now: 10, deadlines: [9], flipPending: pending) == 0)
        #expect(FrameSchedule().pollTimeout(now: 0, deadlines: [1e12], flipPending: none) == Int32.max)
    }
}
