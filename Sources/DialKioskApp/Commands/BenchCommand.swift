import ArgumentParser
import DialCore
import DialRender
import KioskSeams
import LinuxSystem
import KioskConfiguration
import KioskFeatures
import KioskRuntime

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure paint and copy times per frame.",
        discussion: """
            Without --size, runs 800x480 with 10 items, 1280x800 with 10 and 1920x1080 with 24. Each \
            frame turns the ring to a new angle (two full turns over the run), is painted into the \
            painter's frame and copied into a separate destination buffer. The memset and memcpy \
            figures are one full frame of the same size, timed next to every fourth frame (medians \
            reported). Then a spin: a fling that turns the ring for about a second from rest to \
            rest at 60 Hz, painted and copied into --buffers scanout buffers in turn, each only \
            where it is out of date (buffer age); it prints the bytes written into scanout memory \
            per frame and in total, and paint + copy against the memcpy (median, and the max of \
            the first ten frames from the touch beside that of the later ones; the resting frame \
            before the touch is printed apart). Last, the kiosk's memory: a child `simulate --paint` of the same \
            size and menu runs --memory-frames frames of generated spins and reports its anonymous \
            memory (what the process allocated) and resident peak.
            """
    )

    /// --size, --items and --rotate, as the other commands that build a scene take them.
    @OptionGroup var scene: SceneOptions<BenchSceneUse>
    var size: FrameSize? { scene.size }
    var items: Int? { scene.items }
    /// The rotation rule with no configuration and no panel: --rotate, else upright.
    var rotate: DisplayRotation { .chosen(option: scene.rotate, configured: .none, panel: nil) }

    @Option(help: ArgumentHelp("Frames per configuration (at least 1; the full run uses 300).", valueName: "K"))
    var frames: Int = 300

    @Option(help: ArgumentHelp("Scanout buffers for the spin (2 or 3).", valueName: "N"))
    var buffers: Int = 2

    @Flag(help: "Copy whole frames in the spin (the figures without buffer age).")
    var fullCopy = false

    @Option(help: ArgumentHelp("Frames of generated spins in the child `simulate --paint` that measures the kiosk's memory per configuration (3600: a minute at 60 Hz; 0: no memory figures).", valueName: "K"))
    var memoryFrames: Int = 3600

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func validate() throws {
        if frames < 1 { throw ValidationError("--frames must be at least 1, not \(frames)") }
        if memoryFrames < 0 { throw ValidationError("--memory-frames must be at least 0, not \(memoryFrames)") }
        if items != nil && size == nil { throw ValidationError("--items needs --size") }
        if !(1...4).contains(buffers) { throw ValidationError("--buffers must be between 1 and 4, not \(buffers)") }
    }

    func run() throws {
        try reportingErrors {
            let configs: [(FrameSize, Int)] = size.map { [($0, items ?? 10)] }
                ?? [(FrameSize(width: 800, height: 480), 10), (FrameSize(width: 1280, height: 800), 10),
                    (FrameSize(width: 1920, height: 1080), 24)]
            let rotation = rotate
            var results: [BenchResult] = []
            for (size, count) in configs {
                let result = try measure(size: size, count: count, rotation: rotation)
                if !json { print(result.table) }
                results.append(result)
            }
            if json { print("[" + results.map(\.json).joined(separator: ",\n ") + "]") }
        }
    }

    private func measure(size: FrameSize, count: Int, rotation: DisplayRotation) throws -> BenchResult {
        // The scene's recipe with the default configuration: the demo menu, or `count` numbered items.
        let recipe = SceneRecipe(rotation: rotation, items: count == DemoMenu.items.count ? nil : count)
        let setup = recipe.setup(KioskConfig(), panelWidth: size.width, panelHeight: size.height)
        let builder = PoseBuilder(layout: DialLayout(count: count), geometry: setup.geometry)
        // Prepared as the kiosk's is: the background, sprites and labels before the first frame.
        let painter = try recipe.parts(setup).painter
        var destination = PixelBuffer(width: size.width, height: size.height)
        // memset and memcpy of one frame are timed next to the frames they are compared with (every
        // fourth frame, and the first), so both see the same caches and the same load on the machine.
        var scratch = PixelBuffer(width: size.width, height: size.height)
        let bytes = size.width * size.height * 4
        var paint: [Double] = [], copyTimes: [Double] = [], total: [Double] = []
        var sets: [Double] = [], copies: [Double] = [], cpuCopies: [Double] = []
        for k in 0..<frames {
            let angle = 4 * Double.pi * Double(k) / Double(frames)
            let pose = builder.pose(rotation: angle, visibility: .shown, time: 0)
            let t0 = monotonicNow()
            painter.paint(pose)
            let t1 = monotonicNow()
            destination.withFrameTarget { copy(painter.frame, to: $0, rotation: rotation) }
            let t2 = monotonicNow()
            paint.append(t1 - t0)
            copyTimes.append(t2 - t1)
            total.append(t2 - t0)
            guard k % 4 == 0 else { continue }
            let frame = painter.frame
            scratch.withUnsafeMutablePixels { d in
                frame.withUnsafePixels { s in
                    let t3 = monotonicNow()
                    UnsafeMutableRawPointer(d).initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: k), count: bytes)
                    let t4 = monotonicNow(), c4 = threadCPUNow()
                    UnsafeMutableRawPointer(d).copyMemory(from: s, byteCount: min(bytes, frame.stride * frame.height))
                    let t5 = monotonicNow()
                    cpuCopies.append(threadCPUNow() - c4)
                    sets.append(t4 - t3)
                    copies.append(t5 - t4)
                }
            }
        }
        let spin = try BenchSpin(recipe: recipe, setup: setup, panel: size, buffers: buffers, damageLimited: !fullCopy)
        let memory = memoryFrames == 0 ? nil
            : try BenchMemory.measure(size: size, items: count == DemoMenu.items.count ? nil : count, frames: memoryFrames)
        return BenchResult(size: size, items: count, frames: frames, rotation: rotation.degrees, spin: spin, memory: memory,
                           paint: Stats(paint), copy: Stats(copyTimes), total: Stats(total),
                           memset: Stats(sets).median, memcpy: Stats(copies).median, cpuMemcpy: Stats(cpuCopies).median,
                           pairedRatio: Stats(copies.indices.map { total[$0 * 4] / max(copies[$0], 1e-9) }).median)
    }
}

/// Median, minimum and maximum of a series of seconds.
struct Stats {
    var median: Double, min: Double, max: Double
    init(_ values: [Double]) {
        let s = values.sorted()
        median = s.isEmpty ? 0 : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        min = s.first ?? 0
        max = s.last ?? 0
    }
}

struct BenchResult {
    var size: FrameSize, items: Int, frames: Int, rotation: Int
    var spin: BenchSpin
    /// The kiosk's memory in a child `simulate --paint` (nil with --memory-frames 0).
    var memory: BenchMemory?
    var paint: Stats, copy: Stats, total: Stats
    var memset: Double, memcpy: Double
    /// The memcpy's median in this thread's CPU time (`threadCPUNow`).
    var cpuMemcpy: Double
    /// Median over frames of that frame's total divided by the memcpy timed right after it:
    /// steadier than the ratio of medians when other processes share the CPU.
    var pairedRatio: Double

    var ratio: Double { memcpy > 0 ? total.median / memcpy : 0 }

    /// The median of `seconds` (thread CPU time) over the memcpy's.
    func cpuRatio(_ seconds: [Double]) -> Double { cpuMemcpy > 0 ? Stats(seconds).median / cpuMemcpy : 0 }


    var table: String {
        func row(_ name: String, _ s: Stats) -> String {
            "  \(name.padding(8)) median \(fixed(s.median * 1000, 3)) ms   min \(fixed(s.min * 1000, 3)) ms   max \(fixed(s.max * 1000, 3)) ms"
        }
        return """
            \(size) with \(items) items, \(frames) frames, rotation \(rotation):
            \(row("paint", paint))
            \(row("copy", copy))
            \(row("total", total))
              memset   \(fixed(memset * 1000, 3)) ms   memcpy \(fixed(memcpy * 1000, 3)) ms   total/memcpy \(fixed(ratio, 2)) (per-frame median \(fixed(pairedRatio, 2)))
            \(spinTable)
            """ + (memory.map { "\n" + $0.table("\(size), \(items) items") } ?? "")
    }

    private var spinTable: String {
        let s = spin, frame = size.width * size.height * 4
        let paintCopy = Stats(s.seconds), warm = Stats(s.warmSeconds), first = Array(s.seconds.prefix(10))
        let floor = Stats(s.floorSeconds), warmFloor = Stats(s.warmFloorSeconds)
        return """
              spin (\(s.frames) frames at 60 Hz, \(s.buffers) buffers\(s.damageLimited ? "" : ", full copies")):
                scanout bytes/frame median \(Stats(s.bytes.map(Double.init)).median.rounded()) max \(s.bytes.max() ?? 0) \
            (full frame \(frame)), total \(s.total) = \(fixed(Double(s.total) * 100 / Double(max(1, s.fullBytes)), 1))% of full copies
                paint+copy median \(fixed(paintCopy.median * 1000, 3)) ms   max \(fixed(paintCopy.max * 1000, 3)) ms   paint+copy/memcpy \(fixed(memcpy > 0 ? paintCopy.median / memcpy : 0, 2))
                paint median \(fixed(Stats(s.paintSeconds).median * 1000, 3)) ms, copy median \(fixed(Stats(zip(s.seconds, s.paintSeconds).map { $0 - $1 }).median * 1000, 3)) ms; built in its frames: sprites \(s.built.sprites), labels \(s.built.labels), selection rings \(s.built.rings)
                first \(first.count) frames from the touch: paint+copy median \(fixed(Stats(first).median * 1000, 3)) ms   max \(fixed(Stats(first).max * 1000, 3)) ms; the frames after them: max \(fixed(Stats(Array(s.seconds.dropFirst(10))).max * 1000, 3)) ms
                resting frames before the touch (whole copies into new buffers, not counted above): \(s.restSeconds.map { fixed($0 * 1000, 3) }.joined(separator: ", ")) ms
                painter caches after the spins: sprites \(s.cacheBytes.sprites) B, labels \(s.cacheBytes.labels) B, selection rings \(s.cacheBytes.rings) B, icons \(s.cacheBytes.icons) B; a label size every \(fixed(s.labelSizeStep, 1)) px of radius
                second spin, caches warm: paint+copy median \(fixed(warm.median * 1000, 3)) ms   max \(fixed(warm.max * 1000, 3)) ms   paint+copy/memcpy \(fixed(memcpy > 0 ? warm.median / memcpy : 0, 2)); its first \(min(10, s.warmSeconds.count)) frames' max \(fixed(Stats(Array(s.warmSeconds.prefix(10))).max * 1000, 3)) ms, the later ones' \(fixed(Stats(Array(s.warmSeconds.dropFirst(10))).max * 1000, 3)) ms; built in its frames: sprites \(s.warmBuilt.sprites), labels \(s.warmBuilt.labels), selection rings \(s.warmBuilt.rings)
                floor (a memcpy of exactly the rectangles copied, same buffers): first spin median \(fixed(floor.median * 1000, 3)) ms = \(fixed(memcpy > 0 ? floor.median / memcpy : 0, 2)) memcpy, paint+copy/floor \(fixed(paintCopy.median / max(floor.median, 1e-9), 2)); second spin median \(fixed(warmFloor.median * 1000, 3)) ms = \(fixed(memcpy > 0 ? warmFloor.median / memcpy : 0, 2)) memcpy, paint+copy/floor \(fixed(warm.median / max(warmFloor.median, 1e-9), 2))
                thread CPU time (not counting other processes' turns on the CPU): memcpy \(fixed(cpuMemcpy * 1000, 3)) ms; first spin paint+copy median \(fixed(Stats(s.cpu.seconds).median * 1000, 3)) ms = \(fixed(cpuRatio(s.cpu.seconds), 2)) memcpy (paint \(fixed(Stats(s.cpu.paintSeconds).median * 1000, 3)) ms), floor \(fixed(Stats(s.cpu.floor).median * 1000, 3)) ms = \(fixed(cpuRatio(s.cpu.floor), 2)); second spin paint+copy median \(fixed(Stats(s.cpu.warmSeconds).median * 1000, 3)) ms = \(fixed(cpuRatio(s.cpu.warmSeconds), 2)) memcpy, floor \(fixed(Stats(s.cpu.warmFloor).median * 1000, 3)) ms = \(fixed(cpuRatio(s.cpu.warmFloor), 2)); first spin's first frame \(fixed((s.cpu.seconds.first ?? 0) * 1000, 3)) ms, its later frames' max \(fixed(Stats(Array(s.cpu.seconds.dropFirst())).max * 1000, 3)) ms
                cache budget (prepare): \(s.budget)
            """
    }

    var json: String {
        func stats(_ s: Stats) -> EventLine.Value {
            .object(EventLine([("median_ms", .number(s.median * 1000)), ("min_ms", .number(s.min * 1000)), ("max_ms", .number(s.max * 1000))]))
        }
        return EventLine([
            ("width", .int(size.width)), ("height", .int(size.height)), ("items", .int(items)), ("frames", .int(frames)),
            ("rotation", .int(rotation)), ("paint", stats(paint)), ("copy", stats(copy)), ("total", stats(total)),
            ("spin_frames", .int(spin.frames)), ("spin_buffers", .int(spin.buffers)), ("spin_scanout_bytes", .ints(spin.bytes)),
            ("spin_scanout_bytes_total", .int(spin.total)), ("spin_full_copy_bytes_total", .int(spin.fullBytes)),
            ("spin_paint_copy_median_ms", .number(Stats(spin.seconds).median * 1000)),
            ("warm_spin_paint_copy_median_ms", .number(Stats(spin.warmSeconds).median * 1000)),
            ("spin_paint_copy_max_ms", .number(Stats(spin.seconds).max * 1000)),
            ("spin_paint_median_ms", .number(Stats(spin.paintSeconds).median * 1000)),
            ("spin_first_frames_paint_copy_us", .ints(spin.seconds.prefix(10).map { Int(($0 * 1e6).rounded()) })),
            ("spin_built_sprites", .int(spin.built.sprites)), ("spin_built_labels", .int(spin.built.labels)),
            ("spin_built_rings", .int(spin.built.rings)), ("label_size_step_px", .number(spin.labelSizeStep)),
            ("spin_first_frames_paint_copy_max_ms", .number(Stats(Array(spin.seconds.prefix(10))).max * 1000)),
            ("spin_later_frames_paint_copy_max_ms", .number(Stats(Array(spin.seconds.dropFirst(10))).max * 1000)),
            ("spin_rest_frames_paint_copy_us", .ints(spin.restSeconds.map { Int(($0 * 1e6).rounded()) })),
            ("warm_spin_first_frames_paint_copy_us", .ints(spin.warmSeconds.prefix(10).map { Int(($0 * 1e6).rounded()) })),
            ("warm_spin_later_frames_paint_copy_max_ms", .number(Stats(Array(spin.warmSeconds.dropFirst(10))).max * 1000)),
            ("spin_paint_copy_over_memcpy", .number(memcpy > 0 ? Stats(spin.seconds).median / memcpy : 0)),
            ("warm_spin_paint_copy_over_memcpy", .number(memcpy > 0 ? Stats(spin.warmSeconds).median / memcpy : 0)),
            ("spin_floor_median_ms", .number(Stats(spin.floorSeconds).median * 1000)),
            ("warm_spin_floor_median_ms", .number(Stats(spin.warmFloorSeconds).median * 1000)),
            ("warm_spin_built_sprites", .int(spin.warmBuilt.sprites)), ("warm_spin_built_labels", .int(spin.warmBuilt.labels)),
            ("warm_spin_built_rings", .int(spin.warmBuilt.rings)),
            ("cache_budget_bytes", .int(spin.budget.ceiling)), ("cache_sprites_bytes", .int(spin.budget.sprites)),
            ("cache_sprite_step_px", .number(spin.budget.spriteStep)), ("cache_labels_bytes", .int(spin.budget.labels)),
            ("cache_rings_bytes", .int(spin.budget.rings)),
            ("cpu_memcpy_ms", .number(cpuMemcpy * 1000)),
            ("cpu_spin_paint_copy_median_ms", .number(Stats(spin.cpu.seconds).median * 1000)),
            ("cpu_spin_paint_median_ms", .number(Stats(spin.cpu.paintSeconds).median * 1000)),
            ("cpu_spin_floor_median_ms", .number(Stats(spin.cpu.floor).median * 1000)),
            ("cpu_warm_spin_paint_copy_median_ms", .number(Stats(spin.cpu.warmSeconds).median * 1000)),
            ("cpu_warm_spin_floor_median_ms", .number(Stats(spin.cpu.warmFloor).median * 1000)),
            ("cpu_spin_first_frame_ms", .number((spin.cpu.seconds.first ?? 0) * 1000)),
            ("cpu_spin_later_frames_max_ms", .number(Stats(Array(spin.cpu.seconds.dropFirst())).max * 1000)),
            ("memory_anon_kb_start", .int(memory?.start.anonymous ?? -1)), ("memory_anon_kb_max", .int(memory?.maxAnonymous ?? -1)),
            ("memory_anon_kb_end", .int(memory?.end.anonymous ?? -1)), ("memory_rss_kb_end", .int(memory?.end.resident ?? -1)),
            ("memory_rss_kb_peak", .int(memory?.end.peak ?? -1)), ("memory_file_kb_end", .int(memory?.end.file ?? -1)),
            ("memset_ms", .number(memset * 1000)), ("memcpy_ms", .number(memcpy * 1000)),
            ("total_over_memcpy", .number(ratio)), ("per_frame_total_over_memcpy", .number(pairedRatio)),
        ]).text
    }
}

private extension String {
    func padding(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}
