import DialCore
import KioskSeams
import KioskConfiguration

/// The `behaviour` section's timers as a pure state machine: back to the top ring and its
/// default item after `return_after_seconds`, dim or blank after `idle_after_minutes`, wake on
/// touch. The loop feeds it every input event and the frame or timer clock, and arms its
/// timerfd for `nextDeadline`.
package struct IdleSchedule {
    /// What the screen shows.
    package enum Screen: Sendable, Equatable {
        case awake, dimmed, blanked
    }

    /// What the loop must do now.
    package enum Action: Sendable, Equatable {
        /// Back to the top ring and its default item (`MenuDial.returnToTop`).
        case returnToDefault
        case dim
        case blank
        /// Restore full brightness.
        case wake
    }

    package let returnAfter: Double?
    /// Seconds of inactivity before `idleAction`.
    package let idleAfter: Double?
    package let idleAction: KioskConfig.IdleAction
    package let wakeOnTouch: Bool

    package private(set) var screen: Screen = .awake
    package private(set) var lastActivity: Double
    private var returnDone = false
    /// Slots of a touch that woke the screen: the rest of that touch is not the dial's.
    private var swallowedSlots: Set<Int> = []

    package init(behaviour: KioskConfig.Behaviour, start: Double) {
        returnAfter = behaviour.returnAfter
        idleAfter = behaviour.idleAfterMinutes.map { $0 * 60 }
        idleAction = behaviour.idle
        wakeOnTouch = behaviour.wakeOnTouch
        lastActivity = start
    }

    /// The next time `advance` has something to do; nil when nothing is pending.
    package var nextDeadline: Double? {
        var deadlines: [Double] = []
        if let returnAfter, !returnDone { deadlines.append(lastActivity + returnAfter) }
        if let idleAfter, idleAction != .none, screen == .awake { deadlines.append(lastActivity + idleAfter) }
        return deadlines.min()
    }

    /// Timers that have come due by `now`.
    package mutating func advance(to now: Double) -> [Action] {
        var actions: [Action] = []
        if let returnAfter, !returnDone, now >= lastActivity + returnAfter {
            returnDone = true
            actions.append(.returnToDefault)
        }
        if let idleAfter, screen == .awake, now >= lastActivity + idleAfter {
            switch idleAction {
            case .dim: screen = .dimmed; actions.append(.dim)
            case .blank: screen = .blanked; actions.append(.blank)
            case .none: break
            }
        }
        return actions
    }

    /// An input event at its own time. `passOn` is false when the event belongs to the dark
    /// screen (it woke it, or touches are ignored while it sleeps) rather than to the dial.
    package mutating func input(_ event: InputEvent) -> (passOn: Bool, actions: [Action]) {
        switch event {
        case .command(_, let time):
            // Keys and encoders act at once: a person is there.
            return (true, touched(at: time))
        case .touch(let touch):
            if swallowedSlots.contains(touch.slot) {
                if touch.phase == .up || touch.phase == .cancel { swallowedSlots.remove(touch.slot) }
                return (false, [])
            }
            if screen != .awake {
                guard wakeOnTouch else { return (false, []) }
                if touch.phase == .down { swallowedSlots.insert(touch.slot) }
                return (false, touched(at: touch.time))
            }
            if touch.phase == .frame { return (true, []) }
            return (true, touched(at: touch.time))
        }
    }

    /// `screen dim|off` (or `on`, which is `wake`) from the control socket or MQTT: the screen
    /// goes there now; a touch or `show` wakes it as from the idle timers.
    package mutating func force(_ target: Screen, at time: Double) -> [Action] {
        switch target {
        case .awake: return touched(at: time)
        case .dimmed, .blanked:
            guard screen != target else { return [] }
            screen = target
            return [target == .dimmed ? .dim : .blank]
        }
    }

    /// `show` (or another outside request) wakes the screen and counts as activity.
    package mutating func wake(at time: Double) -> [Action] { touched(at: time) }

    private mutating func touched(at time: Double) -> [Action] {
        if time.isFinite { lastActivity = max(lastActivity, time) }
        returnDone = false
        guard screen != .awake else { return [] }
        screen = .awake
        return [.wake]
    }
}
