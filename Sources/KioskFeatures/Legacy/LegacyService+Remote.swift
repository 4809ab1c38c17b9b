import KioskVocabulary
import LinuxSystem

/// The remote view's side of the service (the view itself is the app's, which the service does
/// not know): viewers counted for `<base>/state`, screenshots asked for and answered.
extension LegacyService {
    /// A `viewer` line's news: the count in `<base>/state` follows, published at once.
    package func viewerChanged(connected: Bool) {
        viewers = max(0, viewers + (connected ? 1 : -1))
        publishState()
    }

    /// `screenshot` on the control socket or `<base>/set/screenshot`: refused with an `error`
    /// line unless `remote.screenshots` is on; otherwise one is started (or joined) off the loop.
    func screenshot(_ request: ControlServer.Request, at time: Double) {
        guard let remote = config.remote, remote.screenshots else {
            return replyError(request, "screenshots are off (remote.screenshots is false)", now: time)
        }
        guard let take = takeScreenshot else {
            return replyError(request, "screenshots need the remote view, which is not running", now: time)
        }
        if let problem = take(request.client) { replyError(request, "screenshot: \(problem)", now: time) }
    }

    /// A screenshot is taken: each socket client that asked gets its line (or, when the file
    /// could not be written, `fileProblem`, an `error` line); when MQTT asked, the PNG goes to
    /// `<base>/screenshot` (not retained) from memory either way, and `<base>/state` gets the
    /// time. `wallTime`: seconds since 1970 when it was taken.
    package func screenshotTaken(path: String, fileProblem: String? = nil, width: Int, height: Int, sha256: String, png: [UInt8],
                                 for clients: [ControlServer.ClientID], wallTime: Double, now: Double) {
        screenshotAt = Self.iso8601(wallTime)
        let line = EventLine([("t", .number(now)), ("event", .event(.screenshot)), ("path", .string(path)), ("width", .int(width)),
                              ("height", .int(height)), ("sha256", .string(sha256))])
        for client in Set(clients) where client != .mqtt {
            if let fileProblem {
                replyError(ControlServer.Request(client: client, command: .screenshot), "screenshot: \(fileProblem)", now: now)
            } else {
                reply(to: client, line)
            }
        }
        if let fileProblem, clients.contains(.mqtt), let heldBack = remoteLog.admit(now: now) {
            logger.info("screenshot: \(fileProblem); sent over MQTT from memory" + LogRateLimit.suffix(heldBack))
        }
        if clients.contains(.mqtt), let mqtt, !mqtt.connection.publishBytes(topic: mqtt.topics.screenshot, bytes: png) {
            logger.warning("mqtt: not connected; the screenshot was not sent")
        }
        publishState()
    }

    /// A screenshot failed: every client that asked gets an `error` line.
    package func screenshotFailed(_ reason: String, for clients: [ControlServer.ClientID], now: Double) {
        for client in Set(clients) {
            replyError(ControlServer.Request(client: client, command: .screenshot), "screenshot: \(reason)", now: now)
        }
    }

    /// `2026-11-27T13:45:07Z`: seconds since 1970 as ISO 8601 in UTC.
    package static func iso8601(_ seconds: Double) -> String {
        let parts = CalendarTime.utc(seconds)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(parts.year)-\(two(parts.month))-\(two(parts.day))T"
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))Z"
    }
}
