import DialCore
@testable import DialRender
import Testing

/// `prepare` builds the disc sprites of every size a spin draws, and a frame drawn with them is
/// the frame drawn with sprites built on demand, pixel for pixel.
@Suite struct PreparedSpriteTests {
    private static let width = 960, height = 540

    /// The poses of a fling, frame by frame at 60 Hz until the dial rests: a quick swipe along
    /// the ring from 3 o'clock, as `bench`'s spin does.
    private func flingPoses(items: [MenuItem], geometry g: DialGeometry) -> [DialPose] {
        let dial = Dial(items: items, geometry: g)
        let c = g.center, r = g.ringRadius
        func touch(_ phase: TouchPhase, _ k: Int) {
            let a = 5.0 * Double(k) * 0.01, t = Double(k) * 0.01
            let x = c.x + r * Double.cos(a), y = c.y + r * Double.sin(a)
            _ = dial.handle(.touch(TouchEvent(phase: phase, x: x, y: y, time: t)))
            _ = dial.handle(.touch(TouchEvent(phase: .frame, x: x, y: y, time: t)))
        }
        touch(.down, 0)
        for k in 1...6 { touch(.motion, k) }
        touch(.up, 6)
        var poses: [DialPose] = [], time = 0.1
        while poses.isEmpty || dial.needsFrame, poses.count < 600 {
            _ = dial.advance(to: time)
            poses.append(dial.pose)
            time += 1.0 / 60
        }
        return poses
    }

    @Test func spinPaintedWithPreparedSpritesEqualsSpritesBuiltOnDemand() throws {
        let items = DemoMenu.numbered(24)
        let g = DialGeometry.fitting(width: Self.width, height: Self.height, count: items.count)
        let poses = flingPoses(items: items, geometry: g)
        #expect(poses.count > 30, "a fling that turns the ring for a while")
        let scales = poses.flatMap { $0.items.map(\.scale) }
        #expect(scales.min()! < 0.7 && scales.max()! > 1.3, "the spin draws the whole inflate range")

        let prepared = try DialPainter(items: items, width: Self.width, height: Self.height)
        prepared.prepare(for: g)
        let onDemand = try DialPainter(items: items, width: Self.width, height: Self.height)
        #expect(onDemand.discs.preparedCount == 0)
        for (n, pose) in poses.enumerated() {
            prepared.paint(pose)
            onDemand.paint(pose)
            #expect(prepared.frame.samePixels(as: onDemand.frame), "frame \(n) of the spin")
        }
        #expect(onDemand.discs.builtOnDemandCount > 0)
    }

    @Test func preparedPainterBuildsNoSpriteDuringASpin() throws {
        let items = DemoMenu.numbered(24)
        let g = DialGeometry.fitting(width: Self.width, height: Self.height, count: items.count)
        let painter = try DialPainter(items: items, width: Self.width, height: Self.height)
        painter.prepare(for: g)
        // One sprite per quarter pixel of radius from 0.66 to 1.33 item radii.
        let expected = Int((g.itemRadius * 1.33 * 4).rounded()) - Int((g.itemRadius * 0.66 * 4).rounded()) + 1
        #expect(painter.discs.preparedCount == expected)
        #expect(painter.discs.preparedBytes > 0)
        for pose in flingPoses(items: items, geometry: g) { painter.paint(pose) }
        #expect(painter.discs.builtOnDemandCount == 0)
    }

    @Test func preparingAgainForTheSameGeometryKeepsTheSprites() throws {
        let items = DemoMenu.numbered(12)
        let g = DialGeometry.fitting(width: 480, height: 320, count: items.count)
        let painter = try DialPainter(items: items, width: 480, height: 320)
        painter.prepare(for: g)
        let bytes = painter.discs.preparedBytes
        painter.prepare(for: g)
        #expect(painter.discs.preparedBytes == bytes)
        let small = DialGeometry.fitting(width: 240, height: 160, count: items.count)
        painter.prepare(for: small)
        #expect(painter.discs.preparedBytes < bytes)
    }
}
