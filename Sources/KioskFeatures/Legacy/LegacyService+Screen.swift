import KioskConfiguration
import KioskLoop
import LinuxSystem
import OpeningHours

/// The opening hours as the service watches them: the decision at the wall clock's time, the
/// loop-clock deadline of the next transition (one deadline, no polling), and the offset
/// between the two clocks, whose change means the wall clock jumped (NTP, a resumed VM).
package struct HoursWatch {
    /// CLOCK_REALTIME in seconds.
    package static func realtime() -> Double { realtimeNow() }

    let wallClock: () -> Double
    let local: LocalClock
    /// The loop-clock time of the next transition; nil without hours (or none in eight days).
    package private(set) var deadline: Double?
    /// The same on the wall clock.
    package private(set) var nextWall: Double?
    /// Wall minus loop clock at the last check.
    private var offset: Double?
    /// The first frame is on the glass: from now on the hours decide (before it, a blank would
    /// switch off an output not yet lit).
    var started = false
    /// The last power state told (event line), to tell only changes.
    /// A kiosk starts on for the hours: that is not news.
    var told: (state: PowerState, reason: PowerReason)? = (.on, .schedule)

    /// TZ and TZDIR as the process was given them (glibc reads the zone from these).
    let zoneEnvironment: [String: String]
    /// The zone's problem last said (nil: none), so each is said once.
    var zoneTold: String?

    init(wallClock: @escaping () -> Double, local: LocalClock, environment: [String: String] = [:]) {
        self.wallClock = wallClock
        self.local = local
        zoneEnvironment = environment.filter { $0.key == "TZ" || $0.key == "TZDIR" }
    }

    /// Whether `now` (loop clock) calls for a look at the hours: the transition came, or the
    /// wall clock moved against the loop's by more than a second.
    mutating func due(now: Double) -> Bool {
        guard started else { return false }
        if let deadline, now >= deadline { return true }
        guard let offset else { return true }
        return abs((wallClock() - now) - offset) > 1
    }

    /// The decision at `now`, and the next deadline.
    mutating func check(_ hours: OpeningHours?, now: Double) -> Bool {
        let wall = wallClock()
        offset = wall - now
        guard let hours else {
            deadline = nil
            nextWall = nil
            return true
        }
        nextWall = hours.nextTransition(after: wall, clock: local)
        deadline = nextWall.map { now + ($0 - wall) }
        return hours.isOpen(atEpoch: wall, clock: local)
    }
}

/// The configuration's words for the screen, turned into the screen owner's and the timers'
/// plain values (KioskLoop knows no configuration types), and the power state's news.
extension LegacyService {
    /// The behaviour timers of `behaviour`, starting at `start`.
    static func timers(_ behaviour: KioskConfig.Behaviour, start: Double) -> IdleSchedule {
        IdleSchedule(returnAfter: behaviour.returnAfter,
                     idleAfter: behaviour.idle == .none ? nil : behaviour.idleAfterMinutes.map { $0 * 60 },
                     start: start)
    }

    /// With opening hours, a zone glibc cannot use is said once in the journal (at start, and
    /// at a reload that brings hours or finds another problem): glibc would run the hours on
    /// UTC without a word.
    func checkZone() {
        guard config.power.schedule != nil else { return }
        let problem = hours.local.zoneProblem(environment: hours.zoneEnvironment)
        if let problem, problem != hours.zoneTold { logger.warning("power: \(problem)") }
        hours.zoneTold = problem
    }

    /// The running configuration's screen settings into the screen owner's policy.
    func configureScreen() {
        let behaviour = config.behaviour
        let power = config.power
        screen.change { policy in
            switch behaviour.idle {
            case .dim: policy.idleLook = .dim
            case .blank: policy.idleLook = .off
            case .none: policy.idleLook = nil
            }
            policy.wakeOnTouch = behaviour.wakeOnTouch
            switch power.outsideHours {
            case .off: policy.outsideHours = .off
            case .dim: policy.outsideHours = .dim
            case .on: policy.outsideHours = .on
            }
            policy.touchWakesOutsideHours = power.touchOutsideHours == .wake
        }
    }

    /// The hours looked at when due (a transition, a clock jump, `force`): an opening is
    /// activity for the idle timers; returns the repaint the loop owes.
    func checkHours(now: Double, force: Bool = false) -> [BehaviourAction] {
        guard force || hours.due(now: now) else { return [] }
        let open = hours.check(config.power.schedule, now: now)
        if open && !screen.policy.open { idle.activity(at: now) }
        return screen.change { $0.hours(open: open) } ? [.repaint] : []
    }

    /// `screen auto`: the screen back to the hours and the idle timers (which start again).
    package func screenAuto(now: Double) -> [BehaviourAction] {
        idle.activity(at: now)
        let changed = screen.change { $0.auto() }
        screenNews(at: now)
        return changed ? [.repaint] : []
    }

    /// A `power` event line when the state or its reason changed, and the retained state.
    func screenNews(at time: Double) {
        let now = screen.state
        if hours.told.map({ $0 != now }) ?? true {
            hours.told = now
            emit(.power(time: time, state: now.state.rawValue, reason: now.reason.rawValue, detail: powerDetail(now)))
        }
        publishState()
    }

    /// A few words beside the reason: when the hours change next (local time), the request.
    private func powerDetail(_ now: (state: PowerState, reason: PowerReason)) -> String {
        switch now.reason {
        case .schedule:
            guard config.power.schedule != nil else { return "no opening hours" }
            guard let next = hours.nextWall else { return "no transition within a week" }
            return (screen.policy.open ? "closes " : "opens ") + hours.local.text(next)
        case .idle: return "no activity"
        case .requested: return now.state == .dim ? "brightness \(screen.brightness)" : ""
        case .presence, .touch: return ""
        case .failed: return displayFailure ?? ""
        }
    }
}

extension LegacyService {
    /// The presence sensor's key: wakes a screen dark for idle or for the hours (for the idle
    /// time outside them), never one switched off on request; never the dial's.
    package func presence(now: Double) -> [BehaviourAction] {
        var woke = false
        let changed = screen.change { woke = $0.presence() }
        guard woke else { return [] }
        idle.activity(at: now)
        screenNews(at: now)
        return changed ? [.repaint] : []
    }
}

extension LegacyService {
    /// The display behind the output (an HDMI-CEC TV) did not follow: a `power` event with
    /// reason `failed` and the state the screen is in, and the same in `<base>/state`. The
    /// blank is still painted; the next change of state is told as usual.
    package func displayFailed(_ why: String, now: Double) {
        displayFailure = why
        let state = screen.state.state
        hours.told = (state, .failed)
        emit(.power(time: now, state: state.rawValue, reason: PowerReason.failed.rawValue, detail: why))
        publishState()
    }

    /// The display follows again after a failure: the state and its reason told again.
    package func displayFollowed(now: Double) {
        guard displayFailure != nil else { return }
        displayFailure = nil
        screenNews(at: now)
    }

    /// The TV went to standby on its own (its remote, its Standby message): the screen goes
    /// dark as if `screen off` had been asked, until `screen on`, `screen auto` or a touch.
    package func displayStandby(now: Double) -> [BehaviourAction] {
        let changed = screen.change { $0.request(.off) }
        let state = screen.state
        if hours.told.map({ $0 != state }) ?? true {
            hours.told = state
            emit(.power(time: now, state: state.state.rawValue, reason: state.reason.rawValue, detail: "cec: Standby from the TV"))
        }
        publishState()
        return changed ? [.repaint] : []
    }
}
