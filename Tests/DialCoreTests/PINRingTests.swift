import Glibc
import Testing
@testable import KioskSeams
@testable import DialCore

/// The PIN ring as a mode of the dial: the same inputs the ring takes (a finger around the hub
/// and a tap, a wheel or encoder's steps and press, a key pad's digits, Enter and Backspace)
/// enter digits; what comes out says how many, never which.
@Suite struct PINRingTests {
    static let geometry = DialGeometry.fitting(width: 800, height: 480, count: PINRing.slots.count)

    static func opened(length: Int? = 4) -> PINRing {
        var ring = PINRing()
        _ = ring.open(length: length, geometry: geometry, gestures: GestureSettings(), at: 0)
        return ring
    }

    /// The digits of a submitted entry, read the one way the hash reads them.
    static func ascii(_ events: [PINRingEvent]) -> String? {
        for case .submitted(let entry, _) in events { return entry.withASCII { String(decoding: $0, as: UTF8.self) } }
        return nil
    }

    @Test func anEncoderTurnsAndPresses() {
        var ring = Self.opened()
        var events: [PINRingEvent] = []
        var t = 1.0
        // 1, 9 (turning back past 0), 0, 5, then OK: each digit brought to the top and pressed.
        for target in [1, 9, 0, 5] {
            let delta = target - ring.selected
            events += ring.input(.command(.step(delta), time: t)) ?? []
            events += ring.input(.command(.activate, time: t + 0.1)) ?? []
            t += 1
        }
        #expect(events.filter { if case .digit = $0 { true } else { false } }
            == (1...4).map { PINRingEvent.digit(count: $0, of: 4, time: Double($0) + 0.1) })
        #expect(ring.count == 4)
        _ = ring.input(.command(.step(PINRing.okSlot - ring.selected), time: t))
        let done = ring.input(.command(.activate, time: t + 0.1)) ?? []
        #expect(Self.ascii(done) == "1905")
        #expect(ring.count == 0, "the ring is empty again for the next try")
        #expect(ring.isOpen, "the lock decides whether it closes")
    }

    @Test func stepsWrapBothWays() {
        var ring = Self.opened()
        _ = ring.turn(-1, at: 1)
        #expect(ring.selected == PINRing.okSlot)
        _ = ring.turn(13, at: 2)
        #expect(ring.selected == 0)
        #expect(ring.turn(0, at: 3).isEmpty)
    }

    @Test func aKeyPadTypesDigitsThenEnterSubmitsAndBackspaceDeletes() {
        var ring = Self.opened(length: nil)
        var events: [PINRingEvent] = []
        for (i, key) in [KeyDigit(2), KeyDigit(7), KeyDigit(7)].enumerated() {
            events += ring.input(.command(.digit(key.value), time: Double(i))) ?? []
        }
        #expect(events == [.digit(count: 1, of: nil, time: 0), .digit(count: 2, of: nil, time: 1), .digit(count: 3, of: nil, time: 2)])
        #expect(ring.selected == PINRing.okSlot, "a digit key brings OK to the top")
        #expect(ring.input(.command(.back, time: 3)) == [.deleted(count: 2, time: 3)])
        _ = ring.input(.command(.digit(1), time: 4))
        _ = ring.input(.command(.digit(4), time: 5))
        #expect(Self.ascii(ring.input(.command(.activate, time: 6)) ?? []) == "2714")
    }

    struct KeyDigit { var value: Int; init(_ v: Int) { value = v } }

    @Test func aFingerTurnsTheRingWithItAndATapOnTheHubPresses() {
        var ring = Self.opened()
        let g = Self.geometry
        let r = g.hubRadius + 60
        func at(_ degrees: Double, _ phase: TouchPhase, _ t: Double) -> InputEvent {
            let a = degrees * .pi / 180
            return .touch(TouchEvent(phase: phase, x: g.center.x + r * cos(a), y: g.center.y + r * sin(a), time: t))
        }
        // Clockwise on the glass by 95 degrees (3 detents of 30): slot 0 - 3 = 9 comes to the top.
        var events = ring.input(at(0, .down, 0)) ?? []
        for step in 1...19 { events += ring.input(at(Double(step) * 5, .motion, Double(step) * 0.01)) ?? [] }
        events += ring.input(at(95, .up, 0.3)) ?? []
        #expect(events.count == 3 && events.allSatisfy { if case .moved = $0 { true } else { false } }, "\(events)")
        #expect(events.map(\.time).allSatisfy { $0 > 0.05 && $0 < 0.19 })
        #expect(ring.selected == 9)
        let hub = TouchEvent(phase: .down, x: g.center.x, y: g.center.y, time: 1)
        _ = ring.input(.touch(hub))
        var up = hub
        up.phase = .up
        up.time = 1.1
        #expect(ring.input(.touch(up)) == [.digit(count: 1, of: 4, time: 1.1)])
        // A long press on the hub closes the ring and forgets the digit.
        var long = hub
        long.time = 2
        _ = ring.input(.touch(long))
        long.phase = .up
        long.time = 3
        #expect(ring.input(.touch(long)) == [.closed(time: 3)])
        #expect(!ring.isOpen && ring.count == 0)
    }

    @Test func deleteOnTheRingAndBackWithNothingEnteredCloses() {
        var ring = Self.opened()
        _ = ring.enter(3, at: 1)
        _ = ring.turn(PINRing.deleteSlot - ring.selected, at: 2)
        #expect(ring.press(at: 3) == [.deleted(count: 0, time: 3)])
        #expect(ring.press(at: 4).isEmpty, "nothing to delete")
        #expect(ring.input(.command(.back, time: 5)) == [.closed(time: 5)])
        #expect(ring.input(.command(.back, time: 6)) == nil, "a closed ring takes nothing")
    }

    @Test func tooShortAndTooLongAreRefusedWithoutAnEntry() {
        var ring = Self.opened()
        for d in [1, 2, 3] { _ = ring.enter(d, at: 0) }
        #expect(ring.submit(at: 1) == [.tooShort(count: 3, time: 1)])
        #expect(ring.count == 3, "a short OK keeps what was entered")
        for d in 0..<9 { _ = ring.enter(d, at: 2) }
        #expect(ring.count == PINRules.digits.upperBound)
        #expect(ring.enter(5, at: 3) == [.full(time: 3)])
        #expect(ring.count == PINRules.digits.upperBound)
    }

    @Test func speechKeysAreNotTheRings() {
        var ring = Self.opened()
        #expect(ring.input(.command(.speech(.repeatLast), time: 1)) == nil)
        #expect(ring.input(.command(.digit(12), time: 1)) == [], "no such digit")
    }

    /// However a ring, an event or an entry is printed, no digit entered shows.
    @Test func nothingPrintsTheDigits() {
        var ring = Self.opened()
        for d in [8, 6, 4, 2] { _ = ring.enter(d, at: 0) }
        var texts = [String(describing: ring), "\(ring)", String(reflecting: ring)]
        var dumped = ""
        dump(ring, to: &dumped)
        texts.append(dumped)
        let events = ring.submit(at: 1)
        #expect(Self.ascii(events) == "8642")
        texts += [String(describing: events), String(reflecting: events)]
        var dumpedEvents = ""
        dump(events, to: &dumpedEvents)
        texts.append(dumpedEvents)
        for text in texts {
            #expect(!text.contains("8642") && !text.contains("8, 6") && !text.contains("[8"), "\(text)")
            #expect(!text.contains("56, 54"), "no ASCII codes either: \(text)")
        }
        #expect(texts.contains { $0.contains("4 digits") })
    }

    @Test func pinRules() {
        func problem(_ s: String) -> PINRules.Problem? { PINRules.problem(Array(s.utf8)) }
        #expect(problem("") == .empty)
        #expect(problem("12a4") == .notDigits)
        #expect(problem("12 34") == .notDigits)
        #expect(problem("123") == .tooShort)
        #expect(problem("1234") == nil)
        #expect(problem("123456789012") == nil)
        #expect(problem("1234567890123") == .tooLong)
        #expect(problem(String(repeating: "1", count: 40)) == .tooLong)
        #expect(PINEntry(ascii: Array("0042".utf8))?.withASCII { $0 } == Array("0042".utf8))
        #expect(PINEntry(ascii: Array("42".utf8)) == nil)
    }
}

/// The hold that opens the PIN ring: a still finger on the hub for `seconds`, with the ring's
/// tap slop.
@Suite struct HubHoldTests {
    static let geometry = DialGeometry.fitting(width: 800, height: 480, count: 10)
    static let c = geometry.center

    static func touch(_ phase: TouchPhase, dx: Double = 0, dy: Double = 0, _ t: Double, slot: Int = 0) -> TouchEvent {
        TouchEvent(slot: slot, phase: phase, x: c.x + dx, y: c.y + dy, time: t)
    }

    @Test func aStillFingerHoldsAtTheDeadlineOnce() {
        var hold = HubHold(seconds: 3)
        #expect(hold.feed(Self.touch(.down, 10), geometry: Self.geometry) == nil)
        #expect(hold.deadline == 13)
        #expect(hold.advance(to: 12.99) == nil)
        #expect(hold.feed(Self.touch(.motion, dx: 5, dy: 5, 12.5), geometry: Self.geometry) == nil, "within the slop")
        #expect(hold.advance(to: 13.2) == 13)
        #expect(hold.advance(to: 14) == nil, "once per touch")
        #expect(hold.deadline == nil)
        #expect(hold.feed(Self.touch(.up, 15), geometry: Self.geometry) == nil)
    }

    @Test func aSampleAfterTheDeadlineCompletesIt() {
        var hold = HubHold(seconds: 2)
        _ = hold.feed(Self.touch(.down, 0), geometry: Self.geometry)
        #expect(hold.feed(Self.touch(.frame, 2.5), geometry: Self.geometry) == 2)
        var lifted = HubHold(seconds: 2)
        _ = lifted.feed(Self.touch(.down, 0), geometry: Self.geometry)
        #expect(lifted.feed(Self.touch(.up, 2), geometry: Self.geometry) == 2)
    }

    @Test func whatEndsAHold() {
        let slop = GestureSettings().tapSlop
        // A slide past the slop: the dial would take it for a drag.
        var slid = HubHold()
        _ = slid.feed(Self.touch(.down, 0), geometry: Self.geometry)
        _ = slid.feed(Self.touch(.motion, dx: slop + 1, 1), geometry: Self.geometry)
        #expect(slid.advance(to: 10) == nil)
        // A lift before the time.
        var lifted = HubHold()
        _ = lifted.feed(Self.touch(.down, 0), geometry: Self.geometry)
        _ = lifted.feed(Self.touch(.up, 2.9), geometry: Self.geometry)
        #expect(lifted.advance(to: 10) == nil)
        // A second finger.
        var two = HubHold()
        _ = two.feed(Self.touch(.down, 0), geometry: Self.geometry)
        _ = two.feed(Self.touch(.down, dx: 100, 1, slot: 1), geometry: Self.geometry)
        #expect(two.advance(to: 10) == nil)
        // A finger down outside the hub.
        var outside = HubHold()
        _ = outside.feed(Self.touch(.down, dx: Self.geometry.hubRadius + 1, 0), geometry: Self.geometry)
        #expect(outside.advance(to: 10) == nil)
        // A cancel.
        var cancelled = HubHold()
        _ = cancelled.feed(Self.touch(.down, 0), geometry: Self.geometry)
        _ = cancelled.feed(Self.touch(.cancel, 1), geometry: Self.geometry)
        #expect(cancelled.advance(to: 10) == nil)
    }

    @Test func theSlopIsTheGesturesOne() {
        var wide = HubHold(seconds: 1, gestures: GestureSettings(tapSlop: 40))
        _ = wide.feed(Self.touch(.down, 0), geometry: Self.geometry)
        _ = wide.feed(Self.touch(.motion, dx: 30, 0.5), geometry: Self.geometry)
        #expect(wide.advance(to: 1) == 1)
    }
}
