import KioskSeams
import RealModule

/// `--demo-fling`: the touch samples of a quick swipe along the ring, so `run` can be seen (and
/// tested) animating on a machine without a touchscreen. Pure: geometry and times in, events out.
/// In the core (not the App) so the loop's tests can drive a fling without importing the App.
public enum DemoFling {
    /// A finger down on the ring at 3 o'clock, moved along it at `radPerSecond` (positive is
    /// clockwise) for 60 ms in 10 ms samples, lifted at `endTime`.
    public static func events(geometry: DialGeometry, radPerSecond: Double, endTime: Double) -> [InputEvent] {
        let c = geometry.center, r = geometry.ringRadius
        let steps = 6, dt = 0.01
        let start = endTime - Double(steps) * dt
        func point(_ k: Int) -> (Double, Double) {
            let a = radPerSecond * Double(k) * dt
            return (c.x + r * Double.cos(a), c.y + r * Double.sin(a))
        }
        var out: [InputEvent] = []
        let (x0, y0) = point(0)
        out.append(.touch(TouchEvent(phase: .down, x: x0, y: y0, time: start)))
        out.append(.touch(TouchEvent(phase: .frame, x: x0, y: y0, time: start)))
        for k in 1...steps {
            let (x, y) = point(k)
            let t = start + Double(k) * dt
            out.append(.touch(TouchEvent(phase: .motion, x: x, y: y, time: t)))
            out.append(.touch(TouchEvent(phase: .frame, x: x, y: y, time: t)))
        }
        let (x, y) = point(steps)
        out.append(.touch(TouchEvent(phase: .up, x: x, y: y, time: endTime)))
        out.append(.touch(TouchEvent(phase: .frame, x: x, y: y, time: endTime)))
        return out
    }
}
