import Testing
@testable import KioskSeams

@Suite struct LatencyStatsTests {
    @Test func noSamplesNoSummary() {
        #expect(LatencyStats().summary == nil)
    }

    @Test func nearestRankPercentilesAndMax() {
        var s = LatencyStats()
        // 1..100 ms, shuffled: p50 is the 50th, p95 the 95th smallest.
        for i in (1...100).map({ ($0 * 37) % 100 + 1 }) { s.record(Double(i) / 1000) }
        let sum = s.summary
        #expect(sum?.count == 100)
        #expect(sum.map { abs($0.p50 - 0.050) < 1e-12 } == true)
        #expect(sum.map { abs($0.p95 - 0.095) < 1e-12 } == true)
        #expect(sum.map { abs($0.max - 0.100) < 1e-12 } == true)
    }

    @Test func oneSampleIsEveryFigure() {
        var s = LatencyStats()
        s.record(0.02)
        #expect(s.summary == .init(p50: 0.02, p95: 0.02, max: 0.02, count: 1))
    }

    @Test func memoryIsBoundedButMaxAndCountCoverEverySample() {
        var s = LatencyStats(capacity: 10)
        s.record(1.0)  // an early outlier, pushed out of the window
        for _ in 0..<1000 { s.record(0.01) }
        let sum = s.summary
        #expect(sum?.count == 1001)
        #expect(sum?.max == 1.0)
        #expect(sum?.p95 == 0.01)
        #expect(sum?.p50 == 0.01)
    }

    @Test func windowKeepsTheNewestSamples() {
        var s = LatencyStats(capacity: 4)
        for v in [0.5, 0.5, 0.5, 0.5, 0.001, 0.002, 0.003, 0.004] { s.record(v) }
        #expect(s.summary?.p50 == 0.002)
        #expect(s.summary?.p95 == 0.004)
    }

    @Test func nonFiniteIsDroppedAndResetForgets() {
        var s = LatencyStats()
        s.record(.nan)
        s.record(.infinity)
        #expect(s.summary == nil)
        s.record(0.016)
        s.reset()
        #expect(s.summary == nil)
        #expect(s.count == 0)
        s.record(0.004)
        #expect(s.summary?.max == 0.004)
    }
}

@Suite struct RenderLateScheduleTests {
    let period = 1.0 / 60

    @Test func noHistoryPaintsAtOnce() {
        #expect(RenderLateSchedule().paintStart(afterFlipAt: 10, refreshPeriod: period) == nil)
    }

    @Test func startIsNextVblankMinusPaintAndMargin() {
        var s = RenderLateSchedule(margin: 0.002)
        s.recordPaint(0.003)
        let start = s.paintStart(afterFlipAt: 10, refreshPeriod: period)
        #expect(start.map { abs($0 - (10 + period - 0.005)) < 1e-12 } == true)
    }

    @Test func aSlowPaintMovesTheStartEarlier() {
        var s = RenderLateSchedule()
        s.recordPaint(0.002)
        let fast = s.paintStart(afterFlipAt: 5, refreshPeriod: period)
        s.recordPaint(0.008)
        s.recordPaint(0.002)  // the slow one still counts: the prediction is the recent maximum
        let slow = s.paintStart(afterFlipAt: 5, refreshPeriod: period)
        #expect(fast != nil && slow != nil)
        #expect(abs((fast ?? 0) - (slow ?? 0) - 0.006) < 1e-12)
    }

    @Test func aSlowPaintIsForgottenAfterTheHistory() {
        var s = RenderLateSchedule()
        s.recordPaint(0.010)
        for _ in 0..<RenderLateSchedule.historyLength { s.recordPaint(0.001) }
        #expect(s.predictedPaint == 0.001)
    }

    @Test func aPredictionLongerThanAPeriodPaintsAtOnce() {
        var s = RenderLateSchedule(margin: 0.002)
        s.recordPaint(0.020)
        #expect(s.paintStart(afterFlipAt: 1, refreshPeriod: period) == nil)
        // Paint plus margin filling the period exactly leaves no time to wait either.
        var t = RenderLateSchedule(margin: 0.002)
        t.recordPaint(period - 0.002)
        #expect(t.paintStart(afterFlipAt: 1, refreshPeriod: period) == nil)
    }

    @Test func anUnusablePeriodPaintsAtOnce() {
        var s = RenderLateSchedule()
        s.recordPaint(0.001)
        #expect(s.paintStart(afterFlipAt: 1, refreshPeriod: 0) == nil)
        #expect(s.paintStart(afterFlipAt: 1, refreshPeriod: .nan) == nil)
        #expect(s.paintStart(afterFlipAt: .infinity, refreshPeriod: period) == nil)
    }

    @Test func badPaintTimesAreDropped() {
        var s = RenderLateSchedule()
        s.recordPaint(-1)
        s.recordPaint(.nan)
        #expect(s.predictedPaint == nil)
    }
}

@Suite struct InputFrameTrackerTests {
    @Test func aFrameReportsTheNewestSampleFedBeforeItWasQueued() {
        var t = InputFrameTracker()
        t.fed(inputAt: 1.000)
        t.fed(inputAt: 1.010)
        t.queued()
        t.fed(inputAt: 1.020)  // after the frame was queued: the next frame's
        #expect(t.shown() == 1.010)
        t.queued()
        #expect(t.shown() == 1.020)
    }

    @Test func framesWithoutNewInputHaveNoLatency() {
        var t = InputFrameTracker()
        t.queued()
        #expect(t.shown() == nil)  // nothing fed yet
        t.fed(inputAt: 2.0)
        t.queued()
        #expect(t.shown() == 2.0)
        t.queued()  // the fling coasts on
        #expect(t.shown() == nil)
        #expect(t.shown() == nil)  // a second event for one frame counts once
    }

    @Test func anOlderSampleFromAnotherDeviceDoesNotGoBack() {
        var t = InputFrameTracker()
        t.fed(inputAt: 3.0)
        t.fed(inputAt: 2.5)
        t.fed(inputAt: .nan)
        t.queued()
        #expect(t.shown() == 3.0)
    }

    @Test func aFrameQueuedAgainBeforeItsFlipKeepsTheInputOfTheOneItReplaces() {
        // An overdue flip: the frame is queued again; the first was never shown.
        var t = InputFrameTracker()
        t.fed(inputAt: 4.0)
        t.queued()
        t.queued()
        #expect(t.shown() == 4.0)
        t.queued()
        #expect(t.shown() == nil)
    }

    @Test func inputOfAFrameLostWithTheOutputIsNotCounted() {
        var t = InputFrameTracker()
        t.fed(inputAt: 5.0)
        t.queued()
        t.outputLost()
        t.queued()  // the repaint after resuming shows nothing new
        #expect(t.shown() == nil)
        t.fed(inputAt: 9.0)
        t.queued()
        #expect(t.shown() == 9.0)
    }
}

/// FrameSchedule's render-late state: after a flip event the frame for the moving dial waits
/// until the planned start, on a fake clock.
@Suite struct FrameScheduleRenderLateTests {
    private func awaiting() -> FrameSchedule {
        var s = FrameSchedule()
        s.presented(at: 1.0)
        return s
    }

    @Test func aFlipWithAPlannedStartWaitsUntilIt() {
        var s = awaiting()
        // Binary fractions, so the milliseconds come out exact.
        #expect(s.flipShown(dialNeedsFrame: true, paintAt: 1.25) == .wait(until: 1.25))
        #expect(s.state == .paintingAt(1.25))
        #expect(!s.awaitsFlip(flipPending: false))
        #expect(s.decision(at: 1.125, flipPending: false) == .wait(until: 1.25))
        #expect(s.pollTimeout(now: 1.125, deadlines: [], flipPending: false) == 125)
        #expect(s.pollTimeout(now: 1.125, deadlines: [1.25 + 1], flipPending: false) == 125)
        #expect(s.decision(at: 1.25, flipPending: false) == .present(.dialMoves))
        s.presented(at: 1.25)
        #expect(s.awaitsFlip(flipPending: true))
    }

    @Test func inputAndRepaintsDuringTheWaitJoinThePlannedFrame() {
        var s = awaiting()
        _ = s.flipShown(dialNeedsFrame: true, paintAt: 1.030)
        #expect(s.dialChanged(dialNeedsFrame: true, flipPending: false) == nil)
        #expect(s.repaintRequested(flipPending: false) == nil)
        #expect(s.refreshRequested(flipPending: false) == nil)
        #expect(s.state == .paintingAt(1.030))
    }

    @Test func withoutAPlannedStartOrWithoutMotionItIsFlipShown() {
        var now = awaiting()
        #expect(now.flipShown(dialNeedsFrame: true, paintAt: nil) == .present(.dialMoves))
        var rest = awaiting()
        #expect(rest.flipShown(dialNeedsFrame: false, paintAt: 1.030) == .sleep)
        #expect(rest.state == .idle)
        var repaint = awaiting()
        _ = repaint.repaintRequested(flipPending: true)
        #expect(repaint.flipShown(dialNeedsFrame: false, paintAt: 1.030) == .present(.repaint))
        var stale = FrameSchedule()
        stale.suspended()
        #expect(stale.flipShown(dialNeedsFrame: true, paintAt: 1.030) == .sleep)
        #expect(stale.state == .suspended)
    }

    @Test func aLostOutputCancelsTheWait() {
        var s = awaiting()
        _ = s.flipShown(dialNeedsFrame: true, paintAt: 1.030)
        s.suspended()
        #expect(s.decision(at: 2, flipPending: false) == .sleep)
    }
}

@Suite struct RecentValuesTests {
    @Test func keepsTheNewestCapacityValues() {
        var r = RecentValues(capacity: 3)
        for v in [1.0, 2, 3, 4, 5] { r.append(v) }
        #expect(r.values.sorted() == [3, 4, 5])
        r.removeAll()
        #expect(r.values.isEmpty)
        r.append(7)
        #expect(r.values == [7])
        #expect(RecentValues(capacity: 0).capacity == 1)
    }
}
