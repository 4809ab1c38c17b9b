import DialCore
@testable import KioskSeams
@testable import DialRender
import Testing

@Suite struct DamageTests {
    private static let poison: UInt32 = 0xDEAD_BEEF

    /// A frame whose every pixel names its own position.
    private func numbered(width: Int, height: Int) -> PixelBuffer {
        var b = PixelBuffer(width: width, height: height)
        for y in 0..<height { for x in 0..<width { b[x, y] = UInt32(y << 12 | x) } }
        return b
    }

    /// Which pixels of a `width` x `height` frame `rects` cover.
    private func covered(_ rects: [PixelRect], width: Int, height: Int) -> [Bool] {
        var out = [Bool](repeating: false, count: width * height)
        for r in rects {
            let c = r.clipped(width: width, height: height)
            guard !c.isEmpty else { continue }
            for y in c.y0..<c.y1 { for x in c.x0..<c.x1 { out[y * width + x] = true } }
        }
        return out
    }

    private func randomRect(_ rng: inout SplitMix64, width: Int, height: Int) -> PixelRect {
        let x0 = Int.random(in: -10..<width, using: &rng), y0 = Int.random(in: -10..<height, using: &rng)
        return PixelRect(x0: x0, y0: y0, x1: x0 + Int.random(in: 0...40, using: &rng),
                         y1: y0 + Int.random(in: 0...40, using: &rng))
    }

    @Test(arguments: DisplayRotation.allCases)
    func aRectangleIsCopiedToWhereItLandsAndNothingElseIsWritten(rotation: DisplayRotation) {
        // Odd sizes, rectangles crossing the 16-column strips and the frame's edges.
        let w = 67, h = 45
        let src = numbered(width: w, height: h)
        let full = src.rotated(rotation)
        var rng = SplitMix64(seed: 7)
        for _ in 0..<40 {
            let r = randomRect(&rng, width: w, height: h)
            var dst = PixelBuffer(width: full.width, height: full.height, stride: (full.width + 3) * 4, fill: Self.poison)
            dst.withFrameTarget { copy(src, to: $0, rotation: rotation, damage: [r]) }
            let inside = r.clipped(width: w, height: h)
            for y in 0..<h {
                for x in 0..<w {
                    let p = rotation.panelPixel(x: x, y: y, logicalWidth: w, logicalHeight: h)
                    let covered = x >= inside.x0 && x < inside.x1 && y >= inside.y0 && y < inside.y1
                    #expect(dst[p.x, p.y] == (covered ? src[x, y] : Self.poison), "\(r) at (\(x), \(y))")
                }
            }
            // The mapped rectangle is where the pixels went.
            let m = rotation.panelRect(inside, logicalWidth: w, logicalHeight: h)
            #expect(m.area == inside.area)
        }
    }

    @Test func unionCoversEveryInputPixelExactlyOnce() {
        let w = 90, h = 70
        var rng = SplitMix64(seed: 11)
        for _ in 0..<50 {
            let rects = (0..<Int.random(in: 0...30, using: &rng)).map { _ in randomRect(&rng, width: w, height: h) }
            var wanted = [Int](repeating: 0, count: w * h), got = wanted
            for r in rects {
                let c = r.clipped(width: w, height: h)
                guard !c.isEmpty else { continue }
                for y in c.y0..<c.y1 { for x in c.x0..<c.x1 { wanted[y * w + x] = 1 } }
            }
            let union = Damage.union(rects, width: w, height: h)
            for r in union {
                #expect(!r.isEmpty && r == r.clipped(width: w, height: h))
                for y in r.y0..<r.y1 { for x in r.x0..<r.x1 { got[y * w + x] += 1 } }
            }
            #expect(got == wanted)
        }
    }

    @Test func historyCopiesEverythingWhenTheAgeOrAFrameIsUnknown() {
        var history = DamageHistory()
        let a = [PixelRect(x0: 0, y0: 0, x1: 2, y1: 2)], b = [PixelRect(x0: 5, y0: 5, x1: 6, y1: 6)]
        history.record(1, damage: a)
        history.record(2, damage: b)
        #expect(history.damage(frame: 2, age: 1, width: 10, height: 10) == b)
        #expect(history.damage(frame: 2, age: 2, width: 10, height: 10) == a + b)
        #expect(history.damage(frame: 2, age: nil, width: 10, height: 10) == nil)
        #expect(history.damage(frame: 2, age: 3, width: 10, height: 10) == nil)
        // Frame 4 was painted by someone else (a dim or blank frame).
        history.record(5, damage: a)
        #expect(history.damage(frame: 5, age: 1, width: 10, height: 10) == a)
        #expect(history.damage(frame: 5, age: 2, width: 10, height: 10) == nil)
        history.record(6, damage: nil)
        #expect(history.damage(frame: 6, age: 1, width: 10, height: 10) == nil)
    }

    @Test func bufferAgesCountFramesSinceEachBufferWasPainted() {
        var ages = BufferAges(count: 2)
        var storage: UInt32 = 0
        let t = FrameTarget(base: &storage, width: 1, height: 1, stride: 4)
        func paint(_ index: Int, completes: Bool = true) -> (Int?, Int?) {
            let target = ages.next(t, buffer: index)
            if completes { ages.painted(buffer: index) }
            return (target.frameNumber, target.age)
        }
        #expect(paint(0) == (1, nil))
        #expect(paint(1) == (2, nil))
        #expect(paint(0) == (3, 2))
        #expect(paint(1, completes: false) == (4, 2))
        #expect(paint(0) == (5, 2))
        // The paint into buffer 1 threw: its contents are unknown.
        #expect(paint(1) == (6, nil))
        #expect(paint(1) == (7, 1))
    }

    /// Random poses (rotation, visibility, selection), now and then a new geometry (a reload).
    private func poses(count: Int, width: Int, height: Int, seed: UInt64) -> [DialPose] {
        var rng = SplitMix64(seed: seed)
        let n = DemoMenu.items.count
        let builders = [DialGeometry.fitting(width: width, height: height, count: n),
                        DialGeometry.fitting(width: width * 9 / 10, height: height, count: n)].map {
            PoseBuilder(layout: DialLayout(count: n), geometry: $0)
        }
        var builder = builders[0], rotation = 0.0
        return (0..<count).map { k in
            if k % 11 == 10 { builder = builders[Int.random(in: 0...1, using: &rng)] }
            // Mostly small steps, as in a spin, sometimes a jump.
            rotation += Bool.random(using: &rng) ? Double.random(in: -0.2...0.2, using: &rng) : Double.random(in: -4...4, using: &rng)
            let visibility: Visibility = k % 7 == 3 ? .showing(since: 0) : .shown
            return builder.pose(rotation: rotation, visibility: visibility, time: Double.random(in: 0...0.4, using: &rng))
        }
    }

    @Test(arguments: DisplayRotation.allCases, [2, 3])
    func damageLimitedCopiesEqualFullCopies(rotation: DisplayRotation, buffers: Int) throws {
        let w = 150, h = 110
        let painter = try DialPainter(items: DemoMenu.items, width: w, height: h)
        let copier = ScanoutCopy(rotation: rotation)
        let (pw, ph) = rotation.swapsAxes ? (h, w) : (w, h)
        // Buffers start poisoned: a pixel a copy skips must hold exactly what it held before.
        var scanout = (0..<buffers).map { _ in PixelBuffer(width: pw, height: ph, stride: (pw + 2) * 4, fill: Self.poison) }
        var ages = BufferAges(count: buffers)
        var limited = 0
        for (k, pose) in poses(count: 60, width: w, height: h, seed: UInt64(rotation.degrees + buffers)).enumerated() {
            let index = k % buffers
            if k % 13 == 12 {
                // A frame the copier never sees (dimmed or blank): poison the whole buffer.
                scanout[index].withFrameTarget { _ = ages.next($0, buffer: index) }
                scanout[index].fill(Self.poison)
                ages.painted(buffer: index)
                continue
            }
            let damage = painter.paint(pose)
            let returned = scanout[index].withFrameTarget { t -> [PixelRect]? in
                copier.copy(painter.frame, damage: damage, to: ages.next(t, buffer: index))
            }
            ages.painted(buffer: index)
            let n = ages.framesPainted
            if copier.lastCopiedPixels < w * h { limited += 1 }
            let expected = painter.frame.rotated(rotation)
            #expect(scanout[index].samePixels(as: expected), "frame \(n) in buffer \(index)")
            // The damage handed to the presenter is the painter's, clipped and turned onto the panel.
            let panelDamage = damage.map { Damage.union($0, width: w, height: h).map {
                rotation.panelRect($0, logicalWidth: w, logicalHeight: h)
            } }
            #expect(returned.map { covered($0, width: pw, height: ph) } == panelDamage.map { covered($0, width: pw, height: ph) })
            #expect(returned?.allSatisfy { $0 == $0.clipped(width: pw, height: ph) && !$0.isEmpty } ?? true)
        }
        // Most frames took the short path (otherwise this test proves nothing).
        #expect(limited >= 20)
    }

    @Test func thePaintersDamageHoldsEveryChangedPixel() throws {
        let w = 160, h = 120
        let painter = try DialPainter(items: DemoMenu.items, width: w, height: h)
        var previous: PixelBuffer?
        var checked = 0
        for pose in poses(count: 40, width: w, height: h, seed: 3) {
            let damage = painter.paint(pose)
            // The restored frame is the frame painted from scratch.
            var fresh = PixelBuffer(width: w, height: h)
            painter.paint(pose, into: &fresh)
            #expect(painter.frame.samePixels(as: fresh))
            if let previous, let damage {
                checked += 1
                let inside = covered(damage, width: w, height: h)
                for y in 0..<h {
                    for x in 0..<w where previous[x, y] != fresh[x, y] {
                        #expect(inside[y * w + x], "(\(x), \(y)) changed outside the damage")
                    }
                }
                #expect(Damage.area(Damage.union(damage, width: w, height: h)) < w * h)
            }
            previous = fresh
        }
        #expect(checked > 25)
    }
}
