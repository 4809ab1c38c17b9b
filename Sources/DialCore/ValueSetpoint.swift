import RealModule
import KioskSeams

/// A value item's settings (the `value:` key): the range, the step one detent moves, the unit,
/// and where the value goes and comes from.
public struct ValueSettings: Sendable, Equatable, Hashable {
    public var minimum: Double
    public var maximum: Double
    public var step: Double
    public var unit: String?
    /// Published on commit (QoS 1, not retained): the number as text.
    public var commandTopic: String?
    /// The confirmed target; nil: optimistic (what was committed is what is shown).
    public var stateTopic: String?
    /// The measured value, drawn as a tick.
    public var currentTopic: String?
    /// Run on commit with DIALKIOSK_VALUE in its environment.
    public var command: [String]?
    /// A pause this long after the last detent commits.
    public var commitAfter: Double
    /// Reports this long after a commit are not shown.
    public var guardSeconds: Double

    public init(minimum: Double, maximum: Double, step: Double, unit: String? = nil, commandTopic: String? = nil,
                stateTopic: String? = nil, currentTopic: String? = nil, command: [String]? = nil,
                commitAfter: Double = 1.0, guardSeconds: Double = 3.0) {
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.unit = unit
        self.commandTopic = commandTopic
        self.stateTopic = stateTopic
        self.currentTopic = currentTopic
        self.command = command
        self.commitAfter = commitAfter
        self.guardSeconds = guardSeconds
    }

    /// Degrees of ring turn per step.
    public static let detentDegrees = 15.0

    /// Whether the kiosk itself owns the value (no topic either way, no command): Home
    /// Assistant discovers it as a `number`.
    public var ownedByKiosk: Bool { commandTopic == nil && stateTopic == nil && command == nil }

    /// Decimals of the step: 1 for 0.5, 0 for 1, 2 for 0.25 (at most 6).
    public var decimals: Int {
        var d = 0, scaled = step
        while d < 6 && abs(scaled - scaled.rounded()) > 1e-9 * max(1, abs(scaled)) {
            d += 1
            scaled *= 10
        }
        return d
    }

    /// `value` with the step's decimals: "23.0" for a step of 0.5, "23" for 1.
    public func text(_ value: Double) -> String {
        let d = decimals
        var scale = 1.0
        for _ in 0..<d { scale *= 10 }
        let units = (abs(value) * scale).rounded()
        let whole = Int(units / scale)
        let fraction = Int(units - Double(whole) * scale)
        var s = (value < 0 && units != 0 ? "-" : "") + String(whole)
        if d > 0 {
            let digits = String(fraction)
            s += "." + String(repeating: "0", count: d - digits.count) + digits
        }
        return s
    }

    /// `value` on the grid of steps from `minimum`, inside the range. Clamped before the
    /// division, so no magnitude (1e308, -1e308) overflows on the way to the grid.
    public func snapped(_ value: Double) -> Double {
        let inside = min(maximum, max(minimum, value))
        let n = ((inside - minimum) / step).rounded()
        return min(maximum, max(minimum, minimum + n * step))
    }

    /// How many steps the range holds.
    public var stepCount: Int { Int(((maximum - minimum) / step).rounded()) }
}

/// What a value dial shows and when it commits, as a pure state machine; time is an argument.
///
/// Turning changes the shown value at once (`changing`); a pause of `commitAfter` or a tap
/// commits it (`committed`: one publish); from the commit a guard of `guardSeconds` runs in
/// which a report equal to the committed value confirms it (`confirmed`) and any other report
/// is not shown, only counted (devices first repeat their old value): the shown value never
/// jumps back while the device catches up. Outside the guard a report is taken (`external`);
/// when the guard ends without confirmation the dial shows what the device last said. Without a
/// state topic the dial is optimistic: the commit is what it shows.
public struct ValueSetpoint: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// Showing a value nobody is changing.
        case idle
        /// Being turned; `lastTurn` is the time of the last detent.
        case changing(lastTurn: Double)
        /// Committed `value` at `since`; reports other than it are held back until `since + guard`.
        case guarding(value: Double, since: Double)
    }

    /// What a step of the machine reports (the service prints, publishes and speaks these).
    public enum Output: Sendable, Equatable {
        case changing(Double)
        /// Publish this value (once per commit).
        case committed(Double)
        case confirmed(Double)
        /// The device's value, now shown.
        case external(Double)
        /// A turn ran into the range's end: `true` at the maximum.
        case stop(atMaximum: Bool)
        /// A report outside the range, clamped before use (logged, never shown as accepted).
        case clamped(reported: Double, to: Double)
        /// Turning paused for `restSeconds` before the commit: the value now shown (spoken).
        case rest(Double)
    }

    /// A pause this long in turning is a rest: the value is spoken (before the commit's pause).
    public static let restSeconds = 0.35

    public let settings: ValueSettings
    /// Whether reports are expected (a state topic); without, commits are optimistic.
    public let confirms: Bool
    public private(set) var phase: Phase = .idle
    public private(set) var shown: Double
    /// What the device last said (nil: nothing yet).
    public private(set) var reported: Double?
    /// Reports held back inside a guard (`<base>/metrics`' `guarded_reports`).
    public private(set) var guardedReports = 0
    /// A change waits for its rest to be spoken.
    private var restPending = false

    public init(settings: ValueSettings, initial: Double? = nil) {
        self.settings = settings
        confirms = settings.stateTopic != nil
        shown = settings.snapped(initial ?? settings.minimum)
    }

    /// The next time `advance` has something to do (a commit after a pause, a guard's end).
    public var nextDeadline: Double? {
        switch phase {
        case .idle: return nil
        case .changing(let last): return restDue(last) ?? last + settings.commitAfter
        case .guarding(_, let since): return since + settings.guardSeconds
        }
    }

    /// When the rest after a detent at `last` is due; nil when none waits, or the commit's
    /// pause comes first (then the commit speaks).
    private func restDue(_ last: Double) -> Double? {
        guard restPending, Self.restSeconds < settings.commitAfter else { return nil }
        return last + Self.restSeconds
    }

    /// `detents` detents (negative: anticlockwise) at `time`: the shown value moves a step each,
    /// stopping hard at the ends.
    public mutating func turn(_ detents: Int, at time: Double) -> [Output] {
        guard detents != 0 else { return [] }
        let target = shown + Double(detents) * settings.step
        let next = settings.snapped(target)
        var out: [Output] = []
        if next != shown {
            shown = next
            restPending = true
            phase = .changing(lastTurn: time)
            out.append(.changing(next))
        } else if case .changing = phase {
            phase = .changing(lastTurn: time)
        }
        if target > settings.maximum + settings.step * 1e-6 { out.append(.stop(atMaximum: true)) }
        if target < settings.minimum - settings.step * 1e-6 { out.append(.stop(atMaximum: false)) }
        return out
    }

    /// A tap on the hub: commits a change at once.
    public mutating func tap(at time: Double) -> [Output] {
        guard case .changing = phase else { return [] }
        return commit(at: time)
    }

    /// The clock reached `time`: a pause commits, a guard ends.
    public mutating func advance(to time: Double) -> [Output] {
        switch phase {
        case .idle:
            return []
        case .changing(let last):
            if time >= last + settings.commitAfter { return commit(at: time) }
            if let due = restDue(last), time >= due {
                restPending = false
                return [.rest(shown)]
            }
            return []
        case .guarding(_, let since):
            guard time >= since + settings.guardSeconds else { return [] }
            phase = .idle
            // Not confirmed in time: the device's last word stands.
            guard let reported, reported != shown else { return [] }
            shown = reported
            return [.external(reported)]
        }
    }

    /// The device reports `value` at `time` (a state topic's message, `set <path> value`, Home
    /// Assistant's number): taken on the step grid, inside the range, as a turn would reach it
    /// (37 with a step of 5 from 0 is 35; 1e-320 is the minimum). Not a number: nothing (the
    /// caller refuses it before).
    public mutating func report(_ value: Double, at time: Double) -> [Output] {
        guard value.isFinite else { return [] }
        var out: [Output] = []
        let v = settings.snapped(value)
        if value < settings.minimum || value > settings.maximum {
            out.append(.clamped(reported: value, to: v))
        }
        reported = v
        switch phase {
        case .changing:
            // The person's hand wins; the report stands once the guard of their commit ends.
            return out
        case .guarding(let committed, let since):
            if time < since + settings.guardSeconds {
                if v == committed {
                    phase = .idle
                    return out + [.confirmed(v)]
                }
                guardedReports += 1
                return out
            }
            phase = .idle
        case .idle:
            break
        }
        guard v != shown else { return out }
        shown = v
        return out + [.external(v)]
    }

    private mutating func commit(at time: Double) -> [Output] {
        restPending = false
        phase = confirms ? .guarding(value: shown, since: time) : .idle
        if !confirms { reported = shown }
        return [.committed(shown)]
    }
}

/// Acceleration of a value dial turned by a finger or an encoder: only for a range of more
/// than `minimumSteps` steps (a short range is walked detent by detent), detents that come fast
/// in one direction move 2 or 4 steps each, and never more than a 24th of the range (2 at
/// least). Pure: fed
/// each batch of detents with its time, it says how many steps they move.
public struct ValueAcceleration: Sendable, Equatable {
    /// Ranges of at most this many steps are never accelerated.
    public static let minimumSteps = 24
    /// Detents per second from which each moves 2 steps, and 4.
    public static let doubleRate = 10.0, quadrupleRate = 20.0

    private var lastTime: Double?
    private var lastSign = 0

    public init() {}

    /// The steps `detents` detents at `time` move on a range of `stepCount` steps.
    public mutating func steps(_ detents: Int, at time: Double, stepCount: Int) -> Int {
        guard detents != 0 else { return 0 }
        defer {
            lastTime = time
            lastSign = detents.signum()
        }
        guard stepCount > Self.minimumSteps, let last = lastTime, lastSign == detents.signum() else { return detents }
        let dt = time - last
        // Two batches at one instant (a drag's motion and an encoder in one frame) count as fast.
        let rate = dt > 0 ? Double(abs(detents)) / dt : .infinity
        let factor = rate >= Self.quadrupleRate ? 4 : rate >= Self.doubleRate ? 2 : 1
        return detents * min(factor, max(2, stepCount / Self.minimumSteps))
    }

    /// Forgets the last detent (a value dial opened or closed).
    public mutating func reset() { self = ValueAcceleration() }
}

/// A finger on an open value dial (or the PIN ring): turning around the hub gives detents of
/// `detentDegrees` (`ValueSettings.detentDegrees` for a value dial; clockwise positive), a tap on the hub commits, a press on the
/// hub held past the gestures' `longPressDuration` closes. A tap is told from a drag by the same
/// `GestureSettings` the ring uses. Pure: fed touch samples, it says what they mean.
public struct ValueDrag: Sendable, Equatable {
    /// Closer than this to the centre (pixels) a finger's angle jumps: it turns nothing there.
    public static let turningRadius = 8.0

    public enum Output: Sendable, Equatable {
        case none
        case detents(Int)
        case tap
        case longPress
    }

    /// Where the dial is (nil: no value dial open).
    public var geometry: DialGeometry?
    public let gestures: GestureSettings
    /// Degrees of turn per detent.
    public let detentDegrees: Double
    private var downX = 0.0, downY = 0.0, downTime = 0.0
    private var lastAngle = 0.0, carried = 0.0
    private var touching = false, inHub = false, moved = false

    public init(geometry: DialGeometry? = nil, gestures: GestureSettings = GestureSettings(),
                detentDegrees: Double = ValueSettings.detentDegrees) {
        self.geometry = geometry
        self.gestures = gestures
        self.detentDegrees = detentDegrees
    }

    public mutating func feed(_ touch: TouchEvent, center: Point, hubRadius: Double) -> Output {
        guard touch.slot == 0 else { return .none }
        let dx = touch.x - center.x, dy = touch.y - center.y
        let angle = Double.atan2(y: dy, x: dx)
        switch touch.phase {
        case .down:
            touching = true
            downX = touch.x; downY = touch.y; downTime = touch.time
            lastAngle = angle
            carried = 0
            inHub = (dx * dx + dy * dy).squareRoot() <= hubRadius
            moved = false
            return .none
        case .motion:
            guard touching else { return .none }
            let mx = touch.x - downX, my = touch.y - downY
            if (mx * mx + my * my).squareRoot() > gestures.tapSlop { moved = true }
            // Turning is measured around the centre, away from it (near it angles jump).
            guard moved, (dx * dx + dy * dy).squareRoot() > Self.turningRadius else { return .none }
            var delta = angle - lastAngle
            if delta > .pi { delta -= 2 * .pi }
            if delta < -.pi { delta += 2 * .pi }
            lastAngle = angle
            carried += delta * 180 / .pi
            let n = Int((carried / detentDegrees).rounded(.towardZero))
            guard n != 0 else { return .none }
            carried -= Double(n) * detentDegrees
            return .detents(n)
        case .up:
            guard touching else { return .none }
            touching = false
            guard !moved, inHub else { return .none }
            return touch.time - downTime >= gestures.longPressDuration ? .longPress : .tap
        case .cancel:
            touching = false
            return .none
        case .frame:
            return .none
        }
    }
}
