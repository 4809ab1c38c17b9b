import DialCore
import KioskConfiguration
import KioskLoop
import KioskReporting
import LinuxSystem

/// The loop's `LoopService`: one bus that hands each loop message, with a read-only view, to
/// every feature and to the part of the service not yet split into features (`LegacyService`,
/// named for what it is), and carries what they answer: requests back to the loop, systemd
/// notifications to the notifier, news to the other features. Features never call each other
/// nor the loop; the router is the only one that calls them.
package final class FeatureRouter: LoopService {
    /// The unsplit remainder of the service: event lines, the control socket, the screen's
    /// policy, MQTT, live items, speech, the fleet and the reload.
    package let legacy: LegacyService
    package let lifecycle: Lifecycle
    package let commands: ItemCommands
    package let languages: LanguageSwitch
    private var stopped = false

    /// The features that hear a message before the remainder (READY=1 goes out before the
    /// `started` line).
    private var first: [any KioskFeature] { [lifecycle, commands] }
    /// The features that hear it after the remainder (a language command's lines follow the
    /// wake the remainder writes).
    private var later: [any KioskFeature] { [languages] }
    /// Every feature, in that order.
    private var features: [any KioskFeature] { first + later }

    package init(legacy: LegacyService, environment: [String: String]) {
        self.legacy = legacy
        lifecycle = Lifecycle(environment: environment)
        commands = ItemCommands(environment: environment, logger: legacy.logger)
        languages = LanguageSwitch(since: legacy.createdAt)
    }

    deinit { stop(reason: "exit", now: .nan) }

    private func view(_ dial: DialSnapshot) -> FeatureView {
        FeatureView(dial: dial, config: legacy.config, screen: legacy.screen.state)
    }

    package func attach(screen: ScreenPower) { legacy.attach(screen: screen) }

    package func handle(_ message: LoopMessage, at time: Double, dial: DialSnapshot) throws -> [LoopRequest] {
        let view = view(dial)
        var requests: [LoopRequest] = []
        for feature in first { requests += carry(feature.handle(message, at: time, view: view), at: time) }
        requests += try legacy.handle(message, at: time, dial: dial)
        // The remainder may have swapped the configuration (a reload committed in this turn).
        let after = self.view(dial)
        for feature in later { requests += carry(feature.handle(message, at: time, view: after), at: time) }
        requests += deliver(legacy.takeNews(), at: time)
        return requests
    }

    /// Housekeeping on every loop turn (after poll): the features' deadlines (the watchdog's
    /// ping first, then children reaped), then the remainder's behaviour timers.
    package func tick(now: Double) -> [BehaviourAction] {
        for feature in features { _ = carry(feature.tick(now: now), at: now) }
        return legacy.tick(now: now)
    }

    /// The latest time the loop may sleep until, or nil.
    package func nextWakeup(now: Double) -> Double? {
        (features.compactMap { $0.nextWakeup(now: now) } + [legacy.nextWakeup(now: now)].compactMap { $0 }).min()
    }

    /// On the way out: STOPPING=1, then the remainder's `stopping` line and its sockets; safe twice.
    package func stop(reason: String, now: Double) {
        guard !stopped else { return }
        stopped = true
        for feature in features { _ = carry(feature.stop(reason: reason, now: now), at: now) }
        legacy.stop(reason: reason, now: now)
    }

    /// The loop's sources: the remainder's, with the deadlines served through the router.
    package var pollSources: ServiceSources {
        var sources = legacy.pollSources
        sources.last = sources.last.map { $0 is ServiceDeadlines ? RouterDeadlines(router: self) : $0 }
        return sources
    }

    /// A feature's answer: notifications sent now, news delivered; its requests returned.
    private func carry(_ output: FeatureOutput, at time: Double) -> [LoopRequest] {
        if !output.notifications.isEmpty { legacy.notify(output.notifications) }
        return output.requests + deliver(output.news, at: time)
    }

    /// News to every feature (which may answer with more), then to the remainder.
    private func deliver(_ news: [FeatureNews], at time: Double) -> [LoopRequest] {
        var requests: [LoopRequest] = []
        for item in news {
            for feature in features { requests += carry(feature.hear(item, at: time), at: time) }
            legacy.hear(item, at: time)
        }
        return requests
    }

    /// Whether the language's return is due (`KioskNews.languageDue` for the loop to pass back).
    package func languageDue(now: Double) -> Bool { languages.returnDeadline.map { now >= $0 } ?? false }
}

/// The deadlines of the features and of the remainder: no descriptor, a wake-up time, and
/// housekeeping after every poll (the watchdog, children reaped, timers fired), as
/// `ServiceDeadlines` serves them for the remainder alone, then the language's return.
package struct RouterDeadlines: PollSource {
    package let router: FeatureRouter
    package var pollDescriptors: [PollDescriptor] { [] }
    package func wakeUp(now: Double) -> Double? { router.nextWakeup(now: now) }
    package func serve(_ polled: [PollDescriptor], now: Double) throws -> [LoopEvent] {
        let actions = router.tick(now: now)
        return (actions.isEmpty ? [] : [.requests([.apply(actions)])]) + ServiceDeadlines.due(router.legacy, now: now)
            + (router.languageDue(now: now) ? [.message(.news(KioskNews.languageDue))] : [])
    }

    package init(router: FeatureRouter) {
        self.router = router
    }
}
