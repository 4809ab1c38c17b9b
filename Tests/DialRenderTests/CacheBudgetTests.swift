import DialCore
@testable import DialRender
import Testing

/// The painter's caches are sized by `prepare` to the frame and to the work: a ring at 3840x2160
/// spins without building a sprite, a label or a selection ring inside its frames, within a
/// ceiling that grows with the frame, and small frames keep a sprite every quarter pixel.
@Suite struct CacheBudgetTests {
    /// The demo menu's fling at 3840x2160, looked up frame by frame as `paint` does (drawing
    /// 33 MB frames is not what is tested, and takes long in a debug build).
    @Test func aSpinAt4KBuildsNothingInItsFrames() throws {
        let items = DemoMenu.items, width = 3840, height = 2160
        let g = DialGeometry.fitting(width: width, height: height, count: items.count)
        let painter = try DialPainter(items: items, width: width, height: height)
        painter.prepareCaches(for: g)
        let before = painter.builtInFrames
        let poses = PreparedSpriteTests().flingPoses(items: items, geometry: g)
        let scales = poses.flatMap { $0.items.map(\.scale) }
        #expect(scales.min()! < 0.7 && scales.max()! > 1.3, "the spin draws the whole inflate range")
        for pose in poses { painter.lookUp(pose) }
        let built = painter.builtInFrames
        #expect(built.sprites == before.sprites, "the spin built \(built.sprites - before.sprites) sprites in its frames")
        #expect(built.labels == before.labels, "the spin built \(built.labels - before.labels) labels in its frames")
        #expect(built.rings == before.rings, "the spin built \(built.rings - before.rings) selection rings in its frames")
        let budget = painter.cacheBudget, held = painter.cacheBytes
        #expect(held.sprites + held.labels + held.rings <= budget.ceiling)
        #expect(budget.ceiling == CacheBudget.ceiling(width: width, height: height))
    }

    /// The ceiling follows the frame: 5 MiB up to 1920x1080, half a frame above; the sprites of
    /// the frames the golden pictures are painted at stay at every quarter pixel.
    @Test func theBudgetFollowsTheFrame() throws {
        #expect(CacheBudget.ceiling(width: 800, height: 480) == 5 << 20)
        #expect(CacheBudget.ceiling(width: 1920, height: 1080) == 5 << 20)
        #expect(CacheBudget.ceiling(width: 3840, height: 2160) == 3840 * 2160 * 2)
        for (w, h) in [(800, 480), (1920, 1080)] {
            let g = DialGeometry.fitting(width: w, height: h, count: DemoMenu.items.count)
            let painter = try DialPainter(items: DemoMenu.items, width: w, height: h)
            painter.prepareCaches(for: g)
            #expect(painter.cacheBudget.spriteStep == 0.25, "\(w)x\(h)")
            #expect(painter.builtInFrames.sprites == 0)
        }
        // A step is the finest whose sprites fit in the share.
        #expect(CacheBudget.spriteStep(share: 100) { 400 / $0 } == 4)
        #expect(CacheBudget.spriteStep(share: 100) { 800 / $0 } == 8)
        #expect(CacheBudget.spriteStep(share: 400) { 400 / $0 } == 1)
    }
}
