import DialCore
import Testing
@testable import KioskSeams
@testable import KioskLoop
import KioskTestSupport

/// The behaviour timers on a fake clock: they only say "return" and "idle"; what the screen
/// does about it is the screen policy's (below).
@Suite struct IdleScheduleTests {
    @Test func returnsToDefaultOnceAfterTheIdleSeconds() {
        var s = IdleSchedule(returnAfter: 30, idleAfter: nil, start: 100)
        #expect(s.nextDeadline == 130)
        #expect(s.advance(to: 129.9).isEmpty)
        #expect(s.advance(to: 130) == [.returnToDefault])
        #expect(s.advance(to: 500).isEmpty)
        #expect(s.nextDeadline == nil)
        s.activity(at: 600)
        #expect(s.nextDeadline == 630)
    }

    @Test func saysIdleOncePerQuietSpell() {
        var s = IdleSchedule(returnAfter: nil, idleAfter: 120, start: 0)
        #expect(s.nextDeadline == 120)
        #expect(s.advance(to: 120) == [.idle])
        #expect(s.nextDeadline == nil)
        #expect(s.advance(to: 1000).isEmpty)
        s.activity(at: 201)
        #expect(s.nextDeadline == 321)
    }

    @Test func neverWhenNotConfigured() {
        var s = IdleSchedule(returnAfter: nil, idleAfter: nil, start: 0)
        #expect(s.nextDeadline == nil)
        #expect(s.advance(to: 1e9).isEmpty)
    }

    @Test func timestampsGoingBackwardsDoNotRewindActivity() {
        var s = IdleSchedule(returnAfter: 10, idleAfter: nil, start: 100)
        s.activity(at: 50)
        s.activity(at: .nan)
        #expect(s.lastActivity == 100)
    }
}

/// The screen's one decision (ScreenPolicy), pure: the facts in, the state and reason out.
@Suite struct ScreenPolicyTests {
    private func touch(_ phase: TouchPhase, _ t: Double, slot: Int = 0) -> InputEvent {
        .touch(TouchEvent(slot: slot, phase: phase, x: 10, y: 10, time: t))
    }

    @Test func idleDimsThenATouchWakesAndIsSwallowedToItsEnd() {
        var p = ScreenPolicy(idleLook: .dim)
        #expect(p.target == (.on, .schedule))
        p.idled()
        #expect(p.target == (.dim, .idle))
        #expect(p.admit(touch(.down, 200)) == .woke)
        #expect(p.target == (.on, .touch))
        #expect(p.admit(touch(.motion, 200.1)) == .swallowed)
        #expect(p.admit(touch(.up, 200.2)) == .swallowed)
        // The next touch is the dial's again.
        #expect(p.admit(touch(.down, 201)) == .dial(activity: true))
        #expect(p.admit(touch(.frame, 201)) == .dial(activity: false))
    }

    @Test func withoutWakeOnTouchADarkScreenIgnoresTouchesUntilAWake() {
        var p = ScreenPolicy(idleLook: .off, wakeOnTouch: false)
        p.idled()
        #expect(p.admit(touch(.down, 70)) == .swallowed)
        #expect(p.target.state == .off)
        p.wake()
        #expect(p.target == (.on, .touch))
    }

    @Test func keysAndEncodersWakeAndPassOn() {
        var p = ScreenPolicy(idleLook: .dim, wakeOnTouch: false)
        p.idled()
        #expect(p.admit(.command(.step(1), time: 62)) == .dial(activity: true))
        #expect(p.target.state == .on)
    }

    @Test func noIdleLookKeepsTheScreenOn() {
        var p = ScreenPolicy(idleLook: nil)
        p.idled()
        #expect(p.target == (.on, .schedule))
    }

    @Test func aRequestHoldsUntilOnAutoOrATouchButNotPresence() {
        var p = ScreenPolicy(idleLook: .dim)
        p.request(.off)
        #expect(p.target == (.off, .requested))
        let woke = p.presence()
        #expect(!woke, "presence never wakes a screen switched off on request")
        #expect(p.target == (.off, .requested))
        p.request(.on)
        #expect(p.target == (.on, .requested))
        p.request(.dim)
        p.auto()
        #expect(p.target == (.on, .schedule))
        p.request(.off)
        #expect(p.admit(touch(.down, 1)) == .woke)
        #expect(p.target == (.on, .touch))
    }

    @Test func outsideTheHoursTouchAndPresenceWakeForTheIdleTimeOnly() {
        var p = ScreenPolicy(idleLook: .dim, outsideHours: .off)
        p.hours(open: false)
        #expect(p.target == (.off, .schedule))
        #expect(p.admit(touch(.down, 1)) == .woke)
        #expect(p.target == (.on, .touch))
        p.idled()
        #expect(p.target == (.off, .schedule), "back to the hours' state, not the idle look")
        let present = p.presence()
        #expect(present)
        #expect(p.target == (.on, .presence))
        p.hours(open: true)
        #expect(p.target == (.on, .schedule))
        p.hours(open: false)
        #expect(p.target == (.off, .schedule), "a wake lasts until the next transition")
    }

    @Test func touchOutsideHoursIgnoreAndOutsideHoursDimOrOn() {
        var p = ScreenPolicy(idleLook: .off, outsideHours: .dim, touchWakesOutsideHours: false)
        p.hours(open: false)
        #expect(p.target == (.dim, .schedule))
        #expect(p.admit(touch(.down, 1)) == .swallowed)
        #expect(p.target == (.dim, .schedule))
        p.request(.on)
        #expect(p.target == (.on, .requested), "`screen on` wakes outside the hours")
        p.idled()
        #expect(p.target == (.off, .idle), "until the next transition: idle acts as inside the hours")
        p.hours(open: true)
        p.hours(open: false)
        #expect(p.target == (.dim, .schedule))
        var reporting = ScreenPolicy(idleLook: .off, outsideHours: .on)
        reporting.hours(open: false)
        #expect(reporting.target == (.on, .schedule), "outside_hours: on only reports")
        reporting.idled()
        #expect(reporting.target == (.off, .idle))
    }
}
