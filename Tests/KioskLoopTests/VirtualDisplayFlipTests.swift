import Testing
@testable import KioskSeams
@testable import KioskLoop

/// "A flip is pending" on the virtual display is its PageFlipState, as on KMSDisplay: one
/// present at a time (the next is refused as the kernel's EBUSY), answered by one flip event at
/// the next vblank; a power-off or a new mode loses the pending flip and its answer.
@Suite struct VirtualDisplayFlipTests {
    private func make(_ clock: VirtualClock) -> VirtualDisplay {
        VirtualDisplay(width: 8, height: 4, timing: .init(refresh: 50)) { clock.now }
    }

    /// The one flip event's time in `events` (nil: not exactly one flip event).
    private func shown(_ events: [DisplayEvent]) -> Double? {
        guard events.count == 1, case .frameShown(let time) = events[0] else { return nil }
        return time
    }

    private func near(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-9 } ?? false }

    private func present(_ display: VirtualDisplay) throws {
        try display.present { _ in nil }
    }

    @Test func onePendingFlipAnsweredByOneEvent() throws {
        let clock = VirtualClock(now: 0.001)
        let display = make(clock)
        #expect(!display.isFlipPending)
        try present(display)
        #expect(display.isFlipPending)
        #expect(near(display.nextEventTime(now: clock.now), 0.02))
        // A second frame over the pending one is what the kernel refuses.
        #expect(throws: VirtualDisplay.RefusedPresent.self) { try present(display) }
        #expect(try display.drainDisplayEvents().isEmpty)
        clock.now = 0.02
        #expect(near(shown(try display.drainDisplayEvents()), 0.02))
        #expect(!display.isFlipPending)
        #expect(display.nextEventTime(now: clock.now) == nil)
        // The next frame is a flip after the shown one, answered at its vblank.
        try present(display)
        #expect(display.isFlipPending)
        clock.now = 0.05
        #expect(near(shown(try display.drainDisplayEvents()), 0.04))
    }

    @Test func aPowerOffLosesThePendingFlipAndItsAnswer() throws {
        let clock = VirtualClock(now: 0.001)
        let display = make(clock)
        try present(display)
        try display.powerOff()
        #expect(!display.isFlipPending)
        clock.now = 0.11
        #expect(try display.drainDisplayEvents().isEmpty)
        try display.powerOn()
        try present(display)
        #expect(display.isFlipPending)
        clock.now = 0.2
        // The frame after the power-on, at the vblank after 0.11; nothing of the lost one.
        #expect(near(shown(try display.drainDisplayEvents()), 0.12))
        #expect(!display.isFlipPending)
    }

    @Test func aNewModeLosesThePendingFlip() throws {
        let clock = VirtualClock(now: 0.001)
        let display = make(clock)
        try present(display)
        display.changeMode(width: 4, height: 8)
        #expect(!display.isFlipPending)
        clock.now = 0.1
        #expect(try display.drainDisplayEvents() == [.suspended, .resized(width: 4, height: 8), .resumed])
        #expect(try display.drainDisplayEvents().isEmpty)
        try present(display)
        #expect(display.isFlipPending)
    }
}
