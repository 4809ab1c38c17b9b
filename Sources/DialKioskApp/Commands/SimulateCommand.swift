import ArgumentParser
import DialCore
import DialRender
import Foundation
import TouchInput

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
            Output: one JSON object per line for selected, activated, opened, closed and rest
            events, as `run` prints them (selected and activated name the item's path). The run
            ends when the script is over and the ring is at rest; a run that ends with a finger
            down or at --max-seconds ends with an "unfinished" event. A script in a file is
            checked whole before it runs; one on a pipe runs as it arrives.
            """
    )

    @Option(help: ArgumentHelp("Touch script (JSON Lines); standard input when omitted.", valueName: "file"))
    var script: String?

    @Option(help: ArgumentHelp("Frame size in pixels.", valueName: "WxH"))
    var size = FrameSize(width: 800, height: 480)

    @Option(help: ArgumentHelp("Refresh rate of the virtual display, in Hz.", valueName: "hz"))
    var refresh: Double = 60

    @Option(help: ArgumentHelp("Frame timing error: each vblank comes up to this many milliseconds late.", valueName: "ms"))
    var jitter: Double = 0

    @Option(help: "Seed of the jitter's random numbers (same seed, same run).")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Use N numbered items instead of the demo menu.", valueName: "n"))
    var items: Int?

    @Option(help: ArgumentHelp("Stop after this much simulated time even if the ring still moves.", valueName: "seconds"))
    var maxSeconds: Double = 3600

    @Option(help: ArgumentHelp("Configuration file (menu, physics, theme); the demo menu when omitted.", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("Replay a capture made with `libinput record` instead of a touch script, mapped onto --size.", valueName: "file"))
    var libinputRecord: String?

    @Option(help: ArgumentHelp("Write every rendered frame into this directory as frame-NNNNNN.png.", valueName: "dir"))
    var framesDir: String?

    @Option(help: ArgumentHelp("Instead of a script, run a generated gesture load (seeded by --seed) until this many frames.", valueName: "frames"))
    var generateFrames: Int?

    @Option(help: ArgumentHelp("Print the resident memory to standard error at start, every N frames and at the end.", valueName: "n"))
    var memoryEvery: Int?

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
        if let items, !(1...ConfigLimits.items).contains(items) {
            throw ValidationError("--items must be between 1 and \(ConfigLimits.items), got \(items)")
        }
        guard maxSeconds.isFinite, maxSeconds > 0, maxSeconds <= FrameClockSimulation.maximumSeconds else {
            throw ValidationError("--max-seconds must be a positive number of at most 1e9, got \(maxSeconds)")
        }
    }

    func run() throws {
        try reportingErrors {
            var config = try ConfigLoader.load(path: self.config)
            if let items { config.items = DemoMenu.numbered(items) }
            let setup = DialSetup(config: config, width: size.width, height: size.height)
            let menu = setup.menu
            let geometry = setup.geometry
            let dial = setup.makeDial()
            let recorder = try framesDir.map { try FrameRecorder(directory: $0, setup: setup) }
            var painter = paint ? try setup.makePainter() : nil
            var simulation = FrameClockSimulation(refresh: refresh, jitter: jitter / 1000, seed: seed,
                                                  maxSeconds: maxSeconds)
            var out = LineWriter.standardOutput
            var memory = LineWriter(fd: 2)
            func onEvent(_ event: DialEvent, frames: Int) throws {
                if !quiet { try out.write(EventLine.dialEvent(event, menu: menu, frames: frames).text) }
            }
            func onFrame(_ time: Double, _ pose: DialPose, _ frame: Int) throws {
                try recorder?.write(pose)
                // A reload builds the new painter while the old one still exists, as `run` does.
                if let every = reloadEvery, frame > 0, frame % every == 0 { painter = try setup.makePainter() }
                painter?.paint(pose)
                if let every = memoryEvery, frame % every == 0 {
                    try memory.write("memory: frames=\(frame) \(memoryText())")
                    try memory.flush()
                }
            }
            if let frames = generateFrames {
                simulation.maxFrames = frames
                simulation.maxSeconds = .infinity
                if memoryEvery != nil { try memory.write("memory: start \(memoryText())") }
                let summary = try simulation.run(dial, inputs: GestureLoad(seed: seed, geometry: geometry),
                                                 onEvent: onEvent, onFrame: onFrame)
                if memoryEvery != nil { try memory.write("memory: end frames=\(summary.frames) \(memoryText())") }
            } else {
                let input = try touchSource()
                // A file is read twice: a malformed line is reported before any output. A pipe
                // is run as it arrives: its events go out as they happen, up to a bad line.
                if input.rereadable {
                    let check = try input.start()
                    while try check() != nil {}
                }
                let next = try input.start()
                let summary = try simulation.run(dial, next: {
                    if !input.rereadable { try out.flush() }
                    return try next().map { .touch($0) }
                }, onEvent: onEvent, onFrame: onFrame)
                try reportUnfinished(summary, source: input.source, out: &out)
            }
            try out.flush()
            try memory.flush()
        }
    }

    /// The figures of `ProcessMemory` (rss_kb first, as scripts/soak.sh reads it).
    private func memoryText() -> String {
        ProcessMemory.current()?.text() ?? "rss_kb=\(residentKilobytes())"
    }

    /// The touch samples: a `libinput record` file, a script file, or standard input.
    private func touchSource() throws -> TouchSource {
        if let path = libinputRecord { return try .record(path, width: size.width, height: size.height) }
        guard let path = script, path != "-" else { return .standardInput() }
        return try .script(path)
    }

    /// A run that did not end at rest says so: a final `unfinished` event and a line on stderr.
    private func reportUnfinished(_ summary: FrameClockSimulation.Summary, source: String, out: inout LineWriter) throws {
        let reason: String, why: String
        switch summary.end {
        case .maxSeconds:
            let limit = maxSeconds.rounded() == maxSeconds ? "\(Int(maxSeconds))" : "\(maxSeconds)"
            (reason, why) = ("max-seconds", "stopped at --max-seconds \(limit) with the ring moving or samples left")
        case .finished where !summary.endedAtRest:
            (reason, why) = ("finger-down", "the input ended with a finger down (no up or cancel), holding the ring")
        default:
            return
        }
        if !quiet {
            try out.write(EventLine([("t", .number(summary.endTime)), ("event", .string("unfinished")),
                                 ("reason", .string(reason)), ("frames", .int(summary.frames))]).text)
        }
        try out.flush()
        let format = LogFormat.forStandardError(environment: ProcessEnvironment.current())
        JournalLogger.writeToStandardError(format.format(.warning, "dialkiosk: \(source): \(why)".oneLine()))
    }
}
