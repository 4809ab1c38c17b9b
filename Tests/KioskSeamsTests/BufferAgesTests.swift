import Testing
@testable import KioskSeams

/// Buffer ages and the priming of new buffers with the first picture.
@Suite struct BufferAgesTests {
    /// `count` targets over one byte each (only their identity matters here).
    private func targets(_ count: Int, memory: UnsafeMutableRawPointer) -> [FrameTarget] {
        (0..<count).map { FrameTarget(base: memory + $0 * 4, width: 1, height: 1, stride: 4) }
    }

    @Test func primingGivesEveryOtherNewBufferThePictureWithAnAgeOfItsOwn() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 12, alignment: 4)
        defer { memory.deallocate() }
        let t = targets(3, memory: memory)
        var ages = BufferAges(count: 3)
        _ = ages.next(t[0], buffer: 0)
        ages.painted(buffer: 0)
        var primed: [(UnsafeMutableRawPointer, Int?, Int?)] = []
        ages.prime(besides: 0, target: { t[$0] }) { target in
            primed.append((target.base, target.age, target.frameNumber))
            return nil
        }
        // Each other buffer painted once, as a buffer of unknown contents, numbered after the frame.
        #expect(primed.map(\.0) == [t[1].base, t[2].base])
        #expect(primed.map(\.1) == [nil, nil])
        #expect(primed.map(\.2) == [2, 3])
        // Their next frames know what they hold: only the damage since then is copied.
        #expect(ages.next(t[1], buffer: 1).age == 2)
        #expect(ages.next(t[2], buffer: 2).age == 2)
    }

    @Test func withoutPrimingTheSecondBufferIsUnknownAtItsFirstFrame() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 4)
        defer { memory.deallocate() }
        let t = targets(2, memory: memory)
        var ages = BufferAges(count: 2)
        _ = ages.next(t[0], buffer: 0)
        ages.painted(buffer: 0)
        #expect(ages.next(t[1], buffer: 1).age == nil)
    }

    @Test func aBufferThatMustNotBeWrittenOrWhosePaintFailsStaysUnknown() {
        struct Refused: Error {}
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 12, alignment: 4)
        defer { memory.deallocate() }
        let t = targets(3, memory: memory)
        var ages = BufferAges(count: 3)
        _ = ages.next(t[0], buffer: 0)
        ages.painted(buffer: 0)
        var calls = 0
        ages.prime(besides: 0, target: { $0 == 1 ? nil : t[$0] }) { _ in
            calls += 1
            throw Refused()
        }
        #expect(calls == 1)
        #expect(ages.next(t[1], buffer: 1).age == nil)
        #expect(ages.next(t[2], buffer: 2).age == nil)
        // Already known buffers are left alone.
        ages.painted(buffer: 2)
        calls = 0
        ages.prime(besides: 0, target: { t[$0] }) { _ in calls += 1; return nil }
        #expect(calls == 1)
    }
}
