import DialCore
import DialRender
import KioskSeams
import LinuxSystem
import KioskLoop
import KioskRuntime

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
    /// Paint plus copy of the frames before the finger touched (the resting dial, copied whole
    /// into buffers of unknown age), in seconds; not counted in the figures below.
    var restSeconds: [Double] = []
    /// Paint plus copy, per frame from the touch on, in seconds, and the paint alone.
    var seconds: [Double] = []
    var paintSeconds: [Double] = []
    /// Sprites, labels and selection rings the first spin's frames built (not cached).
    var built: (sprites: Int, labels: Int, rings: Int) = (0, 0, 0)
    /// The same for the second spin.
    var warmBuilt: (sprites: Int, labels: Int, rings: Int) = (0, 0, 0)
    /// The same for a second, identical fling right after (sprites and labels of every size the
    /// first one needed are cached by then, as in a kiosk that has been used for a while).
    var warmSeconds: [Double] = []
    /// Bytes of the painter's caches after both spins.
    var cacheBytes: (sprites: Int, labels: Int, rings: Int, icons: Int) = (0, 0, 0, 0)
    /// Pixels of radius between two prepared label sizes (`DialPainter.labelSizeStep`).
    var labelSizeStep = 0.5
    /// The caches' budget `prepare` chose for this frame.
    var budget: CacheBudget
    /// The floor of each frame of the first spin and of the second: one memcpy per row of
    /// exactly the rectangles the copy wrote into scanout memory, from the painter's frame into
    /// the same scanout buffer, timed right after the copy (seconds).
    var floorSeconds: [Double] = []
    var warmFloorSeconds: [Double] = []
    /// The same figures in this thread's CPU time (`threadCPUNow`): paint plus copy and the
    /// floor of each frame of both spins, and the paint alone of the first.
    var cpu = CPUSeconds()

    struct CPUSeconds {
        var seconds: [Double] = [], warmSeconds: [Double] = [], paintSeconds: [Double] = []
        var floor: [Double] = [], warmFloor: [Double] = []
    }

    /// With `damageLimited` false every frame is copied whole (the figures before buffer age).
    /// The frames come from the device's frame loop on a 60 Hz virtual display with `count`
    /// scanout buffers (each painted with its buffer age), in virtual time: only the paint and
    /// the copy are timed.
    /// The dial and painter are `recipe`'s for `setup` (the scene's own), on `panel`.
    init(recipe: SceneRecipe, setup: DialSetup, panel: FrameSize, buffers count: Int,
         damageLimited: Bool = true) throws {
        buffers = max(1, count)
        self.damageLimited = damageLimited
        let rotation = recipe.rotation
        let logical = (width: setup.width, height: setup.height)
        let geometry = setup.geometry
        let (dial, painter) = try recipe.parts(setup)
        budget = painter.cacheBudget
        let copier = ScanoutCopy(rotation: rotation)
        let clock = VirtualClock()
        let display = VirtualDisplay(width: panel.width, height: panel.height, timing: .init(refresh: 1 / Self.refresh),
                                     buffers: buffers, populate: true) { clock.now }
        let frameBytes = panel.width * panel.height * 4
        var warm = false
        var frames = 0, fullBytes = 0, bytes: [Int] = [], seconds: [Double] = [], warmSeconds: [Double] = []
        var paintSeconds: [Double] = [], restSeconds: [Double] = [], floor: [Double] = [], warmFloor: [Double] = []
        var cpu = CPUSeconds()
        var touchTime = 0.0
        let scene = Scene(dial: dial) { pose, target in
            var target = target
            if !damageLimited { target.age = nil }
            let c0 = threadCPUNow(), t0 = monotonicNow()
            let damage = painter.paint(pose)
            let t1 = monotonicNow(), c1 = threadCPUNow()
            _ = copier.copy(painter.frame, damage: damage, to: target)
            let elapsed = monotonicNow() - t0, cpuElapsed = threadCPUNow() - c0
            let panelRects = copier.lastCopiedRects.map { rects in
                rects.map { rotation.panelRect($0, logicalWidth: logical.width, logicalHeight: logical.height) }
            }
            let f0 = threadCPUNow()
            let floorTime = Self.timeFloor(painter.frame, rects: panelRects, to: target)
            let cpuFloor = threadCPUNow() - f0
            if warm {
                warmSeconds.append(elapsed)
                warmFloor.append(floorTime)
                cpu.warmSeconds.append(cpuElapsed)
                cpu.warmFloor.append(cpuFloor)
            } else if clock.now < touchTime {
                restSeconds.append(elapsed)
            } else {
                seconds.append(elapsed)
                paintSeconds.append(t1 - t0)
                bytes.append(copier.lastCopiedPixels * 4)
                floor.append(floorTime)
                cpu.seconds.append(cpuElapsed)
                cpu.paintSeconds.append(c1 - c0)
                cpu.floor.append(cpuFloor)
                fullBytes += frameBytes
                frames += 1
            }
            return nil
        }
        let before = painter.builtInFrames
        var built = before
        for spin in 0..<2 {
            warm = spin == 1
            if warm { built = painter.builtInFrames }
            // The resting frame on screen first, then the fling; frames follow until the dial rests.
            let events = DemoFling.events(geometry: geometry, radPerSecond: Self.flingSpeed, endTime: clock.now + 0.1)
            touchTime = events.first?.time ?? clock.now
            var fling = events.makeIterator()
            let input = try ScriptInput(now: { clock.now }) { fling.next() }
            let loop = FrameLoop(output: LoopOutput(presenter: display), sources: FrameLoop.sources(displays: [display], inputs: [input]),
                                 scene: scene, now: { clock.now },
                                 pacing: LoopPacing(schedule: FrameSchedule(refreshPeriod: Self.refresh)), log: { _ in })
            try loop.start(at: clock.now)
            _ = try loop.run(waiter: VirtualWaiter(clock: clock, horizon: clock.now + 60))
        }
        (self.frames, self.fullBytes, self.bytes, self.seconds, self.warmSeconds) = (frames, fullBytes, bytes, seconds, warmSeconds)
        self.paintSeconds = paintSeconds
        self.restSeconds = restSeconds
        floorSeconds = floor
        warmFloorSeconds = warmFloor
        self.cpu = cpu
        self.built = (built.sprites - before.sprites, built.labels - before.labels, built.rings - before.rings)
        let after = painter.builtInFrames
        warmBuilt = (after.sprites - built.sprites, after.labels - built.labels, after.rings - built.rings)
        cacheBytes = painter.cacheBytes
        labelSizeStep = painter.labelSizeStep
    }

    var total: Int { bytes.reduce(0, +) }

    /// Times the floor of a frame: for each panel rectangle in `rects` (nil: the whole panel),
    /// one memcpy per row of its bytes from `frame`'s memory into the rectangle in `target`.
    /// With rotation 0 the source bytes are the ones the copy read; turned, the same number of
    /// bytes from the frame (the rectangle's rows do not lie along the frame's), so the figure
    /// is what the bytes cost without the transpose.
    static func timeFloor(_ frame: PixelBuffer, rects: [PixelRect]?, to target: FrameTarget) -> Double {
        let all = [PixelRect(x0: 0, y0: 0, x1: target.width, y1: target.height)]
        let sourceBytes = frame.stride * frame.height
        return frame.withUnsafePixels { s in
            let src = UnsafeRawPointer(s)
            let t0 = monotonicNow()
            for r in rects ?? all {
                let n = (r.x1 - r.x0) * 4
                guard n > 0 else { continue }
                for y in r.y0..<r.y1 {
                    let at = y * target.stride + r.x0 * 4
                    (target.base + at).copyMemory(from: src + min(y * frame.stride + r.x0 * 4, sourceBytes - n), byteCount: n)
                }
            }
            return monotonicNow() - t0
        }
    }
}
