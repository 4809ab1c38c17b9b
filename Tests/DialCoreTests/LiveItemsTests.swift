import DialCore
import Glibc
import KioskSeams
import Testing

@Suite struct LiveItemsTests {
    @Test func aFloodIsOneChangeCarryingTheLastState() {
        var live = LiveItems()
        let kitchen: MenuPath = ["kitchen"], coffee: MenuPath = ["drinks", "coffee"]
        for i in 0..<1000 { live.apply(.text("v\(i)"), to: kitchen, at: Double(i)) }
        live.apply(.available(false), to: coffee, at: 5)
        let changes = live.takeChanges()
        #expect(changes == [kitchen, coffee])
        #expect(live.state(of: kitchen).text == "v999")
        #expect(live.state(of: coffee).available == false)
        let none = live.takeChanges()
        #expect(none.isEmpty)
        // The same state again is no change.
        let again = live.apply(.text("v999"), to: kitchen, at: 2000)
        #expect(!again)
        #expect(!live.hasChanges)
    }

    @Test func aReloadKeepsTheStateOfItemsWhoseBindingStayed() throws {
        var live = LiveItems()
        live.apply(.text("on"), to: ["a"], at: 1)
        live.apply(.text("off"), to: ["b"], at: 1)
        live.apply(.text("gone"), to: ["c"], at: 1)
        let tree = try MenuTree(flat: [MenuItem(id: "a", label: "A", color: RGBColor(hex: 0)),
                                       MenuItem(id: "b", label: "B", color: RGBColor(hex: 0))])
        let kept = live.kept(in: tree) { $0 != ["b"] }
        #expect(kept.state(of: ["a"]).text == "on")
        #expect(kept.state(of: ["b"]).text == nil)
        #expect(kept.states.count == 1)
    }

    @Test func bindingFormats() {
        #expect(LiveBinding(topic: "t", format: "{} °C ({})").text(for: "21") == "21 °C (21)")
        #expect(LiveBinding(topic: "t").text(for: "on") == "on")
    }
}

@Suite struct ValueSetpointTests {
    let heating = ValueSettings(minimum: 16, maximum: 28, step: 0.5, unit: "°C", commandTopic: "set",
                                stateTopic: "state", commitAfter: 1.0, guardSeconds: 3.0)

    @Test func textHasTheStepsDecimals() {
        #expect(heating.text(23) == "23.0")
        #expect(heating.text(21.5) == "21.5")
        #expect(ValueSettings(minimum: 0, maximum: 10, step: 1).text(7) == "7")
        #expect(ValueSettings(minimum: 0, maximum: 1, step: 0.25).text(0.75) == "0.75")
        #expect(ValueSettings(minimum: -5, maximum: 5, step: 0.5).text(-0.5) == "-0.5")
    }

    @Test func aPauseCommitsOnceAndTheEchoOfTheOldValueIsHeldBack() {
        var v = ValueSetpoint(settings: heating, initial: 21)
        do { let out = v.turn(2, at: 10); #expect(out == [.changing(22)]) }
        // A rest before the commit's pause: the value is spoken once.
        do { let out = v.advance(to: 10.2); #expect(out == []) }
        do { let out = v.advance(to: 10.5); #expect(out == [.rest(22)]) }
        do { let out = v.advance(to: 10.6); #expect(out == []) }
        do { let out = v.advance(to: 11.0); #expect(out == [.committed(22)]) }
        do { let out = v.advance(to: 11.2); #expect(out == []) }
        // The device first repeats its old value: not shown, counted.
        do { let out = v.report(21, at: 11.3); #expect(out == []) }
        #expect(v.shown == 22 && v.guardedReports == 1)
        do { let out = v.report(22, at: 12); #expect(out == [.confirmed(22)]) }
        #expect(v.phase == .idle)
        // Later someone else changes it: taken.
        do { let out = v.report(20, at: 30); #expect(out == [.external(20)]) }
        #expect(v.shown == 20)
    }

    @Test func aTapCommitsAtOnceAndHardStopsHold() {
        var v = ValueSetpoint(settings: heating, initial: 27.5)
        do { let out = v.turn(3, at: 0); #expect(out == [.changing(28), .stop(atMaximum: true)]) }
        do { let out = v.turn(1, at: 0.1); #expect(out == [.stop(atMaximum: true)]) }
        do { let out = v.tap(at: 0.2); #expect(out == [.committed(28)]) }
        do { let out = v.tap(at: 0.3); #expect(out == []) }
    }

    @Test func aDeviceThatNeverAnswersGetsItsLastWordBackAfterTheGuard() {
        var v = ValueSetpoint(settings: heating, initial: 21)
        _ = v.report(21, at: 0)
        _ = v.turn(4, at: 1)
        do { let out = v.advance(to: 2); #expect(out == [.committed(23)]) }
        do { let out = v.advance(to: 4.9); #expect(out == []) }
        #expect(v.shown == 23)
        do { let out = v.advance(to: 5); #expect(out == [.external(21)]) }
    }

    @Test func withoutAStateTopicTheCommitIsWhatIsShown() {
        var v = ValueSetpoint(settings: ValueSettings(minimum: 0, maximum: 100, step: 1, commandTopic: "c"), initial: 50)
        _ = v.turn(-3, at: 0)
        do { let out = v.advance(to: 1); #expect(out == [.committed(47)]) }
        #expect(v.phase == .idle && v.shown == 47)
        do { let out = v.advance(to: 100); #expect(out == []) }
    }

    @Test func reportsOutsideTheRangeAreClamped() {
        var v = ValueSetpoint(settings: heating, initial: 21)
        do { let out = v.report(99, at: 0); #expect(out == [.clamped(reported: 99, to: 28), .external(28)]) }
        do { let out = v.report(.nan, at: 1); #expect(out == []) }
    }

    /// Random turns, pauses, taps and device answers (the device repeats the old value once,
    /// answers after a delay, sometimes never): the shown value never jumps back inside a
    /// guard, every commit comes out once, and after the guard the dial shows what the
    /// device last said.
    @Test func propertyOverRandomSessions() {
        for seed in 1...200 as ClosedRange<UInt64> {
            var rng = SplitMix64(seed: seed)
            var v = ValueSetpoint(settings: heating, initial: 21)
            var device = 21.0
            var pending: [(at: Double, value: Double)] = []
            var t = 0.0
            var commits = 0, published: [Double] = [], changedSinceCommit = false
            _ = v.report(device, at: t)
            for _ in 0..<60 {
                t += Double(rng.next() % 1000) / 400
                // Device answers that are due, in time order.
                pending.sort { $0.at < $1.at }
                var answers = pending.filter { $0.at <= t }
                pending.removeAll { $0.at <= t }
                answers.sort { $0.at < $1.at }
                for a in answers {
                    _ = v.advance(to: a.at)
                    let guardedBefore = v.phase
                    device = a.value
                    _ = v.report(a.value, at: a.at)
                    if case .guarding(let c, let since) = guardedBefore, a.at < since + heating.guardSeconds {
                        // Inside the guard the shown value stays the committed one.
                        #expect(v.shown == c, "seed \(seed): jumped inside the guard")
                    }
                }
                let outputs: [ValueSetpoint.Output]
                switch rng.next() % 4 {
                case 0: outputs = v.turn(Int(rng.next() % 9) - 4, at: t)
                case 1: outputs = v.tap(at: t)
                default: outputs = v.advance(to: t)
                }
                if outputs.contains(where: { if case .changing = $0 { return true } else { return false } }) {
                    changedSinceCommit = true
                }
                for case .committed(let c) in outputs {
                    // A commit publishes a change, never the same one twice.
                    #expect(changedSinceCommit, "seed \(seed): a commit without a change")
                    changedSinceCommit = false
                    commits += 1
                    published.append(c)
                    // The stand-in: first repeats the old value, then (mostly) answers.
                    pending.append((t + 0.1, device))
                    if rng.next() % 5 != 0 { pending.append((t + 0.2 + Double(rng.next() % 100) / 40, c)) }
                }
            }
            #expect(published.count == commits)
            // Let everything settle: no more answers after the last ones, the guard ends.
            for a in pending.sorted(by: { $0.at < $1.at }) {
                _ = v.advance(to: a.at)
                device = a.value
                _ = v.report(a.value, at: a.at)
            }
            _ = v.advance(to: t + 100)
            _ = v.advance(to: t + 200)
            #expect(v.shown == device, "seed \(seed): after the guard the dial shows \(v.shown), the device said \(device)")
        }
    }
}

@Suite struct LiveSpeechTests {
    @Test func theStateIsReadAfterTheLabel() throws {
        var heating = MenuItem(id: "heating", label: "Heating", color: RGBColor(hex: 0))
        heating.value = ValueSettings(minimum: 16, maximum: 28, step: 0.5, unit: "degrees")
        let menu = try MenuTree(flat: [MenuItem(id: "kitchen", label: "Kitchen light", color: RGBColor(hex: 0)),
                                       MenuItem(id: "coffee", label: "Coffee", color: RGBColor(hex: 0)), heating])
        let states: [MenuPath: ItemState] = [["kitchen"]: ItemState(text: "on"), ["coffee"]: ItemState(text: "hot", available: false),
                                             ["heating"]: ItemState(value: 21.5)]
        func say(_ id: String) -> String? {
            SpeechScript.utterance(for: [.selected(index: 0, path: [id], time: 0)], menu: menu, states: states)
        }
        #expect(say("kitchen") == "Kitchen light, on")
        #expect(say("coffee") == "Coffee, unavailable")
        #expect(say("heating") == "Heating, 21.5 degrees")
    }
}

@Suite struct ValueDragTests {
    let c = Point(x: 200, y: 200)

    func touch(_ phase: TouchPhase, _ degrees: Double, _ r: Double, _ t: Double) -> TouchEvent {
        let a = degrees * .pi / 180
        return TouchEvent(phase: phase, x: c.x + r * (a).cosine, y: c.y + r * (a).sine, time: t)
    }

    @Test func turningAroundTheHubGivesDetentsOfFifteenDegrees() {
        var drag = ValueDrag()
        #expect(drag.feed(touch(.down, 0, 120, 0), center: c, hubRadius: 60) == .none)
        var total = 0
        for step in 1...40 {
            if case .detents(let n) = drag.feed(touch(.motion, Double(step), 120, Double(step) / 100), center: c, hubRadius: 60) {
                total += n
            }
        }
        // 40 degrees clockwise: two whole detents, the rest carried.
        #expect(total == 2)
        for step in 1...50 {
            if case .detents(let n) = drag.feed(touch(.motion, 40 - Double(step), 120, 1 + Double(step) / 100), center: c, hubRadius: 60) {
                total += n
            }
        }
        // Back to -10 degrees: less than a detent from the start, and the count says so.
        #expect(total == 0)
        for step in 1...30 {
            if case .detents(let n) = drag.feed(touch(.motion, -10 - Double(step), 120, 2 + Double(step) / 100), center: c, hubRadius: 60) {
                total += n
            }
        }
        #expect(total == -2)
        #expect(drag.feed(touch(.up, -40, 120, 3), center: c, hubRadius: 60) == .none)
    }

    @Test func aTapCommitsAndALongPressCloses() {
        var drag = ValueDrag()
        _ = drag.feed(touch(.down, 0, 10, 0), center: c, hubRadius: 60)
        #expect(drag.feed(touch(.up, 0, 10, 0.1), center: c, hubRadius: 60) == .tap)
        _ = drag.feed(touch(.down, 0, 10, 1), center: c, hubRadius: 60)
        #expect(drag.feed(touch(.up, 0, 10, 1.8), center: c, hubRadius: 60) == .longPress)
        // Outside the hub a touch that does not turn does nothing.
        _ = drag.feed(touch(.down, 0, 120, 3), center: c, hubRadius: 60)
        #expect(drag.feed(touch(.up, 0, 120, 3.1), center: c, hubRadius: 60) == .none)
    }
}

private extension Double {
    var cosine: Double { Glibc.cos(self) }
    var sine: Double { Glibc.sin(self) }
}
