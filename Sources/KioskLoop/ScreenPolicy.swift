import KioskSeams

/// What the screen is meant to show: on, dimmed or off.
package enum PowerState: String, Sendable, Equatable, CaseIterable {
    case on, dim, off
}

/// Why the screen is in its power state (the `power` event's `reason`).
package enum PowerReason: String, Sendable, Equatable, CaseIterable {
    /// The opening hours (on inside them, `outside_hours` outside).
    case schedule
    /// The idle timers (`behaviour.idle`).
    case idle
    /// `screen on|off|dim|auto` or `brightness` from the control socket or MQTT.
    case requested
    /// The presence sensor's key.
    case presence
    /// A touch, a key or an encoder (a person at the screen).
    case touch
    /// The display did not follow (an HDMI-CEC TV that does not answer); never the policy's own
    /// reason: the service reports it beside the state the policy chose.
    case failed
}

/// The one decision of what the screen shows and why, as a pure state machine on plain data:
/// the opening hours, the idle timers' verdict, a request, and the wakes (touch, presence)
/// each set a fact here, and `target` derives the state and its reason from the facts.
/// `ScreenPower` holds it and makes the glass follow; nothing else decides "is the screen dark".
package struct ScreenPolicy: Sendable, Equatable {
    /// How an idle screen looks (`behaviour.idle`): `.dim`, `.off`, or nil (stays on).
    package var idleLook: PowerState?
    /// `behaviour.wake_on_touch`: a touch wakes a dark screen (else only `show`, keys, requests).
    package var wakeOnTouch: Bool
    /// `power.outside_hours`: the state outside the opening hours (`.on`: the hours only report).
    package var outsideHours: PowerState
    /// `power.touch_outside_hours: wake`: a touch outside the hours wakes for the idle time.
    package var touchWakesOutsideHours: Bool

    /// Inside the opening hours (always, without a schedule).
    package private(set) var open = true
    /// The idle timers said "idle" since the last activity.
    private var idle = false
    /// `screen dim|off` or `brightness`: held until `screen on`, `screen auto` or a touch.
    private var requested: PowerState?
    /// Outside the hours, lit by a touch or presence (until idle or the next transition) or by
    /// `screen on` (until the next transition): by which.
    private var woken: PowerReason?
    /// Why the screen last came on.
    private var lastWake: PowerReason = .schedule
    /// Slots of a touch that woke the screen: the rest of that touch is not the dial's.
    private var swallowedSlots: Set<Int> = []

    package init(idleLook: PowerState? = nil, wakeOnTouch: Bool = true, outsideHours: PowerState = .off,
                 touchWakesOutsideHours: Bool = true) {
        self.idleLook = idleLook
        self.wakeOnTouch = wakeOnTouch
        self.outsideHours = outsideHours
        self.touchWakesOutsideHours = touchWakesOutsideHours
    }

    /// The state the screen must be in now, and why.
    package var target: (state: PowerState, reason: PowerReason) {
        if let requested { return (requested, .requested) }
        if closedDark { return (outsideHours, .schedule) }
        if idle, let idleLook { return (idleLook, .idle) }
        return (.on, lastWake)
    }

    /// Dark because the hours are closed (and nobody woke it).
    private var closedDark: Bool { !open && outsideHours != .on && woken == nil }

    /// What an input event is to the screen.
    package enum Admission: Sendable, Equatable {
        /// The dial's; `activity`: it counts for the idle timers (a touch frame does not).
        case dial(activity: Bool)
        /// The screen's alone: it woke the screen (activity), or belongs to a touch that did.
        case woke
        /// Ignored: a touch on a dark screen that touches do not wake, or the rest of a waking touch.
        case swallowed
    }

    /// An input event: a touch on a screen that is not on wakes it (when allowed) and is not the
    /// dial's, nor is the rest of that touch; keys and encoders act at once and wake.
    package mutating func admit(_ event: InputEvent) -> Admission {
        switch event {
        case .command:
            woke(by: .touch)
            return .dial(activity: true)
        case .touch(let touch):
            if swallowedSlots.contains(touch.slot) {
                if touch.phase == .up || touch.phase == .cancel { swallowedSlots.remove(touch.slot) }
                return .swallowed
            }
            guard target.state == .on else {
                let allowed = wakeOnTouch && (target.reason != .schedule || touchWakesOutsideHours)
                guard allowed else { return .swallowed }
                if touch.phase == .down { swallowedSlots.insert(touch.slot) }
                woke(by: .touch)
                return .woke
            }
            return .dial(activity: touch.phase != .frame)
        }
    }

    /// The idle timers ran out: dim or off (`idleLook`); a screen a touch or presence woke
    /// outside the hours goes back to the hours' state.
    package mutating func idled() {
        idle = true
        if woken != .requested { woken = nil }
    }

    /// The opening hours opened or closed (a transition, or the first reading).
    package mutating func hours(open isOpen: Bool) {
        guard isOpen != open else { return }
        open = isOpen
        woken = nil
        if isOpen {
            idle = false
            lastWake = .schedule
        }
    }

    /// `screen on|dim|off` (and `brightness`): `.on` wakes (outside the hours until the next
    /// transition); dim and off hold until `screen on`, `screen auto` or a touch.
    package mutating func request(_ state: PowerState) {
        if state == .on {
            woke(by: .requested)
        } else {
            requested = state
        }
    }

    /// `screen auto`: back to the hours and the idle timers, as after a transition.
    package mutating func auto() {
        requested = nil
        woken = nil
        idle = false
        lastWake = .schedule
    }

    /// `show` and other outside wakes count as a touch.
    package mutating func wake() { woke(by: .touch) }

    /// The presence sensor: wakes a screen dark for idle or for the hours, never one switched
    /// off on request. Returns whether it woke the screen (activity for the idle timers).
    @discardableResult
    package mutating func presence() -> Bool {
        guard requested == nil, target.state != .on else { return false }
        woke(by: .presence)
        return true
    }

    private mutating func woke(by reason: PowerReason) {
        let wasOn = target.state == .on
        requested = nil
        idle = false
        if !open && woken != .requested { woken = reason }
        if !wasOn || reason == .requested { lastWake = reason }
    }
}
