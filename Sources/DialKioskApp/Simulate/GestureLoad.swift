import DialCore
import KioskSeams
import RealModule

/// An endless, seeded stream of the gestures people make on a kiosk (flings both ways, slow
/// drags, taps on items and in the hub, a second finger now and then, key steps), produced one
/// event at a time so a soak of a million frames holds no script in memory.
struct GestureLoad: Sequence, IteratorProtocol {
    private var rng: SplitMix64
    private let center: Point
    private let radius: Double
    private var t = 0.5
    private var queue: [InputEvent] = []
    private var head = 0

    init(seed: UInt64, geometry: DialGeometry) {
        rng = SplitMix64(seed: seed)
        center = geometry.center
        radius = geometry.ringRadius
    }

    mutating func next() -> InputEvent? {
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
            makeGesture()
        }
        head += 1
        return queue[head - 1]
    }

    private mutating func uniform(_ r: ClosedRange<Double>) -> Double { Double.random(in: r, using: &rng) }

    private func point(_ angle: Double, _ r: Double) -> Point {
        Point(x: center.x + r * .cos(angle), y: center.y + r * .sin(angle))
    }

    private mutating func touch(_ phase: TouchPhase, _ p: Point, slot: Int = 0) {
        queue.append(.touch(TouchEvent(slot: slot, phase: phase, x: p.x, y: p.y, time: t)))
    }

    private mutating func arc(from a0: Double, by turn: Double, duration: Double, slot: Int = 0) {
        let r = radius * uniform(0.8...1.15)
        let steps = Swift.max(2, Int(duration * 125))
        touch(.down, point(a0, r), slot: slot)
        for k in 1...steps {
            t += duration / Double(steps)
            touch(.motion, point(a0 + turn * Double(k) / Double(steps), r), slot: slot)
        }
        t += 0.004
        touch(.up, point(a0 + turn, r), slot: slot)
    }

    private mutating func makeGesture() {
        t += uniform(0.2...4)  // sometimes before the ring rests, mostly after
        let a0 = uniform(-Double.pi...Double.pi)
        switch Int.random(in: 0..<8, using: &rng) {
        case 0, 1: arc(from: a0, by: uniform(0.6...2.5) * (Bool.random(using: &rng) ? 1 : -1), duration: uniform(0.08...0.2))
        case 2, 3: arc(from: a0, by: uniform(-0.8...0.8), duration: uniform(0.4...1.2))
        case 4:
            let p = point(a0, radius)
            touch(.down, p)
            t += 0.07
            touch(.up, p)
        case 5:
            touch(.down, center)
            t += 0.06
            touch(.up, center)
        case 6:
            touch(.down, point(a0 + 2, radius), slot: 1)
            arc(from: a0, by: 1.2, duration: 0.3)
            touch(.up, point(a0 + 2, radius), slot: 1)
        default:
            queue.append(.command(.step(Bool.random(using: &rng) ? 1 : -1), time: t))
        }
    }
}
