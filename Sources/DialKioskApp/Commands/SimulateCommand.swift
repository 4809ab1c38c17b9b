import ArgumentParser
import DialCore
import DialRender
import KioskSeams
import KioskVocabulary
import TouchInput
import KioskReporting
import KioskConfiguration
import KioskLoop
import KioskFeatures
import KioskRuntime
import LinuxSystem

/// `dialkiosk simulate`: the headless twin of the device loop. A touch script goes in, the
/// dial's events come out as JSON Lines, on a virtual frame clock.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run a touch script through the dial on a virtual frame clock; print its events as JSON Lines.",
        discussion: """
            Input: JSON Lines, one touch sample per line:
              {"t": 0.016, "type": "down", "x": 400, "y": 120, "slot": 0}
            (t in seconds, x/y in screen pixels, type down|motion|up|cancel, slot optional.)
            Output: one JSON object per line for \(EventVocabulary.names(writtenBy: .simulate))
            events, as `run` prints them (selected and activated name the item's path). The run
            ends when the script is over and the ring is at rest; a run that ends with a finger
            down or at --max-seconds ends with an "unfinished" event. A script in a file is
            checked whole before it runs; one on a pipe runs as it arrives.
            """
    )

    @Option(help: ArgumentHelp("Touch script (JSON Lines); standard input when omitted.", valueName: "file"))
    var script: String?

    /// --config, --size and --items, as the other commands that build a scene take them.
    @OptionGroup var scene: SceneOptions<SimulateSceneUse>
    var size: FrameSize { scene.size ?? FrameSize(width: 800, height: 480) }
    var items: Int? { scene.items }
    var config: String? { scene.config }

    @Option(help: ArgumentHelp("Refresh rate of the virtual display, in Hz.", valueName: "hz"))
    var refresh: Double = 60

    @Option(help: ArgumentHelp("Frame timing error: each vblank comes up to this many milliseconds late.", valueName: "ms"))
    var jitter: Double = 0

    @Option(help: "Seed of the jitter's random numbers (same seed, same run).")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Stop after this much simulated time even if the ring still moves.", valueName: "seconds"))
    var maxSeconds: Double = 3600

    @Option(help: ArgumentHelp("Replay a capture made with `libinput record` instead of a touch script, mapped onto --size.", valueName: "file"))
    var libinputRecord: String?

    @Option(help: ArgumentHelp("Write every rendered frame into this directory as frame-NNNNNN.png.", valueName: "dir"))
    var framesDir: String?

    @Option(help: ArgumentHelp("Instead of a script, run a generated gesture load (seeded by --seed) until this many frames.", valueName: "frames"))
    var generateFrames: Int?

    @Option(help: ArgumentHelp("Print the resident memory to standard error at start, every N frames and at the end.", valueName: "n"))
    var memoryEvery: Int?

    @Flag(help: "Print frame statistics and input-to-flip latency on the virtual clock to standard error, as `run --stats` does.")
    var stats = false

    @Option(help: ArgumentHelp("With --paint, build a new painter every N frames, as a configuration reload does (for soak runs).", valueName: "n"))
    var reloadEvery: Int?

    @Flag(help: "Do not print the dial's events (for soak runs).")
    var quiet = false

    @Flag(help: "Paint every frame in memory, as the device does, without writing it anywhere (for soak runs).")
    var paint = false

    func validate() throws {
        if let n = generateFrames, n < 1 { throw ValidationError("--generate-frames must be at least 1, got \(n)") }
        if let n = memoryEvery, n < 1 { throw ValidationError("--memory-every must be at least 1, got \(n)") }
        if let n = reloadEvery, n < 1 { throw ValidationError("--reload-every must be at least 1, got \(n)") }
        if reloadEvery != nil && !paint { throw ValidationError("--reload-every needs --paint") }
        if [generateFrames != nil, script != nil, libinputRecord != nil].filter({ $0 }).count > 1 {
            throw ValidationError("--script, --libinput-record and --generate-frames exclude each other")
        }
        guard refresh.isFinite, refresh >= 1, refresh <= 1000 else {
            throw ValidationError("--refresh must be between 1 and 1000 Hz, got \(refresh)")
        }
        guard jitter.isFinite, jitter >= 0, jitter / 1000 < 1 / refresh else {
            throw ValidationError("--jitter must be at least 0 and less than one frame (\(1000 / refresh) ms), got \(jitter)")
        }
        guard maxSeconds.isFinite, maxSeconds > 0, maxSeconds <= VirtualTime.maximumSeconds else {
            throw ValidationError("--max-seconds must be a positive number of at most 1e9, got \(maxSeconds)")
        }
    }

    func run() throws {
        try reportingErrors {
            let config = try ConfigLoader.load(path: self.config)
            // The recipe `run --display virtual` uses: display.rotation turns the layout, and the
            // script's touches, in panel pixels, are turned with it.
            let recipe = SceneRecipe(option: nil, config: config, items: items)
            let setup = recipe.setup(config, panelWidth: size.width, panelHeight: size.height)
            let touches = ScreenTransform(panelWidth: size.width, panelHeight: size.height, rotation: recipe.rotation)
            let menu = setup.menu
            let recorder = try framesDir.map { try FrameRecorder(directory: $0, setup: setup) }
            var painter = paint ? try setup.makePainter() : nil
            var out = LineWriter.standardOutput
            var memory = LineWriter(fd: 2)
            var errors = LineWriter(fd: 2)
            let clock = VirtualClock()
            let display = VirtualDisplay(width: size.width, height: size.height,
                                         timing: .init(refresh: refresh, jitter: jitter / 1000, seed: seed)) { clock.now }
            var frames = { 0 }
            let made = setup.makeDial()
            // A start on a nested default item: the rings that lead to it are announced first,
            // as `run` does, so a later `closed` closes a ring the stream opened.
            if !quiet, made.ring != .top {
                for e in EventStreamView().events(toReach: made.ring, selected: made.selectedPath, at: clock.now,
                                                  index: { menu.index(of: $0) }) {
                    try out.write(EventLine.dialEvent(e, menu: menu, frames: 0).text)
                }
            }
            let dial = ReportingDial(made) { events in
                guard !quiet else { return }
                for e in events where e.hasLine { try out.write(EventLine.dialEvent(e, menu: menu, frames: frames()).text) }
            }
            let scene = Scene(dial: dial) { pose, _ in
                if let failure = dial.failure { throw failure }
                let frame = display.flips + 1
                try recorder?.write(pose)
                // A reload builds the new painter while the old one still exists (its caches
                // dropped first), as `run` does.
                if let every = reloadEvery, frame > 0, frame % every == 0 {
                    painter = try setup.makePainter(replacing: painter)
                    HeapPolicy.releaseFreed()
                }
                painter?.paint(pose)
                if let every = memoryEvery, frame % every == 0 {
                    try memory.write("memory: frames=\(frame) \(memoryText())")
                    try memory.flush()
                }
                return nil
            }
            let source = try touchSource()
            let input = try ScriptInput(now: { clock.now }, next: try samples(source, setup: setup, touches: touches) {
                if let failure = dial.failure { throw failure }
                if source?.rereadable == false { try out.flush() }
            })
            var sources = FrameLoop.sources(displays: [display], inputs: [input])
            if let limit = generateFrames { sources.append(FrameLimit(display: display, frames: limit)) }
            let loop = FrameLoop(output: LoopOutput(presenter: display), sources: sources, scene: scene, now: { clock.now },
                                 pacing: LoopPacing(schedule: FrameSchedule(refreshPeriod: display.refreshPeriod),
                                                    stats: stats ? FrameStats(refreshPeriod: display.refreshPeriod) : nil),
                                 log: { try? errors.write($0) })
            frames = { loop.schedule.framesQueued }
            if memoryEvery != nil, generateFrames != nil { try memory.write("memory: start \(memoryText())") }
            let horizon = generateFrames == nil ? min(maxSeconds, VirtualTime.maximumSeconds) : VirtualTime.maximumSeconds
            let ending = try loop.run(waiter: VirtualWaiter(clock: clock, horizon: horizon))
            if let failure = dial.failure { throw failure }
            if memoryEvery != nil, generateFrames != nil {
                try memory.write("memory: end frames=\(display.flips) \(memoryText())")
            }
            if let source, generateFrames == nil {
                try reportUnfinished(ending: ending, input: input, time: clock.now, frames: display.flips,
                                     source: source.source, out: &out)
            }
            try out.flush()
            try memory.flush()
            try errors.flush()
        }
    }

    /// The figures of `ProcessMemory` (rss_kb first, as scripts/soak.sh reads it).
    private func memoryText() -> String {
        ProcessMemory.current()?.text() ?? "rss_kb=\(residentKilobytes())"
    }

    /// The samples to run: the generated gesture load, or the touch source's (a file is read
    /// twice: a malformed line is reported before any output; a pipe is run as it arrives, its
    /// events going out as they happen, up to a bad line). `beforeRead` runs before each read.
    private func samples(_ source: TouchSource?, setup: DialSetup, touches: ScreenTransform,
                         beforeRead: @escaping () throws -> Void) throws -> () throws -> InputEvent? {
        guard let source else {
            var load = GestureLoad(seed: seed, geometry: setup.geometry)
            return { load.next() }
        }
        let next = try source.checkedPass()
        return {
            try beforeRead()
            return try next().map { sample in
                var touch = sample
                let p = touches.logical(x: sample.x, y: sample.y)
                (touch.x, touch.y) = (p.x, p.y)
                return .touch(touch)
            }
        }
    }

    /// The touch samples: a `libinput record` file, a script file, or standard input (nil:
    /// the generated load).
    private func touchSource() throws -> TouchSource? {
        if generateFrames != nil { return nil }
        if let path = libinputRecord { return try .record(path, width: size.width, height: size.height) }
        guard let path = script, path != "-" else { return .standardInput() }
        return try .script(path)
    }

    /// A run that did not end at rest says so: a final `unfinished` event and a line on stderr.
    /// A finger still down when the script ended is one, at any depth of the menu.
    private func reportUnfinished(ending: FrameLoop.Ending, input: ScriptInput, time: Double, frames: Int,
                                  source: String, out: inout LineWriter) throws {
        let reason: String, why: String
        if ending == .timerExpired {
            let limit = maxSeconds.rounded() == maxSeconds ? "\(Int(maxSeconds))" : "\(maxSeconds)"
            (reason, why) = ("max-seconds", "stopped at --max-seconds \(limit) with the ring moving or samples left")
        } else if !input.fingersDown.isEmpty {
            (reason, why) = ("finger-down", "the input ended with a finger down (no up or cancel), holding the ring")
        } else {
            return
        }
        if !quiet {
            try out.write(EventLine([("t", .number(time)), ("event", .event(.unfinished)),
                                 ("reason", .string(reason)), ("frames", .int(frames))]).text)
        }
        try out.flush()
        let format = LogFormat.forStandardError(environment: ProcessEnvironment.current())
        JournalLogger.writeToStandardError(format.format(.warning, "dialkiosk: \(source): \(why)".oneLine()))
    }
}

/// A soak run's end (`simulate --generate-frames`): the run stops once the display showed this
/// many frames, as `--exit-after` stops `run`.
struct FrameLimit: PollSource {
    let display: VirtualDisplay
    let frames: Int
    var pollDescriptors: [PollDescriptor] { [] }
    func wakeUp(now: Double) -> Double? { display.presents >= frames ? now : nil }
    func serve(_ polled: [PollDescriptor], now: Double) throws -> [LoopEvent] {
        display.presents >= frames ? [.timerExpired] : []
    }
}
