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

/// The frame loop of the device, on a fake clock: vblanks every 1/hz seconds (plus jitter), a
/// frame queued only when the dial needs one, touches delivered at their own times.
struct FakeFrameLoop {
    var hz: Double
    var jitter: Double = 0
    var seed: UInt64 = 1
    /// Extra instants at which the rotation is sampled (by advancing the dial to them).
    var probes: [Double] = []

    struct Result {
        var events: [DialEvent] = []
        var frames = 0
        var samples: [(t: Double, rotation: Double)] = []
        var lastFrameTime = 0.0
    }

    func run(_ dial: Dial, _ touches: [TouchEvent], until end: Double = 20) -> Result {
        var rng = SplitMix64(seed: seed)
        var result = Result()
        var pending = false
        var k = 0
        var ti = 0
        var pi = 0
        func vblank(_ k: Int) -> Double {
            let base = Double(k) / hz
            return jitter > 0 ? base + Double.random(in: 0..<jitter, using: &rng) : base
        }
        var nextVblank = vblank(0)
        while true {
            let tTouch = ti < touches.count ? touches[ti].time : Double.infinity
            let tProbe = pi < probes.count ? probes[pi] : Double.infinity
            let tFrame = pending ? nextVblank : Double.infinity
            let t = min(tTouch, tProbe, tFrame)
            if t == .infinity || t > end { break }
            if t == tProbe {
                result.events += dial.advance(to: t)
                result.samples.append((t, dial.rotation))
                pi += 1
            } else if t == tTouch {
                result.events += dial.handle(.touch(touches[ti]))
                ti += 1
            } else {
                pending = false
                result.events += dial.advance(to: t)
                result.lastFrameTime = t
            }
            // Skip vblanks that passed while idle.
            while nextVblank <= t { k += 1; nextVblank = vblank(k) }
            if !pending && dial.needsFrame {
                pending = true
                result.frames += 1
            }
        }
        return result
    }
}

func tenItemDial(width: Int = 800, height: Int = 480, physics: PhysicsSettings = PhysicsSettings()) -> Dial {
    Dial(items: DemoMenu.items, geometry: .fitting(width: width, height: height, count: 10), physics: physics)
}
