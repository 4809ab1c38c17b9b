import CECLink
import KioskLoop
import KioskFeatures
import LinuxSystem

/// The HDMI-CEC display as one of the loop's sources: the adapter's descriptor (POLLIN for
/// messages and transmit results, POLLPRI for adapter events), the power status's deadline as
/// its wake-up; the screen owner's changes come in through `want` (ScreenPower's follower) and
/// are sent at once. What the link reports goes to the service: a failure as a `power` event
/// with reason `failed` (logged once per reason), the TV's own Standby as a dark screen.
package final class CECSource: PollSource {
    let display: CECDisplay
    /// Reports from a `want` (a refused transmit), handed to the service at the next turn.
    private var waiting: [CECPowerLink.Report] = []

    init(display: CECDisplay) {
        self.display = display
    }

    /// The screen lit or went dark (called by ScreenPower while it changes).
    func want(on: Bool, now: Double) {
        waiting += display.want(on: on, now: now)
    }

    package var pollDescriptors: [PollDescriptor] {
        [.readingWithPriority(display.pollDescriptor)]
    }

    package func wakeUp(now: Double) -> Double? { waiting.isEmpty ? display.wakeUp() : now }

    package func serve(_ polled: [PollDescriptor], now: Double) throws -> [LoopEvent] {
        let due = display.wakeUp().map { now >= $0 } ?? false
        let ready = polled.contains { $0.isReady }
        guard ready || due || !waiting.isEmpty else { return [] }
        let reports = waiting + display.serve(now: now)
        waiting = []
        guard !reports.isEmpty else { return [] }
        // The service logs each line as it acts on it (the journal keeps their order).
        return reports.map { report in
            switch report {
            case .failed(let why):
                return .message(.news(KioskNews.displayFailed("cec: " + why)))
            case .followed(let status):
                return .message(.news(KioskNews.displayFollowed(note: "cec: the TV reports \(status)")))
            case .standbyFromTV:
                return .message(.news(KioskNews.displayStandby(
                    note: "cec: the TV went to standby; the screen stays dark until screen on, screen auto or a touch")))
            }
        }
    }
}
