import DialCore
import Testing
@testable import KioskSeams
@testable import KioskConfiguration
@testable import KioskLoop
import KioskTestSupport

/// The behaviour timers on a fake clock.
@Suite struct IdleScheduleTests {
    private func touch(_ phase: TouchPhase, _ t: Double, slot: Int = 0) -> InputEvent {
        .touch(TouchEvent(slot: slot, phase: phase, x: 10, y: 10, time: t))
    }

    @Test func returnsToDefaultOnceAfterTheIdleSeconds() {
        var s = IdleSchedule(behaviour: KioskConfig.Behaviour(returnAfter: 30), start: 100)
        #expect(s.nextDeadline == 130)
        #expect(s.advance(to: 129.9).isEmpty)
        #expect(s.advance(to: 130) == [.returnToDefault])
        #expect(s.advance(to: 500).isEmpty)
        #expect(s.nextDeadline == nil)
        #expect(s.input(touch(.down, 600)) == (true, []))
        #expect(s.nextDeadline == 630)
    }

    @Test func dimsThenWakesOnTouchAndSwallowsThatTouch() {
        var s = IdleSchedule(behaviour: KioskConfig.Behaviour(idle: .dim, idleAfterMinutes: 2), start: 0)
        #expect(s.nextDeadline == 120)
        #expect(s.advance(to: 120) == [.dim])
        #expect(s.screen == .dimmed)
        #expect(s.nextDeadline == nil)
        #expect(s.input(touch(.down, 200)) == (false, [.wake]))
        #expect(s.screen == .awake)
        #expect(s.input(touch(.motion, 200.1)) == (false, []))
        #expect(s.input(touch(.up, 200.2)) == (false, []))
        // The next touch is the dial's again.
        #expect(s.input(touch(.down, 201)) == (true, []))
        #expect(s.nextDeadline == 321)
    }

    @Test func blankWithoutWakeOnTouchIgnoresTouchesUntilShow() {
        var s = IdleSchedule(behaviour: KioskConfig.Behaviour(idle: .blank, idleAfterMinutes: 1, wakeOnTouch: false), start: 0)
        #expect(s.advance(to: 60) == [.blank])
        #expect(s.input(touch(.down, 70)) == (false, []))
        #expect(s.screen == .blanked)
        #expect(s.wake(at: 80) == [.wake])
        #expect(s.screen == .awake)
        #expect(s.nextDeadline == 140)
    }

    @Test func commandsWakeAndPassOn() {
        var s = IdleSchedule(behaviour: KioskConfig.Behaviour(idle: .dim, idleAfterMinutes: 1), start: 0)
        _ = s.advance(to: 61)
        #expect(s.input(.command(.step(1), time: 62)) == (true, [.wake]))
    }

    @Test func neverWhenNotConfigured() {
        var s = IdleSchedule(behaviour: KioskConfig.Behaviour(), start: 0)
        #expect(s.nextDeadline == nil)
        #expect(s.advance(to: 1e9).isEmpty)
        var none = IdleSchedule(behaviour: KioskConfig.Behaviour(idle: .none, idleAfterMinutes: 1), start: 0)
        #expect(none.nextDeadline == nil)
        #expect(none.advance(to: 1e9).isEmpty)
    }

    @Test func timestampsGoingBackwardsDoNotRewindActivity() {
        var s = IdleSchedule(behaviour: KioskConfig.Behaviour(returnAfter: 10), start: 100)
        _ = s.input(touch(.down, 50))
        _ = s.input(touch(.up, .nan))
        #expect(s.lastActivity == 100)
    }
}
