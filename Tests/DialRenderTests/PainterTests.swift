import DialCore
@testable import DialRender
import Testing

@Suite struct PainterTests {
    private func builder(_ n: Int, _ w: Int, _ h: Int) -> PoseBuilder {
        PoseBuilder(layout: DialLayout(count: n), geometry: .fitting(width: w, height: h, count: n))
    }

    @Test(arguments: [0, 3, 7])
    func selectedItemIsDrawnLargestAtTwelve(index: Int) throws {
        // Flat discs and no labels, so each item's area is exactly the pixels of its colour.
        var theme = Theme()
        theme.itemBottomShade = 1
        theme.selectionWidth = 0
        let items = DemoMenu.numbered(9).map { MenuItem(id: $0.id, label: "", color: $0.color) }
        let b = builder(9, 480, 480)
        let rotation = b.layout.restRotation(of: index) + 0.05
        let pose = b.pose(rotation: rotation, visibility: .shown, time: 0)
        #expect(pose.selected == index)
        let painter = try DialPainter(items: items, theme: theme, width: 480, height: 480)
        painter.paint(pose)
        var counts = [Int](repeating: 0, count: items.count)
        var sumX = [Double](repeating: 0, count: items.count), sumY = sumX
        for y in 0..<480 {
            for x in 0..<480 {
                let px = painter.frame[x, y]
                if let i = items.firstIndex(where: { $0.color.xrgb == px }) {
                    counts[i] += 1; sumX[i] += Double(x); sumY[i] += Double(y)
                }
            }
        }
        let largest = try #require(counts.indices.max { counts[$0] < counts[$1] })
        #expect(largest == index, "pixel counts \(counts)")
        let cx = sumX[largest] / Double(counts[largest]), cy = sumY[largest] / Double(counts[largest])
        #expect(abs(cx - 240) < 20)
        #expect(cy < 240 - b.geometry.ringRadius * 0.8)
    }

    @Test func repaintingIncrementallyMatchesPaintingFromScratch() throws {
        let b = builder(10, 400, 300)
        let painter = try DialPainter(items: DemoMenu.items, width: 400, height: 300)
        let poses = [
            b.pose(rotation: 0, visibility: .shown, time: 0),
            b.pose(rotation: 0.4, visibility: .shown, time: 0),
            b.pose(rotation: 2.9, visibility: .showing(since: 0), time: 0.2),
            b.pose(rotation: 2.9, visibility: .hidden, time: 0),
            b.pose(rotation: -1.3, visibility: .shown, time: 0),
        ]
        for pose in poses {
            painter.paint(pose)
            var fresh = PixelBuffer(width: 400, height: 300)
            painter.paint(pose, into: &fresh)
            #expect(painter.frame.samePixels(as: fresh))
        }
    }

    /// A reload's painter takes the old one's frame and background memory (a reload never
    /// holds two frames), paints what a painter of its own paints, and the old painter still
    /// paints correctly afterwards (into new buffers).
    @Test func aReplacingPainterTakesTheOldFrameAndBothStillPaint() throws {
        let w = 320, h = 240
        let b = builder(DemoMenu.items.count, w, h)
        let poses = [0.0, 0.3, 0.35].map { b.pose(rotation: $0, visibility: .shown, time: 0) }
        let old = try DialPainter(items: DemoMenu.items, width: w, height: h)
        old.prepare(for: b.geometry)
        for pose in poses { old.paint(pose) }
        let oldFrame = ObjectIdentifier(old.frame.storage)

        let reloaded = try DialPainter(items: DemoMenu.numbered(7), width: w, height: h)
        reloaded.reuseBuffers(of: old)
        #expect(old.background.byteCount < 64)
        let b7 = builder(7, w, h)
        reloaded.prepare(for: b7.geometry)
        #expect(ObjectIdentifier(reloaded.frame.storage) == oldFrame)
        let fresh = try DialPainter(items: DemoMenu.numbered(7), width: w, height: h)
        for rotation in [0.0, 0.2] {
            let pose = b7.pose(rotation: rotation, visibility: .shown, time: 0)
            reloaded.paint(pose)
            fresh.paint(pose)
            #expect(reloaded.frame.samePixels(as: fresh.frame))
        }
        // The old painter repaints in full into buffers of its own.
        var scratch = PixelBuffer(width: w, height: h)
        old.paint(poses[2])
        old.paint(poses[2], into: &scratch)
        #expect(old.frame.width == w && old.frame.samePixels(as: scratch))
        #expect(ObjectIdentifier(old.frame.storage) != oldFrame)
    }

    @Test func hiddenDialShowsOnlyBackgroundAndFadingShowsLess() throws {
        let b = builder(10, 400, 300)
        let painter = try DialPainter(items: DemoMenu.items, width: 400, height: 300)
        var hidden = PixelBuffer(width: 400, height: 300), shown = hidden, half = hidden
        painter.paint(b.pose(rotation: 0, visibility: .hidden, time: 0), into: &hidden)
        painter.paint(b.pose(rotation: 0, visibility: .shown, time: 0), into: &shown)
        painter.paint(b.pose(rotation: 0, visibility: .showing(since: 0), time: 0.12), into: &half)
        func difference(_ a: PixelBuffer, _ c: PixelBuffer) -> Int {
            var n = 0
            for y in 0..<300 { for x in 0..<400 where a[x, y] != c[x, y] { n += 1 } }
            return n
        }
        // The item at 12 o'clock in the shown frame is not there when hidden.
        let top = b.geometry.center.y - b.geometry.ringRadius
        #expect(hidden[200, Int(top)] != shown[200, Int(top)])
        let toShown = difference(hidden, shown), toHalf = difference(hidden, half)
        #expect(toShown > 10_000)
        #expect(toHalf > 0 && toHalf < toShown)
    }

    @Test func iconsAreDrawnAndAMissingIconIsAnError() throws {
        // A 16x16 pure blue PNG, written and read through libpng.
        let path = "/tmp/dialkiosk-test-icon-\(UInt32.random(in: 0...UInt32.max)).png"
        try PNGWriter.write(PixelBuffer(width: 16, height: 16, fill: 0x0000FF), to: path)
        var theme = Theme()
        theme.iconReplacesLabel = true
        let items = [MenuItem(id: "a", label: "A", color: RGBColor(hex: 0xFFFFFF), iconPath: path)]
            + DemoMenu.numbered(3).dropFirst()
        let b = builder(3, 300, 300)
        let painter = try DialPainter(items: items, theme: theme, width: 300, height: 300)
        let pose = b.pose(rotation: 0, visibility: .shown, time: 0)
        painter.paint(pose)
        let c = pose.items[0].center
        #expect(painter.frame[Int(c.x), Int(c.y)] == 0x0000FF)
        #expect {
            _ = try DialPainter(items: [MenuItem(id: "x", label: "X", color: RGBColor(hex: 0), iconPath: "/nonexistent/x.png")],
                                width: 100, height: 100)
        } throws: { error in
            guard let e = error as? RenderError else { return false }
            return e.kind == .inputFile && e.description.contains("/nonexistent/x.png") && e.description.contains("'x'")
        }
    }

    @Test func iconAboveTheLabelLeavesRoomForIt() throws {
        let path = "/tmp/dialkiosk-test-icon-\(UInt32.random(in: 0...UInt32.max)).png"
        try PNGWriter.write(PixelBuffer(width: 32, height: 32, fill: 0x0000FF), to: path)
        var theme = Theme()
        theme.itemBottomShade = 1
        let white = RGBColor(hex: 0xFFFFFF)
        let items = [MenuItem(id: "a", label: "Tea", color: white, iconPath: path),
                     MenuItem(id: "b", label: "B", color: white), MenuItem(id: "c", label: "C", color: white)]
        let b = builder(3, 400, 400)
        let painter = try DialPainter(items: items, theme: theme, width: 400, height: 400)
        let pose = b.pose(rotation: 0, visibility: .shown, time: 0)
        painter.paint(pose)
        let c = pose.items[0].center, r = b.geometry.itemRadius * pose.items[0].scale
        let cx = Int(c.x.rounded()), cy = Int(c.y.rounded())
        // The icon sits above the centre ...
        #expect(painter.frame[cx, cy - Int(r * 0.22)] == 0x0000FF)
        // ... and the label's dark ink below it, with no blue there.
        var ink = 0, blue = 0
        for y in (cy + Int(r * 0.3))..<(cy + Int(r * 0.7)) {
            for x in (cx - Int(r * 0.5))..<(cx + Int(r * 0.5)) {
                let px = painter.frame[x, y]
                if px == 0x0000FF { blue += 1 } else if px & 0xFF < 0x80 { ink += 1 }
            }
        }
        #expect(ink > 10)
        #expect(blue == 0)
    }

    @Test func pngRoundTripsExactly() throws {
        var b = PixelBuffer(width: 37, height: 23)
        for y in 0..<23 { for x in 0..<37 { b[x, y] = UInt32(x * 7) << 16 | UInt32(y * 11) << 8 | UInt32((x ^ y) & 0xFF) } }
        let path = "/tmp/dialkiosk-test-roundtrip-\(UInt32.random(in: 0...UInt32.max)).png"
        try PNGWriter.write(b, to: path)
        let back = try PNGReader.readPixels(path)
        #expect(back.samePixels(as: b))
        #expect(throws: RenderError.self) { try PNGWriter.write(b, to: "/nonexistent-dir/x.png") }
    }
}
