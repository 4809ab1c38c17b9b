@testable import DialCore

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

import RealModule

/// The device's frame loop on a fake clock (the same loop `simulate` runs).
struct FakeFrameLoop {
    var hz: Double
    var jitter: Double = 0
    var seed: UInt64 = 1
    var probes: [Double] = []

    struct Result {
        var events: [DialEvent] = []
        var frames = 0
        var samples: [(t: Double, rotation: Double)] = []
        var lastFrameTime = 0.0
    }

    func run(_ dial: Dial, _ touches: [TouchEvent], until end: Double = 20) -> Result {
        var result = Result()
        let sim = FrameClockSimulation(refresh: hz, jitter: jitter, seed: seed, maxSeconds: end, probes: probes)
        let summary = sim.run(dial, inputs: touches.map { .touch($0) }, onEvent: { e, _ in result.events.append(e) },
                            onFrame: { _, _, _ in })
        result.frames = summary.frames
        result.samples = summary.samples
        result.lastFrameTime = summary.lastFrameTime
        return result
    }
}

func tenItemDial(width: Int = 800, height: Int = 480, physics: PhysicsSettings = PhysicsSettings()) -> Dial {
    Dial(items: DemoMenu.items, geometry: .fitting(width: width, height: height, count: 10), physics: physics)
}
