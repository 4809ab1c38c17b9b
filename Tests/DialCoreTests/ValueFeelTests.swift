import Testing
@testable import DialCore

/// How a value dial feels in the hand: a rest speaks the value, fast detents on a long range
/// move more steps, and a stale state says how old it is.
@Suite struct ValueFeelTests {
    let volume = ValueSettings(minimum: 0, maximum: 100, step: 1, commitAfter: 1.0, guardSeconds: 3.0)

    @Test func eachRestSpeaksTheValueOnceAndTheCommitStillComes() {
        var v = ValueSetpoint(settings: volume, initial: 50)
        _ = v.turn(1, at: 0)
        #expect(v.nextDeadline == ValueSetpoint.restSeconds)
        do { let out = v.advance(to: 0.2); #expect(out == []) }
        // Turning again before the rest: the rest moves with the last detent.
        _ = v.turn(1, at: 0.2)
        do { let out = v.advance(to: 0.5); #expect(out == []) }
        do { let out = v.advance(to: 0.2 + ValueSetpoint.restSeconds); #expect(out == [.rest(52)]) }
        #expect(v.nextDeadline == 1.2)
        do { let out = v.advance(to: 1.2); #expect(out == [.committed(52)]) }
        // A detent into a stop changes nothing: no rest to speak.
        var top = ValueSetpoint(settings: volume, initial: 100)
        _ = top.turn(1, at: 0)
        do { let out = top.advance(to: 0.5); #expect(out == []) }
    }

    @Test func noRestWhenTheCommitComesFirst() {
        var v = ValueSetpoint(settings: ValueSettings(minimum: 0, maximum: 10, step: 1, commitAfter: 0.2), initial: 5)
        _ = v.turn(2, at: 0)
        do { let out = v.advance(to: 0.2); #expect(out == [.committed(7)]) }
        do { let out = v.advance(to: 1); #expect(out == []) }
    }

    @Test func aRangeOfTwentyFourStepsIsNeverAccelerated() {
        var a = ValueAcceleration()
        let steps = (0..<40).map { a.steps(1, at: Double($0) * 0.01, stepCount: 24) }
        #expect(steps.allSatisfy { $0 == 1 })
    }

    @Test func fastDetentsOnALongRangeMoveMoreStepsSlowOnesOne() {
        var a = ValueAcceleration()
        // Slow: one detent every 0.2 s (5 a second).
        let slow = (0..<10).map { a.steps(1, at: Double($0) * 0.2, stepCount: 100) }
        #expect(slow == Array(repeating: 1, count: 10))
        // 12 a second: 2 steps each after the first; 50 a second: 4 (a 24th of 100 steps).
        var b = ValueAcceleration()
        let medium = (0..<5).map { b.steps(1, at: Double($0) / 12, stepCount: 100) }
        #expect(medium == [1, 2, 2, 2, 2])
        var c = ValueAcceleration()
        let fast = (0..<5).map { c.steps(-1, at: Double($0) * 0.02, stepCount: 100) }
        #expect(fast == [-1, -4, -4, -4, -4])
        // A reversal starts again from one step.
        let reversed = c.steps(1, at: 0.1, stepCount: 100)
        #expect(reversed == 1)
        // Capped at a 24th of the range: 50 steps allow 2 at most.
        var d = ValueAcceleration()
        let capped = (0..<3).map { d.steps(1, at: Double($0) * 0.01, stepCount: 50) }
        #expect(capped == [1, 2, 2])
        // Just past 24 steps fast detents move 2 (the cap is a 24th of the range, at least 2).
        var e = ValueAcceleration()
        let short = (0..<3).map { e.steps(1, at: Double($0) * 0.01, stepCount: 25) }
        #expect(short == [1, 2, 2])
    }

    @Test func aStateSaysHowOldItIsOnlyWhileTheSourceIsAway() {
        #expect(ItemAge.staleMinutes(heard: 0, now: 700, after: 600, away: false) == nil)
        #expect(ItemAge.staleMinutes(heard: 0, now: 599, after: 600, away: true) == nil)
        #expect(ItemAge.staleMinutes(heard: 0, now: 600, after: 600, away: true) == 10)
        #expect(ItemAge.staleMinutes(heard: 0, now: 700, after: nil, away: true) == nil)
        #expect(ItemAge.nextChange(heard: 0, now: 100, after: 600, away: true) == 600)
        #expect(ItemAge.nextChange(heard: 0, now: 610, after: 600, away: true) == 660)
        #expect(ItemAge.nextChange(heard: 0, now: 610, after: 600, away: false) == nil)
        #expect(ItemAge.text(minutes: 12) == "12 min old")
        #expect(ItemAge.text(minutes: 180) == "3 h old")
        #expect(ItemAge.text(minutes: 3 * 24 * 60) == "3 d old")
        #expect(ItemAge.spoken(minutes: 1) == "1 minute old")

        var items = LiveItems()
        items.apply(.text("on"), to: ["kitchen"], at: 5)
        _ = items.takeChanges()
        // Aging is a change to show, but not news about the thing (its time stays).
        let aged = items.apply(.stale(12), to: ["kitchen"], at: 800)
        #expect(aged)
        #expect(items.state(of: ["kitchen"]).updated == 5)
        #expect(items.state(of: ["kitchen"]).ageText == "12 min old")
        #expect(SpeechScript.spoken(items.state(of: ["kitchen"]), settings: nil) == "on, 12 minutes old")
        // News makes it fresh again.
        items.apply(.text("off"), to: ["kitchen"], at: 900)
        #expect(items.state(of: ["kitchen"]).staleMinutes == nil)
    }
}
