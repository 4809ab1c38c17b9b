import KioskConfiguration
import KioskLoop

/// The configuration's words for the screen, turned into the screen owner's and the timers'
/// plain values (KioskLoop knows no configuration types).
extension KioskService {
    /// The behaviour timers of `behaviour`, starting at `start`.
    static func timers(_ behaviour: KioskConfig.Behaviour, start: Double) -> IdleSchedule {
        IdleSchedule(returnAfter: behaviour.returnAfter,
                     idleAfter: behaviour.idle == .none ? nil : behaviour.idleAfterMinutes.map { $0 * 60 },
                     start: start)
    }

    /// The running configuration's screen settings into the screen owner's policy.
    func configureScreen() {
        let behaviour = config.behaviour
        screen.change { policy in
            switch behaviour.idle {
            case .dim: policy.idleLook = .dim
            case .blank: policy.idleLook = .off
            case .none: policy.idleLook = nil
            }
            policy.wakeOnTouch = behaviour.wakeOnTouch
        }
    }
}
