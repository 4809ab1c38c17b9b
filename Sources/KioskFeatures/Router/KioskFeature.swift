import DialCore
import KioskConfiguration
import KioskLoop

/// What a feature reads when it hears a message: the dial as the loop shows it, the running
/// configuration, and the screen's state. Values only: a feature changes none of them.
package struct FeatureView {
    package let dial: DialSnapshot
    package let config: KioskConfig
    package let screen: (state: PowerState, reason: PowerReason)

    package init(dial: DialSnapshot, config: KioskConfig, screen: (state: PowerState, reason: PowerReason)) {
        self.dial = dial
        self.config = config
        self.screen = screen
    }
}

/// What one part of the kiosk leaves on the bus for the others: the router hands it to every
/// feature (`hear`), so no feature calls another.
package enum FeatureNews {
    /// An item's command to start: an `activated` item's, or a value item's on commit with
    /// the value in `extra` (its environment).
    case runCommand(MenuItem, path: MenuPath, at: Double, timeout: Double, extra: [String: String])
    /// An item was activated (one the live items did not refuse), in the dial's order.
    case activated(MenuItem, path: MenuPath, at: Double)
    /// The texts are shown in another language from now on (`code`, as asked; `language`: nil
    /// for the default): the remainder translates its menu, takes the voice, writes the
    /// `language` line and `selected` for `selected` (the item at the top), and the state.
    case languageShown(code: String, language: String?, selected: MenuPath?, at: Double)
}

/// A feature's answer: requests for the loop (in order), notifications for systemd, and news
/// for the other features.
package struct FeatureOutput {
    package var requests: [LoopRequest] = []
    package var notifications: [NotifyMessage] = []
    package var news: [FeatureNews] = []

    package init(requests: [LoopRequest] = [], notifications: [NotifyMessage] = [], news: [FeatureNews] = []) {
        self.requests = requests
        self.notifications = notifications
        self.news = news
    }

    package static var none: FeatureOutput { FeatureOutput() }

    package static func + (lhs: FeatureOutput, rhs: FeatureOutput) -> FeatureOutput {
        FeatureOutput(requests: lhs.requests + rhs.requests, notifications: lhs.notifications + rhs.notifications,
                      news: lhs.news + rhs.news)
    }
}

/// One concern of the kiosk on the router's bus. It hears the loop's messages and the other
/// features' news with a read-only view, and answers with values; it holds neither the loop
/// nor another feature, and its construction is complete at init.
package protocol KioskFeature: AnyObject {
    /// A message from the loop.
    func handle(_ message: LoopMessage, at time: Double, view: FeatureView) -> FeatureOutput
    /// Another feature's news.
    func hear(_ news: FeatureNews, at time: Double) -> FeatureOutput
    /// Housekeeping after every poll (its deadlines that came due).
    func tick(now: Double) -> FeatureOutput
    /// The latest time the loop may sleep until for this feature, or nil.
    func nextWakeup(now: Double) -> Double?
    /// On the way out (once).
    func stop(reason: String, now: Double) -> FeatureOutput
}

extension KioskFeature {
    package func handle(_ message: LoopMessage, at time: Double, view: FeatureView) -> FeatureOutput { .none }
    package func hear(_ news: FeatureNews, at time: Double) -> FeatureOutput { .none }
    package func tick(now: Double) -> FeatureOutput { .none }
    package func nextWakeup(now: Double) -> Double? { nil }
    package func stop(reason: String, now: Double) -> FeatureOutput { .none }
}
