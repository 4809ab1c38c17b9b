import KioskLoop
import LinuxSystem

/// The service's life as systemd sees it: READY=1 with the item count once the first frame is
/// on the glass (so "active" means "visible"), WATCHDOG=1 when the watchdog's interval says,
/// STOPPING=1 on the way out. Its notifications go out through the router's notifier.
package final class Lifecycle: KioskFeature {
    /// WATCHDOG_USEC's schedule for this process; nil without a watchdog.
    private var watchdog: WatchdogSchedule?

    package init(environment: [String: String]) {
        watchdog = WatchdogSchedule.fromEnvironment(environment, pid: FilePaths.processID)
    }

    package func handle(_ message: LoopMessage, at time: Double, view: FeatureView) -> FeatureOutput {
        guard case .firstFrameShown = message else { return .none }
        return FeatureOutput(notifications: [.ready, .status("Showing \(view.config.items.count) items")])
    }

    package func tick(now: Double) -> FeatureOutput {
        guard var schedule = watchdog, schedule.isDue(now: now) else { return .none }
        schedule.pinged(at: now)
        watchdog = schedule
        return FeatureOutput(notifications: [.watchdog])
    }

    package func nextWakeup(now: Double) -> Double? { watchdog?.nextDue }

    package func stop(reason: String, now: Double) -> FeatureOutput { FeatureOutput(notifications: [.stopping]) }
}
