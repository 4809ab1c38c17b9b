import DialCore
import DialRender
import Testing
@testable import KioskSeams
@testable import KioskRuntime
@testable import KioskLoop
import KioskTestSupport

/// The dim look without reading the scanout buffer: `Dimming.darken` used to
/// halve the dumb buffer in place after the copy, reading write-combined memory.
@Suite struct DimmingTests {
    @Test func dimmedFrameIsPaintedInRAMAndOnlyWrittenToTheTarget() throws {
        let w = 40, h = 30
        var target = PixelBuffer(width: w, height: h, fill: 0xDEAD_BEEF)
        var paintedInto: [UnsafeMutableRawPointer] = []
        let paint = { (_: DialPose, t: FrameTarget) -> [PixelRect]? in
            paintedInto.append(t.base)
            for y in 0..<t.height {
                let row = (t.base + y * t.stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<t.width { row[x] = UInt32(x * 6) << 16 | UInt32(y * 8) << 8 | 0xFF }
            }
            return nil
        }
        let pose = DialSetup(config: .demo, width: w, height: h).pose(rotation: 0)
        var scanout: UnsafeMutableRawPointer?
        target.withFrameTarget { t in
            scanout = t.base
            Dimming.paintDimmed(pose, into: t, paint)
        }
        // The painter drew into a frame of its own, never into the scanout buffer (which the old
        // code then read back to halve it) ...
        #expect(paintedInto.count == 1 && paintedInto.first != scanout)
        // ... and the scanout buffer holds that frame halved, whatever it held before.
        for y in 0..<h {
            for x in 0..<w { #expect(target[x, y] == ((UInt32(x * 6) << 16 | UInt32(y * 8) << 8 | 0xFF) >> 1) & 0x7F7F7F) }
        }
    }

    @Test(arguments: [DisplayRotation.none, .quarter])
    func dimmedDialIsTheAwakeDialWithEveryChannelHalved(rotation: DisplayRotation) throws {
        // The dial as `run` paints it (DialSetup's painter and the rotated copy).
        let panel = (width: 200, height: 120)
        let logical = rotation.logicalSize(panelWidth: panel.width, panelHeight: panel.height)
        let scene = try SceneRecipe.scene(config: .demo, restingOn: nil, width: logical.width, height: logical.height,
                                         rotation: rotation, painter: .dial)
        let pose = DialSetup(config: .demo, width: logical.width, height: logical.height).pose(rotation: 0.3)
        var awake = PixelBuffer(width: panel.width, height: panel.height)
        _ = try awake.withFrameTarget { try scene.paint(pose, $0) }
        var dimmed = PixelBuffer(width: panel.width, height: panel.height, fill: 0xFFFF_FFFF)
        try dimmed.withFrameTarget { try Dimming.paintDimmed(pose, into: $0, scene.paint) }
        var differing = 0
        for y in 0..<panel.height {
            for x in 0..<panel.width where dimmed[x, y] != (awake[x, y] >> 1) & 0x7F7F7F { differing += 1 }
        }
        #expect(differing == 0)
    }
}
