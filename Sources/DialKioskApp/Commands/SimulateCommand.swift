import ArgumentParser
import DialCore
import Foundation

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
            Output: one JSON object per line for selected, activated and rest events. The run
            ends when the script is over and the ring is at rest, or at --max-seconds.
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

    @Option(help: ArgumentHelp("Instead of a script, run a generated gesture load (seeded by --seed) until this many frames.", valueName: "frames"))
    var generateFrames: Int?

    @Option(help: ArgumentHelp("Print the resident memory to standard error at start, every N frames and at the end.", valueName: "n"))
    var memoryEvery: Int?

    @Flag(help: "Do not print the dial's events (for soak runs).")
    var quiet = false

    func validate() throws {
        if let n = generateFrames, n < 1 { throw ValidationError("--generate-frames must be at least 1, got \(n)") }
        if let n = memoryEvery, n < 1 { throw ValidationError("--memory-every must be at least 1, got \(n)") }
        if generateFrames != nil, script != nil {
            throw ValidationError("--generate-frames and --script exclude each other")
        }
        guard refresh.isFinite, refresh >= 1, refresh <= 1000 else {
            throw ValidationError("--refresh must be between 1 and 1000 Hz, got \(refresh)")
        }
        guard jitter.isFinite, jitter >= 0, jitter / 1000 < 1 / refresh else {
            throw ValidationError("--jitter must be at least 0 and less than one frame (\(1000 / refresh) ms), got \(jitter)")
        }
        if let items, !(1...512).contains(items) {
            throw ValidationError("--items must be between 1 and 512, got \(items)")
        }
        guard maxSeconds.isFinite, maxSeconds > 0 else {
            throw ValidationError("--max-seconds must be a positive number, got \(maxSeconds)")
        }
    }

    func run() throws {
        try reportingErrors {
            let menu = items.map(DemoMenu.numbered) ?? DemoMenu.items
            let geometry = DialGeometry.fitting(width: size.width, height: size.height, count: menu.count)
            let dial = Dial(items: menu, geometry: geometry, screen: (Double(size.width), Double(size.height)))
            var simulation = FrameClockSimulation(refresh: refresh, jitter: jitter / 1000, seed: seed,
                                                  maxSeconds: maxSeconds)
            var out = LineWriter.standardOutput
            var memory = LineWriter(fd: 2)
            func onEvent(_ event: DialEvent, frames: Int) {
                if !quiet { out.write(EventLine.dialEvent(event, items: menu, frames: frames).text) }
            }
            var nextReport = 0
            func onFrame(_ time: Double, _ pose: DialPose) {
                // Called before the frame is counted: `frames` below is the count so far.
                guard let every = memoryEvery else { return }
                let frames = nextReport
                nextReport += 1
                if frames % every == 0 { memory.write("memory: frames=\(frames) rss_kb=\(residentKilobytes())"); memory.flush() }
            }
            if let frames = generateFrames {
                simulation.maxFrames = frames
                simulation.maxSeconds = .infinity
                if memoryEvery != nil { memory.write("memory: start rss_kb=\(residentKilobytes())") }
                let summary = simulation.run(dial, inputs: GestureLoad(seed: seed, geometry: geometry),
                                             onEvent: onEvent, onFrame: onFrame)
                if memoryEvery != nil { memory.write("memory: end frames=\(summary.frames) rss_kb=\(residentKilobytes())") }
            } else {
                let (text, source) = try readScript()
                let touches = try TouchScript.parse(text, source: source)
                simulation.run(dial, inputs: touches.lazy.map { .touch($0) }, onEvent: onEvent, onFrame: onFrame)
            }
            out.flush()
            memory.flush()
        }
    }

    private func readScript() throws -> (String, String) {
        guard let path = script, path != "-" else {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            return (String(decoding: data, as: UTF8.self), "<stdin>")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("\(path): no such touch script", status: .noInput)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("\(path): cannot be read", status: .noInput)
        }
        return (String(decoding: data, as: UTF8.self), path)
    }
}
