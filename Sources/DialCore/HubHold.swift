import KioskSeams

/// A finger held still on the hub for `seconds` (the lock's `hold_seconds`, 3 by default): the
/// way to the PIN ring. Pure: fed the first finger's samples and the clock, it says when the
/// hold came. "Still" is the ring's own tap slop (`GestureSettings.tapSlop`), so a touch the dial
/// would take for a drag never holds. A second finger, a lift, a cancel or a slide past the slop
/// before the time ends the hold; a hold fires once per touch.
public struct HubHold: Sendable, Equatable {
    /// How long the finger must stay (seconds).
    public let seconds: Double
    public let gestures: GestureSettings
    private var down: (x: Double, y: Double, time: Double)?
    private var fired = false

    public init(seconds: Double = 3, gestures: GestureSettings = GestureSettings()) {
        self.seconds = seconds
        self.gestures = gestures
    }

    public static func == (a: HubHold, b: HubHold) -> Bool {
        a.seconds == b.seconds && a.gestures == b.gestures && a.fired == b.fired
            && a.down?.x == b.down?.x && a.down?.y == b.down?.y && a.down?.time == b.down?.time
    }

    /// When a hold would come if the finger stays (for the loop's poll timeout); nil: none waits.
    public var deadline: Double? {
        guard let down, !fired else { return nil }
        return down.time + seconds
    }

    /// One touch sample; the hold's instant when this sample completes it, else nil.
    public mutating func feed(_ touch: TouchEvent, geometry: DialGeometry) -> Double? {
        guard touch.slot == 0 else {
            // A second finger is a gesture of its own, never a hold.
            if touch.phase == .down { down = nil }
            return nil
        }
        switch touch.phase {
        case .down:
            fired = false
            let dx = touch.x - geometry.center.x, dy = touch.y - geometry.center.y
            down = (dx * dx + dy * dy).squareRoot() <= geometry.hubRadius ? (touch.x, touch.y, touch.time) : nil
            return nil
        case .motion:
            guard let d = down else { return nil }
            let mx = touch.x - d.x, my = touch.y - d.y
            if (mx * mx + my * my).squareRoot() > gestures.tapSlop {
                down = nil
                return nil
            }
            return advance(to: touch.time)
        case .frame:
            return advance(to: touch.time)
        case .up, .cancel:
            // A lift at or after the deadline still held long enough.
            let held = advance(to: touch.time)
            down = nil
            return held
        }
    }

    /// The clock reached `time`: the hold's instant if it came by then (once), else nil.
    public mutating func advance(to time: Double) -> Double? {
        guard let due = deadline, time >= due else { return nil }
        fired = true
        return due
    }
}
