import DialCore
import DialRender
import LinuxSystem

/// `bench`'s spin: a fling that turns the ring for about a second, from rest to rest, driven by
/// DialCore's Dial at 60 Hz, painted and copied into `buffers` scanout buffers in turn (each
/// with its buffer age, as KMSDisplay numbers them), counting the bytes written into scanout
/// memory.
struct BenchSpin {
    /// Fling speed in radians per second (a brisk flick on a 24-item ring).
    static let flingSpeed = 5.0
    static let refresh = 1.0 / 60

    let buffers: Int
    let damageLimited: Bool
    var frames = 0
    /// Bytes written into scanout memory, per frame.
    var bytes: [Int] = []
    /// Bytes a full copy of every frame would have written.
    var fullBytes = 0
    /// Paint plus copy, per frame, in seconds.
    var seconds: [Double] = []
    /// The same for a second, identical fling right after (sprites and labels of every size the
    /// first one needed are cached by then, as in a kiosk that has been used for a while).
    var warmSeconds: [Double] = []
    /// Bytes of the painter's caches after both spins.
    var cacheBytes: (sprites: Int, labels: Int, rings: Int, icons: Int) = (0, 0, 0, 0)

    /// With `damageLimited` false every frame is copied whole (the figures before buffer age).
    init(items menu: [MenuItem], panel: FrameSize, rotation: DisplayRotation, buffers count: Int,
         damageLimited: Bool = true) throws {
        buffers = max(1, count)
        self.damageLimited = damageLimited
        let logical = rotation.logicalSize(panelWidth: panel.width, panelHeight: panel.height)
        let geometry = DialGeometry.fitting(width: logical.width, height: logical.height, count: menu.count)
        let dial = Dial(items: menu, geometry: geometry)
        let painter = try DialPainter(items: menu, width: logical.width, height: logical.height)
        painter.prepare(for: geometry)
        let copier = ScanoutCopy(rotation: rotation)
        var scanout = (0..<max(1, count)).map { _ in PixelBuffer(width: panel.width, height: panel.height) }
        var ages = BufferAges(count: scanout.count)
        var time = 0.0
        let frameBytes = panel.width * panel.height * 4
        for spin in 0..<2 {
            // The resting frame on screen first, then the fling; frames follow until the dial rests.
            for e in DemoFling.events(geometry: geometry, radPerSecond: Self.flingSpeed, endTime: time + 0.1) {
                _ = dial.handle(e)
            }
            time += 0.1
            var spinFrames = 0
            while spinFrames < 1 || dial.needsFrame, spinFrames < 600 {
                dial.advance(to: time)
                let index = ages.framesPainted % scanout.count
                let pose = dial.pose
                let t0 = monotonicNow()
                var written = 0
                scanout[index].withFrameTarget { t in
                    var target = ages.next(t, buffer: index)
                    if !damageLimited { target.age = nil }
                    let damage = painter.paint(pose)
                    _ = copier.copy(painter.frame, damage: damage, to: target)
                    written = copier.lastCopiedPixels * 4
                }
                let elapsed = monotonicNow() - t0
                ages.painted(buffer: index)
                spinFrames += 1
                time += Self.refresh
                if spin == 1 {
                    warmSeconds.append(elapsed)
                    continue
                }
                seconds.append(elapsed)
                bytes.append(written)
                fullBytes += frameBytes
                frames += 1
            }
        }
        cacheBytes = painter.cacheBytes
    }

    var total: Int { bytes.reduce(0, +) }
}
