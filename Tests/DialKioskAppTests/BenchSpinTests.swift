import Testing
import DialCore
@testable import KioskSeams
@testable import DialKioskApp

/// `bench`'s spin runs on the virtual display `run` uses, which primes its scanout buffers with
/// the resting frame: the first frame of the first spin finds the other buffer holding that
/// picture and copies only its damage, not a whole frame.
@Suite struct BenchSpinTests {
    @Test func theFirstSpinsFirstFrameCopiesOnlyItsDamage() throws {
        let panel = FrameSize(width: 320, height: 240)
        let spin = try BenchSpin(items: DemoMenu.numbered(10), panel: panel, rotation: .none, buffers: 2)
        let frame = panel.width * panel.height * 4
        let first = try #require(spin.bytes.first)
        #expect(first < frame / 2, "first frame wrote \(first) of \(frame) bytes")
        #expect(first <= 2 * (spin.bytes.dropFirst().max() ?? 0))
    }
}
