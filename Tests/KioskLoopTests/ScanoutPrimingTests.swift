import Testing
import Glibc
@testable import KioskSeams
@testable import KioskLoop
import KioskTestSupport

/// A display that frames are copied into (`run`'s and `bench`'s virtual display, as KMSDisplay)
/// writes the first frame into every scanout buffer before that frame is shown, so the first
/// frame of the first spin, in a buffer met for the first time, copies only its damage.
@Suite struct ScanoutPrimingTests {
    /// Presents twice on a display of `buffers` buffers; the buffers and ages each paint was given.
    private func presents(buffers: Int, populate: Bool) throws -> [[(base: UnsafeMutableRawPointer, age: Int?)]] {
        let clock = VirtualClock()
        let display = VirtualDisplay(width: 8, height: 4, timing: .init(refresh: 60), buffers: buffers,
                                     populate: populate) { clock.now }
        var calls: [[(base: UnsafeMutableRawPointer, age: Int?)]] = []
        for k in 0..<2 {
            var paints: [(base: UnsafeMutableRawPointer, age: Int?)] = []
            try display.present { target in
                paints.append((target.base, target.age))
                for y in 0..<target.height {
                    (target.base + y * target.stride).initializeMemory(as: UInt32.self, repeating: UInt32(k + 1), count: target.width)
                }
                return nil
            }
            calls.append(paints)
            clock.now += 1.0 / 30
            _ = try display.drainDisplayEvents()
        }
        return calls
    }

    @Test func everyBufferIsWrittenBeforeTheFirstFrameIsShown() throws {
        let calls = try presents(buffers: 3, populate: true)
        #expect(calls[0].count == 3)
        #expect(Set(calls[0].map(\.base)).count == 3)
        #expect(calls[0].allSatisfy { $0.age == nil })
        // The next frame goes into a buffer that holds the first picture.
        #expect(calls[1].count == 1)
        #expect(calls[1].first?.age != nil)
    }

    @Test func twoBuffersTheSecondFrameCopiesOneFramesDamage() throws {
        let calls = try presents(buffers: 2, populate: true)
        #expect(calls[0].count == 2)
        #expect(calls[1].map(\.age) == [1])
    }

    /// `simulate` copies nothing into its display's buffers: nothing is primed there.
    @Test func aDisplayFramesAreNotCopiedIntoPaintsOnce() throws {
        let calls = try presents(buffers: 2, populate: false)
        #expect(calls.map(\.count) == [1, 1])
        #expect(calls[1].map(\.age) == [nil])
    }
}
