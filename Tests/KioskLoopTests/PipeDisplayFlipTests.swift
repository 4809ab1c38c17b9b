import Testing
import KioskSeams
import KioskTestSupport

/// The loop tests' pipe display holds "a flip is pending" as the real displays do, so the
/// schedule that asks it sees what it would see on KMS: a successful present leaves a flip
/// pending, one reported `.frameShown` answers it, a `.frameShown` with none pending is stale
/// and dropped (as KMSDisplay drops one), and a lost output drops the pending flip.
@Suite struct PipeDisplayFlipTests {
    private func present(_ display: PipeDisplay) throws {
        try display.present { _ in nil }
    }

    @Test func aPresentIsAnsweredByOneFlipEvent() throws {
        let display = PipeDisplay(width: 4, height: 2)
        #expect(!display.isFlipPending)
        try present(display)
        #expect(display.isFlipPending)
        display.report(.frameShown(time: 1))
        #expect(try display.drainDisplayEvents() == [.frameShown(time: 1)])
        #expect(!display.isFlipPending)
    }

    @Test func aFlipEventWithNonePendingIsDropped() throws {
        let display = PipeDisplay(width: 4, height: 2)
        display.report(.frameShown(time: 1))
        #expect(try display.drainDisplayEvents().isEmpty)
        try present(display)
        display.report(.frameShown(time: 2))
        display.report(.frameShown(time: 3))
        #expect(try display.drainDisplayEvents() == [.frameShown(time: 2)], "one answer per present")
    }

    @Test func aFailedPresentLeavesNoFlipAndALostOutputDropsIt() throws {
        let display = PipeDisplay(width: 4, height: 2)
        display.failures = [16]
        #expect(throws: (any Error).self) { try present(display) }
        #expect(!display.isFlipPending)
        try present(display)
        display.report(.suspended)
        #expect(try display.drainDisplayEvents() == [.suspended])
        #expect(!display.isFlipPending)
    }
}
