import Glibc
@testable import KioskSeams
@testable import DialCore
@testable import DialKioskApp
@testable import KioskRuntime
@testable import KioskLoop
import KioskTestSupport

/// Builds touch scripts around a dial centre and drives a Dial on a fake frame clock.
struct Gesture {
    var center: Point
    var events: [TouchEvent] = []

    init(center: Point) { self.center = center }

    /// A finger on a circle of `radius`, from `fromAngle` to `toAngle` (screen radians) in
    /// `duration` seconds at `rate` samples per second, starting at `start`, then lifting.
    mutating func arc(radius: Double, from fromAngle: Double, to toAngle: Double, start: Double,
                      duration: Double, rate: Double = 125, slot: Int = 0, lift: Bool = true,
                      easeOut: Bool = false) {
        let n = max(1, Int((duration * rate).rounded()))
        for k in 0...n {
            let s = Double(k) / Double(n)
            let f = easeOut ? 1 - (1 - s) * (1 - s) : s
            let a = fromAngle + (toAngle - fromAngle) * f
            let p = point(radius: radius, angle: a)
            events.append(TouchEvent(slot: slot, phase: k == 0 ? .down : .motion, x: p.x, y: p.y,
                                     time: start + duration * s))
        }
        if lift {
            let p = point(radius: radius, angle: toAngle)
            events.append(TouchEvent(slot: slot, phase: .up, x: p.x, y: p.y, time: start + duration + 0.004))
        }
    }

    mutating func tap(at p: Point, time: Double, slot: Int = 0) {
        events.append(TouchEvent(slot: slot, phase: .down, x: p.x, y: p.y, time: time))
        events.append(TouchEvent(slot: slot, phase: .up, x: p.x, y: p.y, time: time + 0.08))
    }

    func point(radius: Double, angle: Double) -> Point {
        Point(x: center.x + radius * Double.cos(angle), y: center.y + radius * Double.sin(angle))
    }
}

/// The device's frame loop (`FrameLoop`, as `run` and `simulate` drive it) on the virtual
/// display and a virtual clock, fed touches as a script: the tests never sleep.
struct VirtualRun {
    var hz: Double
    var jitter: Double = 0
    var seed: UInt64 = 1
    /// Instants at which the dial is advanced and its rotation sampled.
    var probes: [Double] = []
    /// The run stops once this many frames were presented.
    var maxFrames: Int?

    struct Result {
        var events: [DialEvent] = []
        var frames = 0
        var samples: [(t: Double, rotation: Double)] = []
        var lastFrameTime = 0.0
        var ending = FrameLoop.Ending.quiet
        /// The virtual clock when the run ended.
        var endTime = 0.0
        /// Touch slots still down when the script was over.
        var fingersDown: Set<Int> = []
    }

    func run(_ dial: Dial, _ touches: [TouchEvent], until end: Double = 20) -> Result {
        var inputs = touches.map(InputEvent.touch).makeIterator()
        return try! run(dial, until: end) { inputs.next() }
    }

    func run(_ dial: Dial, inputs: [InputEvent], until end: Double = VirtualTime.maximumSeconds) throws -> Result {
        var iterator = inputs.makeIterator()
        return try run(dial, until: end) { iterator.next() }
    }

    func run(_ dial: any TurningDial, until end: Double, next: @escaping () throws -> InputEvent?) throws -> Result {
        let clock = VirtualClock()
        let display = VirtualDisplay(width: 8, height: 8, timing: .init(refresh: hz, jitter: jitter, seed: seed)) { clock.now }
        var result = Result()
        let reporting = ReportingDial(dial) { result.events += $0 }
        let input = try ScriptInput(now: { clock.now }, next: next)
        var sources = FrameLoop.sources(displays: [display], inputs: [input])
        sources.append(Probes(times: probes, dial: reporting) { result.samples.append(($0, dial.rotation)) })
        if let maxFrames { sources.append(FrameLimit(display: display, frames: maxFrames)) }
        let loop = FrameLoop(output: LoopOutput(presenter: display), sources: sources, scene: Scene(dial: reporting) { _, _ in nil },
                             now: { clock.now }, pacing: LoopPacing(schedule: FrameSchedule(refreshPeriod: display.refreshPeriod)),
                             log: { _ in })
        result.ending = try loop.run(waiter: VirtualWaiter(clock: clock, horizon: min(end, VirtualTime.maximumSeconds)))
        result.frames = display.presents
        result.lastFrameTime = display.lastShown ?? 0
        result.endTime = clock.now
        result.fingersDown = input.fingersDown
        return result
    }
}

/// A dial the loop drives whose rotation the probes can sample: one ring or a menu of rings.
protocol TurningDial: DialDriving {
    var rotation: Double { get }
}

extension Dial: TurningDial {}
extension MenuDial: TurningDial {}

/// Samples the dial's rotation at given instants (the loop waits until each).
final class Probes: PollSource {
    private var times: [Double]
    private let dial: DialDriving
    private let sample: (Double) -> Void

    init(times: [Double], dial: DialDriving, sample: @escaping (Double) -> Void) {
        self.times = times
        self.dial = dial
        self.sample = sample
    }

    var pollDescriptors: [pollfd] { [] }
    func wakeUp(now: Double) -> Double? { times.first }
    func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        while let t = times.first, t <= now {
            times.removeFirst()
            _ = dial.advance(to: t)
            sample(t)
        }
        return []
    }
}

func tenItemDial(width: Int = 800, height: Int = 480, physics: PhysicsSettings = PhysicsSettings()) -> Dial {
    Dial(items: DemoMenu.items, geometry: .fitting(width: width, height: height, count: 10), physics: physics)
}
