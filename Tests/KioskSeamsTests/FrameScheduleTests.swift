import Testing
@testable import KioskSeams

/// Every transition of the loop's schedule, on a fake clock (times are plain numbers).
@Suite struct FrameScheduleTests {
    /// A schedule with one frame queued at `t`.
    private func queued(at t: Double = 10) -> FrameSchedule {
        var s = FrameSchedule()
        s.presented(at: t)
        return s
    }

    @Test func startsIdleAndSleeps() {
        let s = FrameSchedule()
        #expect(s.state == .idle)
        #expect(s.decision(at: 0) == .sleep)
        #expect(s.pollTimeout(now: 0, deadlines: []) == -1)
        #expect(!s.awaitsFlip && !s.hasShownAFrame)
    }

    @Test func anOutputSwitchedOffRestsWithNothingAwaited() {
        // Switched off while a frame was queued (its flip came during the power-off, and the
        // display dropped its answer): no flip is awaited and poll sleeps. Whether a moving dial
        // paints is the screen's look (the loop passes dialNeedsFrame false while dark).
        var s = queued(at: 10)
        s.outputSwitchedOff()
        #expect(s.state == .idle)
        #expect(!s.awaitsFlip)
        #expect(s.decision(at: 100) == .sleep)
        #expect(s.pollTimeout(now: 100, deadlines: []) == -1)
        #expect(s.dialChanged(dialNeedsFrame: false) == nil)
        #expect(s.repaintRequested() == .repaint)
        var gone = FrameSchedule()
        gone.suspended()
        gone.outputSwitchedOff()
        #expect(gone.state == .suspended, "a suspended output stays suspended")
    }

    @Test func aQueuedFrameWaitsForItsFlipUntilTheTimeout() {
        let s = queued(at: 10)
        #expect(s.state == .awaitingFlip(since: 10, then: .dialDecides))
        #expect(s.awaitsFlip)
        #expect(s.framesQueued == 1)
        #expect(s.decision(at: 11) == .wait(until: 12))
        #expect(s.pollTimeout(now: 11, deadlines: []) == 1000)
        #expect(s.decision(at: 12) == .present(.flipOverdue))
        #expect(s.pollTimeout(now: 12.5, deadlines: []) == 0)
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
        var s = FrameSchedule()
        #expect(s.flipShown(dialNeedsFrame: true) == .sleep)
        #expect(s.state == .idle && !s.hasShownAFrame)
        s.suspended()
        #expect(s.flipShown(dialNeedsFrame: true) == .sleep)
        #expect(s.state == .suspended)
    }

    @Test func theDialMovingQueuesAFrameOnlyWhenNothingIsQueued() {
        var s = FrameSchedule()
        #expect(s.dialChanged(dialNeedsFrame: true) == .dialMoves)
        #expect(s.dialChanged(dialNeedsFrame: false) == nil)
        s.presented(at: 1)
        #expect(s.dialChanged(dialNeedsFrame: true) == nil, "the flip event brings the next frame")
        s.suspended()
        #expect(s.dialChanged(dialNeedsFrame: true) == nil)
    }

    @Test func aRepaintWhileAFrameIsQueuedPaintsOnceMoreAfterIt() {
        var s = queued()
        #expect(s.repaintRequested() == nil)
        #expect(s.state == .awaitingFlip(since: 10, then: .repaint))
        #expect(s.flipShown(dialNeedsFrame: false) == .present(.repaint))
        s.presented(at: 10.02)
        #expect(s.flipShown(dialNeedsFrame: false) == .sleep)
        #expect(s.state == .idle)
    }

    @Test func aRepaintAtRestPaintsNow() {
        var s = FrameSchedule()
        #expect(s.repaintRequested() == .repaint)
        s.suspended()
        #expect(s.repaintRequested() == nil, "resumed paints anyway")
    }

    @Test func theBlackFrameIsTheLastWhileTheDialIsToldNotToMove() {
        // The black frame of a blank is queued; the loop passes dialNeedsFrame false while dark.
        var s = queued()
        #expect(s.flipShown(dialNeedsFrame: false) == .sleep)
        #expect(s.state == .idle)
        #expect(s.decision(at: 100) == .sleep)
        #expect(s.dialChanged(dialNeedsFrame: false) == nil)
        #expect(s.repaintRequested() == .repaint, "a wake paints")
    }

    @Test func aWakeWhileTheBlackFrameIsQueuedPaintsAfterIt() {
        var s = queued()
        #expect(s.repaintRequested() == nil)
        #expect(s.state == .awaitingFlip(since: 10, then: .repaint))
        #expect(s.flipShown(dialNeedsFrame: false) == .present(.repaint))
    }

    @Test func aBusyFailureRetriesAfterARefreshAndBacksOff() {
        var s = FrameSchedule(refreshPeriod: 0.01)
        #expect(s.presentFailed(.busy, at: 5) == .retry(after: 0.01))
        #expect(s.state == .retrying(at: 5.01))
        #expect(s.decision(at: 5) == .wait(until: 5.01))
        #expect(s.pollTimeout(now: 5, deadlines: []) == 10)
        #expect(s.decision(at: 5.01) == .present(.retry))
        #expect(s.presentFailed(.busy, at: 5.01) == .retry(after: 0.02))
        #expect(s.failuresInARow == 2)
        s.presented(at: 5.04)
        #expect(s.failuresInARow == 0)
        #expect(s.awaitsFlip)
    }

    @Test func aVanishedDeviceGivesUpAtOnce() {
        var s = FrameSchedule()
        #expect(s.presentFailed(.gone, at: 1) == .giveUp)
        #expect(s.decision(at: 2) == .sleep)
    }

    @Test func newsDuringARetryWaitIsPaintedAtOnce() {
        var s = FrameSchedule()
        _ = s.presentFailed(.busy, at: 1)
        #expect(s.dialChanged(dialNeedsFrame: true) == .dialMoves)
        #expect(s.repaintRequested() == .repaint)
        #expect(s.refreshRequested() == .repaint)
    }

    @Test func suspendedDropsTheRetryAndTheFlipWaitUntilResumed() {
        var s = FrameSchedule()
        _ = s.presentFailed(.busy, at: 1)
        s.suspended()
        #expect(s.decision(at: 100) == .sleep)
        s = queued(at: 1)
        s.suspended()
        #expect(!s.awaitsFlip)
        #expect(s.decision(at: 100) == .sleep)
        #expect(s.refreshRequested() == nil)
        #expect(s.resumed() == .resumed)
        #expect(s.state == .idle)
    }

    @Test func aRefreshAddsNoFrameBehindAQueuedOne() {
        var s = FrameSchedule()
        #expect(s.refreshRequested() == .repaint)
        s.presented(at: 1)
        #expect(s.refreshRequested() == nil)
        #expect(s.flipShown(dialNeedsFrame: false) == .sleep)
    }

    @Test func pollSleepsUntilTheEarliestDeadlineRoundedUp() {
        let s = queued(at: 10)
        #expect(s.pollTimeout(now: 10, deadlines: [10.5]) == 500)
        #expect(s.pollTimeout(now: 10, deadlines: [13]) == 2000)
        #expect(s.pollTimeout(now: 10, deadlines: [10.0001]) == 1, "never wakes early")
        #expect(s.pollTimeout(now: 10, deadlines: [9]) == 0)
        #expect(FrameSchedule().pollTimeout(now: 0, deadlines: [1e12]) == Int32.max)
    }
}
