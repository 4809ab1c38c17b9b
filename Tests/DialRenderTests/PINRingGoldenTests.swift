import DialCore
@testable import DialRender
import Glibc
import KioskSeams
import Testing

/// The PIN ring as painted, compared with PNGs under Golden (regenerate as GoldenTests says, and
/// look at them): digits round the ring, dots in the hub, the lock's note under them.
@Suite struct PINRingGoldenTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var width: Int, height: Int
        var pose: PINRingPose
        var note: String?
        var preset: ThemePreset = .standard
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "pin-ring-400x400", width: 400, height: 400, pose: PINRingPose(selected: 3, count: 2, length: 4), note: "4 tries left"),
        Case(name: "pin-ring-800x480-hc", width: 800, height: 480, pose: PINRingPose(selected: PINRing.okSlot, count: 10),
             note: "locked for 30 s", preset: .highContrast),
    ]

    static func render(_ c: Case) throws -> PixelBuffer {
        let painter = try PINRingPainter(theme: Theme(preset: c.preset), width: c.width, height: c.height)
        painter.paint(c.pose, geometry: .fitting(width: c.width, height: c.height, count: PINRing.slots.count), note: c.note)
        return painter.frame
    }

    @Test(arguments: PINRingGoldenTests.cases)
    func frameMatchesGolden(_ c: Case) throws {
        let frame = try Self.render(c)
        try GoldenTests.expectGolden(frame, name: c.name)
    }

    /// The hub shows dots, not digits: two frames with different digits entered but the same
    /// count and slot at the top are the same picture.
    @Test func theSameCountIsTheSamePictureWhateverTheDigits() throws {
        let g = DialGeometry.fitting(width: 400, height: 400, count: PINRing.slots.count)
        var a = PINRing(), b = PINRing()
        _ = a.open(length: 4, geometry: g, gestures: GestureSettings(), at: 0)
        _ = b.open(length: 4, geometry: g, gestures: GestureSettings(), at: 0)
        for d in [1, 2, 3] { _ = a.enter(d, at: 1) }
        for d in [9, 8, 7] { _ = b.enter(d, at: 1) }
        let pa = try PINRingPainter(width: 400, height: 400), pb = try PINRingPainter(width: 400, height: 400)
        pa.paint(a.pose!, geometry: g)
        pb.paint(b.pose!, geometry: g)
        #expect(pa.frame.samePixels(as: pb.frame))
        // And a different count is a different picture.
        _ = b.enter(6, at: 2)
        pb.paint(b.pose!, geometry: g)
        #expect(!pa.frame.samePixels(as: pb.frame))
    }
}
