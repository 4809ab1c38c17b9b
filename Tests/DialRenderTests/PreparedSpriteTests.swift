import DialCore
@testable import KioskSeams
@testable import DialRender
import Testing

/// `prepare` builds the disc sprites of the sizes a spin draws while they fit in the cache's
/// bound, a frame drawn with them is the frame drawn with sprites built on demand, pixel for
/// pixel, and no cache grows past its bound.
@Suite struct PreparedSpriteTests {
    private static let width = 960, height = 540

    /// The poses of a fling, frame by frame at 60 Hz until the dial rests: a quick swipe along
    /// the ring from 3 o'clock, as `bench`'s spin does.
    func flingPoses(items: [MenuItem], geometry g: DialGeometry) -> [DialPose] {
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
        #expect(onDemand.discs.count == 0)
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
        #expect(painter.discs.count == expected)
        #expect(painter.discs.bytes > 0 && painter.discs.bytes <= painter.discs.bound)
        for pose in flingPoses(items: items, geometry: g) { painter.paint(pose) }
        #expect(painter.discs.builtOnDemandCount == 0)
    }

    /// The selection rings of the sizes near 12 o'clock are built by `prepare`, not by the
    /// frames of the first spin (each was a ring's worth of coverage tests in a frame).
    @Test func preparedPainterBuildsNoSelectionRingDuringASpin() throws {
        let items = DemoMenu.items
        let g = DialGeometry.fitting(width: Self.width, height: Self.height, count: items.count)
        let painter = try DialPainter(items: items, width: Self.width, height: Self.height)
        painter.prepare(for: g)
        #expect(painter.cacheBytes.rings > 0 && painter.cacheBytes.rings <= painter.cacheBounds.rings)
        let before = painter.builtInFrames
        for pose in flingPoses(items: items, geometry: g) { painter.paint(pose) }
        #expect(painter.builtInFrames.rings == before.rings)
        #expect(painter.builtInFrames.sprites == before.sprites)
    }

    /// When the labels of every size a spin draws do not fit in their bound at every half pixel,
    /// `prepare` fits them on a coarser grid of sizes that does fit, so a spin fits none in its
    /// frames (the demo menu at 1920x1080 fitted about 100 per spin, each a frame's worth of
    /// work, and pushed out those the next spin needed); when they fit, every half pixel stays.
    @Test func labelsOnACoarserGridWhenEverySizeDoesNotFit() throws {
        let items = DemoMenu.items
        let g = DialGeometry.fitting(width: Self.width, height: Self.height, count: items.count)
        var roomy = DialPainter.CacheBounds()
        roomy.labels = 64 << 20
        let exact = try DialPainter(items: items, width: Self.width, height: Self.height, bounds: roomy)
        exact.prepare(for: g)
        #expect(exact.labelSizeStep == 0.5, "every half pixel fits in 64 MiB")
        let everySize = exact.cacheBytes.labels
        let poses = flingPoses(items: items, geometry: g)
        let before = exact.builtInFrames.labels
        for pose in poses { exact.paint(pose) }
        #expect(exact.builtInFrames.labels == before, "every size the spin drew was prepared")

        var tight = DialPainter.CacheBounds()
        tight.labels = everySize / 3
        tight.spritesAndLabels = 0
        let gridded = try DialPainter(items: items, width: Self.width, height: Self.height, bounds: tight)
        gridded.prepare(for: g)
        #expect(gridded.labelSizeStep > 0.5)
        let prepared = gridded.builtInFrames.labels
        for (n, pose) in poses.enumerated() {
            gridded.paint(pose)
            #expect(gridded.cacheBytes.labels <= tight.labels, "labels \(gridded.cacheBytes.labels) B after frame \(n)")
        }
        #expect(gridded.builtInFrames.labels == prepared, "a spin fitted \(gridded.builtInFrames.labels - prepared) labels")
    }

    /// On a coarser grid a disc shows the label of the largest grid size not above its own, so a
    /// label never outgrows the disc; the selected item's size at rest is on the grid.
    @Test func aGriddedLabelIsNeverLargerThanItsDisc() throws {
        let items = DemoMenu.items
        let g = DialGeometry.fitting(width: Self.width, height: Self.height, count: items.count)
        var tight = DialPainter.CacheBounds()
        tight.labels = 32 << 10
        tight.spritesAndLabels = 0
        let painter = try DialPainter(items: items, width: Self.width, height: Self.height, bounds: tight)
        painter.prepare(for: g)
        let step = Int(painter.labelSizeStep * 2)
        #expect(step > 1)
        // Discs are drawn at a quarter pixel of radius (their sprites').
        let top = Double(DiscSpriteCache.key(g.itemRadius * 1.33)) / 4
        #expect(painter.labelHalfPixels(radius: top) == Int((top * 2).rounded()))
        for k in 0...400 {
            let r = Double(DiscSpriteCache.key(g.itemRadius * (0.66 + 0.67 * Double(k) / 400))) / 4
            let own = Int((r * 2).rounded()), shown = painter.labelHalfPixels(radius: r)
            #expect(shown <= own && shown > own - step, "radius \(r): label of \(shown) half pixels")
        }
    }

    /// The painter a reload replaces drops its caches before the new one is built (so the two
    /// do not interleave on the heap); it keeps painting the same pixels, rebuilding what it draws.
    @Test func aPainterThatDroppedItsCachesPaintsTheSamePixels() throws {
        let items = DemoMenu.items
        let g = DialGeometry.fitting(width: Self.width, height: Self.height, count: items.count)
        let poses = flingPoses(items: items, geometry: g)
        let kept = try DialPainter(items: items, width: Self.width, height: Self.height)
        let dropped = try DialPainter(items: items, width: Self.width, height: Self.height)
        kept.prepare(for: g)
        dropped.prepare(for: g)
        dropped.paint(poses[0])
        kept.paint(poses[0])
        dropped.dropCaches()
        let held = dropped.cacheBytes
        #expect(held.sprites == 0 && held.labels == 0 && held.rings == 0 && held.icons == 0)
        for (n, pose) in poses.prefix(20).enumerated() {
            kept.paint(pose)
            dropped.paint(pose)
            #expect(kept.frame.samePixels(as: dropped.frame), "frame \(n) after the drop")
        }
        #expect(dropped.cacheBytes.sprites > 0, "the frames built what they drew")
    }

    @Test func preparingAgainForTheSameGeometryKeepsTheSprites() throws {
        let items = DemoMenu.numbered(12)
        let g = DialGeometry.fitting(width: 480, height: 320, count: items.count)
        let painter = try DialPainter(items: items, width: 480, height: 320)
        painter.prepare(for: g)
        let built = painter.discs.builtCount
        painter.prepare(for: g)
        #expect(painter.discs.builtCount == built)
        let small = DialGeometry.fitting(width: 240, height: 160, count: items.count)
        painter.prepare(for: small)
        #expect(painter.discs.builtCount > built)
        #expect(painter.discs.contains(DiscSpriteCache.key(small.itemRadius * 0.66)))
    }

    /// A cache bounded well below what a spin draws: preparing stops at the bound, painting a
    /// spin builds the other sizes and drops the least recently used, and at no point do the
    /// sprites, labels or rings hold more than their bounds.
    @Test func cachesNeverGrowPastTheirBounds() throws {
        let items = DemoMenu.items
        let g = DialGeometry.fitting(width: Self.width, height: Self.height, count: items.count)
        var bounds = DialPainter.CacheBounds()
        bounds.sprites = 200 << 10
        bounds.labels = 64 << 10
        bounds.spritesAndLabels = 200 << 10
        bounds.rings = 48 << 10
        let painter = try DialPainter(items: items, width: Self.width, height: Self.height, bounds: bounds)
        func withinBounds(_ when: String) {
            let held = painter.cacheBytes
            #expect(held.sprites <= bounds.sprites, "sprites \(held.sprites) B \(when)")
            #expect(held.labels <= max(bounds.labels, bounds.spritesAndLabels - held.sprites), "labels \(held.labels) B \(when)")
            #expect(held.sprites + held.labels <= max(bounds.sprites + bounds.labels, bounds.spritesAndLabels),
                    "sprites and labels \(held.sprites + held.labels) B \(when)")
            #expect(held.rings <= bounds.rings, "rings \(held.rings) B \(when)")
        }
        painter.prepare(for: g)
        withinBounds("after prepare")
        let top = DiscSpriteCache.key(g.itemRadius * 1.33), far = DiscSpriteCache.key(g.itemRadius * 0.66)
        #expect(painter.discs.contains(top) && painter.discs.contains(far), "the sizes at rest are prepared first")
        for (n, pose) in flingPoses(items: items, geometry: g).enumerated() {
            painter.paint(pose)
            withinBounds("after frame \(n)")
        }
        #expect(painter.discs.evictedCount > 0, "the spin drew more than the bound holds")
    }

    /// The least recently used sprite goes first; one just drawn stays.
    @Test func theLeastRecentlyUsedSpriteIsDroppedFirst() {
        let one = DiscSprite(radius: 20, bottomShade: 0.82, shadowBlur: 20 * 0.22, shadowOffset: 20 * 0.12,
                             shadowOpacity: 0.5).byteCount
        let cache = DiscSpriteCache(theme: Theme(), bound: one * 3 + one / 2)
        _ = cache.sprite(radius: 20)
        _ = cache.sprite(radius: 19.75)
        _ = cache.sprite(radius: 19.5)
        _ = cache.sprite(radius: 20)
        _ = cache.sprite(radius: 19.25)
        #expect(cache.contains(80) && cache.contains(77))
        #expect(!cache.contains(79), "19.75 was the least recently used")
        #expect(cache.bytes <= cache.bound)
    }
}
