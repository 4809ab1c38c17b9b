/// What `FrameClockSimulation` drives: a `Dial`, or a `MenuDial` for rings inside rings.
public protocol FrameClockDial: AnyObject {
    func handle(_ event: InputEvent) -> [DialEvent]
    func advance(to time: Double) -> [DialEvent]
    var needsFrame: Bool { get }
    var pose: DialPose { get }
    var rotation: Double { get }
    var isAnimating: Bool { get }
    var motion: Dial.Motion { get }
}

extension Dial: FrameClockDial {}
extension MenuDial: FrameClockDial {}

/// The device's frame loop on a virtual clock, with no device: vblanks at a fixed refresh rate
/// (plus optional late-vblank jitter), a frame queued only when the dial needs one and no flip
/// is pending, input delivered at its own timestamps. `dialkiosk simulate` and the tests run
/// the same loop, so what they prove is what the device loop does with the same timestamps.
public struct FrameClockSimulation {
    public var refresh: Double
    /// Each vblank comes up to this many seconds late (uniformly, seeded).
    public var jitter: Double
    public var seed: UInt64
    /// The run stops here even if the ring still moves.
    public var maxSeconds: Double
    /// Extra instants at which the dial is advanced and its rotation sampled.
    public var probes: [Double]
    /// The run stops once this many frames were presented.
    public var maxFrames: Int

    public init(refresh: Double = 60, jitter: Double = 0, seed: UInt64 = 1, maxSeconds: Double = 3600,
                probes: [Double] = [], maxFrames: Int = .max) {
        self.refresh = refresh
        self.jitter = jitter
        self.seed = seed
        self.maxSeconds = maxSeconds
        self.probes = probes
        self.maxFrames = maxFrames
    }

    /// The longest run in simulated seconds (about 31 years): whatever `maxSeconds` says, a run
    /// stops here, so vblank numbers stay exact integers far below `Int.max` at any refresh rate
    /// up to 1 MHz (1e9 s x 1e6 Hz < 2^53). Callers reject input times beyond it.
    public static let maximumSeconds = 1e9

    /// Why a run ended.
    public enum End: Sendable, Equatable {
        /// The inputs were all delivered and the dial needed no more frames.
        case finished
        /// The next input, vblank or probe lay past `maxSeconds` (or `maximumSeconds`).
        case maxSeconds
        /// `maxFrames` frames were presented.
        case maxFrames
    }

    /// What happened during a run.
    public struct Summary: Sendable {
        /// Frames presented since start.
        public var frames = 0
        /// Time of the last frame shown (flip).
        public var lastFrameTime = 0.0
        /// Rotation at each probe instant.
        public var samples: [(t: Double, rotation: Double)] = []
        /// Whether the run ended with the ring at rest and no finger down.
        public var endedAtRest = false
        /// Why the run ended.
        public var end = End.finished
        /// The simulated time when it ended (the last instant handled).
        public var endTime = 0.0
    }

    /// Runs `inputs` (in order; an input earlier than the clock, or without a finite time, is
    /// delivered at once) through `dial`. `onEvent` sees every dial event with the frame count so
    /// far; `onFrame` every frame painted, with its time, pose and number (from 1; the flip it will
    /// be shown at comes next).
    @discardableResult
    public func run<Inputs: Sequence<InputEvent>>(_ dial: some FrameClockDial, inputs: Inputs,
                    onEvent: (DialEvent, _ frames: Int) throws -> Void = { _, _ in },
                    onFrame: (Double, DialPose, _ frame: Int) throws -> Void = { _, _, _ in }) rethrows -> Summary {
        var iterator = inputs.makeIterator()
        return try run(dial, next: { iterator.next() }, onEvent: onEvent, onFrame: onFrame)
    }

    /// The same run, pulling each input when it is due from `next` (nil: no more input), which
    /// may throw: a reader of a streamed script stops the run at its first bad line.
    @discardableResult
    public func run(_ dial: some FrameClockDial, next: () throws -> InputEvent?,
                    onEvent: (DialEvent, _ frames: Int) throws -> Void = { _, _ in },
                    onFrame: (Double, DialPose, _ frame: Int) throws -> Void = { _, _, _ in }) rethrows -> Summary {
        var rng = SplitMix64(seed: seed)
        var summary = Summary()
        let period = 1 / refresh
        let horizon = min(maxSeconds, Self.maximumSeconds)
        var vblankIndex = 0
        func vblank(_ k: Int) -> Double {
            Double(k) * period + (jitter > 0 ? Double.random(in: 0..<jitter, using: &rng) : 0)
        }
        var nextVblank = vblank(0)
        var pending = false
        var clock = 0.0
        // Inputs are pulled one at a time, so a generated load or a streamed script of any
        // length needs no memory.
        var nextInput = try next()
        var probeIndex = 0

        func present(at t: Double) throws {
            pending = true
            summary.frames += 1
            try onFrame(t, dial.pose, summary.frames)
        }

        while true {
            let tInput = nextInput.map { $0.time.isFinite ? max(clock, $0.time) : clock } ?? .infinity
            let tProbe = probeIndex < probes.count ? probes[probeIndex] : .infinity
            let tFlip = pending ? nextVblank : .infinity
            let t = min(tInput, tProbe, tFlip)
            if summary.frames >= maxFrames {
                summary.end = .maxFrames
                break
            }
            if t == .infinity { break }
            if !(t <= horizon) {
                summary.end = .maxSeconds
                clock = max(clock, horizon)
                break
            }
            clock = max(clock, t)
            var events: [DialEvent]
            if t == tFlip {
                pending = false
                summary.lastFrameTime = t
                events = dial.advance(to: t)
            } else if t == tInput, let input = nextInput {
                events = dial.handle(input)
                nextInput = try next()
            } else {
                events = dial.advance(to: t)
                summary.samples.append((t, dial.rotation))
                probeIndex += 1
            }
            for e in events { try onEvent(e, summary.frames) }
            // Vblanks that passed while nothing was queued are not waited for. The clock is at
            // most `maximumSeconds`, so the vblank number fits an Int exactly (see there).
            if nextVblank <= clock {
                let passed = min((clock / period).rounded(.down), 0x1p53)
                vblankIndex = max(vblankIndex + 1, Int(passed))
                nextVblank = vblank(vblankIndex)
                while nextVblank <= clock {
                    vblankIndex += 1
                    nextVblank = vblank(vblankIndex)
                }
            }
            if !pending && dial.needsFrame {
                if t != tFlip { dial.advance(to: clock) }
                try present(at: clock)
            }
        }
        summary.endTime = clock
        summary.endedAtRest = !dial.isAnimating && dial.motion == .resting
        return summary
    }
}

extension InputEvent {
    /// When the event happened (seconds).
    public var time: Double {
        switch self {
        case .touch(let e): return e.time
        case .command(_, let t): return t
        }
    }
}
