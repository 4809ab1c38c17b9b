import DialCore
import KioskSeams
import KioskVocabulary
import LinuxSystem
import MQTTLink
import KioskReporting
import KioskConfiguration
import KioskLoop
import FleetConfig

/// The kiosk on an MQTT broker (the `mqtt:` section): event lines out on `<base>/event`, the
/// retained `<base>/state`, `<base>/availability` (last will `offline`), `<base>/metrics` every
/// 60 s, Home Assistant discovery, and `<base>/set/<command>` in. Commands become the control
/// socket's `ControlCommand`s and run through the same `FrameLoop.perform`, at most
/// `commandsPerTurn` per loop turn (the socket's `linesPerTurn`) with reloads coalesced.
package final class MQTTBridge {
    /// Commands waiting for the loop, at most; more in one burst are refused and counted.
    package static let inboxCapacity = 256
    /// Commands run per loop turn (as the control socket takes at most 8 lines per client).
    package static let commandsPerTurn = ControlServer.linesPerTurn
    package static let metricsInterval = 60.0

    package let topics: MQTTTopics
    package let connection: MQTTConnection
    package let discoveryPrefix: String?
    private let logger: JournalLogger
    private var inbox: [ControlServer.Request] = []
    /// Configuration bundles waiting for the loop, at most two (one per turn).
    private var bundles: [ControlCommand] = []
    private var nextMetrics: Double
    private let started: Double
    /// Commands run and refused since start (the flood test and the metrics count them).
    package private(set) var commandsTaken = 0
    package private(set) var commandsRefused = 0
    private var refusalLog = LogRateLimit(interval: 10)
    /// Flips and input latency from the loop (RunSession sets it).
    package var loopFigures: (() -> (flips: Int, latency: LatencyStats.Summary?))?
    /// Live items' bound topics and their last messages; `set/item` requests (MQTTLiveRoutes.swift).
    package var live = MQTTLiveRoutes()
    var liveCommands: [ControlServer.Request] = []
    /// Value reports held back inside a commit's guard (the service counts them).
    package var guardedReports: (() -> Int)?

    /// - Parameters:
    ///   - password: already read (`MQTTBridge.password`), nil for none.
    package init(settings: MQTTSettings, password: String?, machineID: String?, logger: JournalLogger, now: Double) {
        let clientID = MQTTSettings.clientID(configured: settings.clientID, machineID: machineID)
        topics = MQTTTopics(base: settings.baseTopic ?? "dialkiosk/\(clientID)", clientID: clientID,
                            supportURL: settings.supportURL)
        discoveryPrefix = settings.discoveryPrefix
        self.logger = logger
        started = now
        nextMetrics = now + Self.metricsInterval
        let endpoint = MQTTEndpoint(host: settings.host, port: settings.port, clientID: clientID,
                                    keepalive: settings.keepalive, username: settings.username, password: password,
                                    tls: settings.tls.map { ($0.caFile, $0.certFile, $0.keyFile) },
                                    availabilityTopic: topics.availability)
        connection = MQTTConnection(endpoint: endpoint, eventTopic: topics.event, now: now) { [logger] level, text in
            switch level {
            case .info: logger.info(text)
            case .warning: logger.warning(text)
            case .error: logger.error(text)
            }
        }
        resubscribe()
        logger.info("mqtt: broker \(settings.host):\(settings.port)\(settings.tls == nil ? "" : " (TLS)"), client id \(clientID), topics \(topics.base)/...")
    }

    /// A password that could not be read at start: the connection waits, and every reload
    /// reads it again (`retryPassword`).
    private var pendingPassword: (settings: MQTTSettings, environment: [String: String])?
    private var passwordLog = LogRateLimit(interval: 10)

    /// The connection waits for a password that could not be read (`why`).
    package func holdForPassword(_ settings: MQTTSettings, environment: [String: String], why: Error) {
        pendingPassword = (settings, environment)
        connection.hold()
        logger.error("mqtt: not connecting: \(why); a reload reads it again")
    }

    /// At a reload: the password that could not be read, read again; connects when it can.
    package func retryPassword(now: Double) {
        guard let pending = pendingPassword else { return }
        do {
            let password = try Self.password(pending.settings, environment: pending.environment)
            pendingPassword = nil
            connection.resume(password: password, now: now)
            logger.info("mqtt: the password was read; connecting")
        } catch {
            if let heldBack = passwordLog.admit(now: now) {
                logger.error("mqtt: still not connecting: \(error)" + LogRateLimit.suffix(heldBack))
            }
        }
    }

    /// The password `settings` names, read now: from `password_file`, or from the credential
    /// systemd placed in `$CREDENTIALS_DIRECTORY`. Trailing newlines are not part of it.
    package static func password(_ settings: MQTTSettings, environment: [String: String]) throws -> String? {
        let path: String
        switch settings.password {
        case nil: return nil
        case .file(let file): path = file
        case .credential(let name):
            guard let directory = environment["CREDENTIALS_DIRECTORY"] else {
                throw MQTTCommandError("cannot read MQTT credential '\(name)': $CREDENTIALS_DIRECTORY is not set "
                                       + "(the unit needs LoadCredential=\(name):PATH)")
            }
            path = directory + "/" + name
        }
        let file: FileDescriptor
        do { file = try RegularFile.open(path) } catch {
            throw MQTTCommandError("cannot read the MQTT password from \(path): \(error)")
        }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n: Int
        switch bytes.withUnsafeMutableBytes({ file.read(into: $0) }) {
        case .success(let count): n = count
        case .failure(let failure): throw MQTTCommandError("cannot read the MQTT password from \(path): \(failure)")
        }
        var password = Substring(String(decoding: bytes[0..<n], as: UTF8.self))
        while password.last == "\n" || password.last == "\r" { password = password.dropLast() }
        return String(password)
    }

    /// /etc/machine-id's first line, or nil (a container without one).
    package static func machineID(path: String = "/etc/machine-id") -> String? {
        guard let file = try? RegularFile.open(path) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 64)
        guard let n = try? bytes.withUnsafeMutableBytes({ file.read(into: $0) }).get(), n > 0 else { return nil }
        return String(decoding: bytes[0..<n], as: UTF8.self).split(separator: "\n").first.map(String.init)
    }

    // MARK: out

    package func publishEvent(_ line: EventLine) { connection.publishEvent(line.text) }

    package func publishState(_ state: EventLine) { connection.publishRetained(topic: topics.state, payload: state.text) }

    package func publishRetained(topic: String, payload: String) { connection.publishRetained(topic: topic, payload: payload) }

    /// What discovery has announced, by part (`announce`).
    package private(set) var discovery = DiscoveryRecord()

    /// Home Assistant discovery of `part`: every config it wants now, retained, and an empty
    /// retained config for each entity it announced before and no longer does (a reload or a
    /// pushed configuration that removed an item, a language or the remote view), so Home
    /// Assistant removes the entity instead of keeping it stale.
    package func announce(_ part: DiscoveryRecord.Part, _ configs: [(topic: String, payload: EventLine)]) {
        for (topic, payload) in configs { publishRetained(topic: topic, payload: payload.text) }
        for topic in discovery.announce(part, topics: configs.map(\.topic)) { publishRetained(topic: topic, payload: "") }
    }

    // MARK: the loop's turn

    package var pollDescriptors: [PollDescriptor] { connection.pollDescriptor.map { [$0] } ?? [] }

    package func wakeUp(now: Double) -> Double? {
        var times = [nextMetrics]
        if let t = connection.wakeUp(now: now) { times.append(t) }
        if !inbox.isEmpty || !bundles.isEmpty || !blobs.isEmpty { times.append(now) }
        return times.min()
    }

    /// The socket's news, the metrics when due, and this turn's share of the commands.
    package func serve(_ polled: [PollDescriptor], now: Double) -> [ControlServer.Request] {
        let revents = polled.first?.revents ?? 0
        for message in connection.serve(revents: revents, now: now) { receive(message, now: now) }
        if now >= nextMetrics {
            nextMetrics = now + Self.metricsInterval
            connection.publishNow(topic: topics.metrics, payload: metrics(now: now).text)
        }
        let turn = Array(inbox.prefix(Self.commandsPerTurn))
        inbox.removeFirst(turn.count)
        commandsTaken += turn.count
        let bundle = bundles.isEmpty ? [] : [ControlServer.Request(client: .mqtt, command: bundles.removeFirst())]
        // One blob a turn: hashing one at its bound takes tens of milliseconds.
        var blob: [ControlServer.Request] = []
        if !blobs.isEmpty {
            let next = blobs.removeFirst()
            if case .configBlob(_, let payload?, _) = next { blobBytes -= payload.count }
            blob = [ControlServer.Request(client: .mqtt, command: next)]
        }
        return ControlServer.coalescingReloads(turn) + bundle + blob + takeLiveRequests(now: now)
    }

    /// Whether configuration bundles are taken (the local file has a `fleet:` section).
    package private(set) var takesBundles = false
    /// The fleet topic of retained bundles for many kiosks (`fleet.topic`).
    package private(set) var fleetTopic: String?

    /// Takes bundles on `<base>/set/config` and on `topic`; before the connection starts.
    package func enableFleet(topic: String?) {
        takesBundles = true
        fleetTopic = topic
        resubscribe()
        // Bundles are configurations: their topics take up to a bundle's bound, every other
        // topic keeps the commands' small one.
        setPayloadLimits()
    }

    /// The icon blobs a taken bundle waits for: `<topic>/blob/<sha256>` on the fleet topic and
    /// on `<base>/set/config`, each by its topic (none: the fetch is over).
    private(set) var blobTopics: [String: String] = [:]
    /// Blobs waiting for the loop (their topics are only the ones asked for), at most
    /// `blobQueueBytes` together: more in one burst are dropped, and the bundle is refused when
    /// its wait ends.
    private var blobs: [ControlCommand] = []
    private var blobBytes = 0
    package static let blobQueueBytes = 32 << 20

    /// Subscribes to the blobs `sha256s` (hex) from now on; an empty list ends the fetch.
    package func wantBlobs(_ sha256s: [String]) {
        blobTopics = [:]
        for base in [fleetTopic, topics.setPrefix + "config"].compactMap({ $0 }) {
            for hex in sha256s { blobTopics[base + "/blob/" + hex] = hex }
        }
        if sha256s.isEmpty { (blobs, blobBytes) = ([], 0) }
        resubscribe()
        setPayloadLimits()
    }

    /// Whether `topic` is a blob's under the fleet topic or `<base>/set/config`.
    private func isBlobTopic(_ topic: String) -> Bool {
        [fleetTopic, topics.setPrefix + "config"].contains { base in base.map { topic.hasPrefix($0 + "/blob/") } ?? false }
    }

    /// Bundles and blobs are configurations: their topics take up to their own bound, every
    /// other topic keeps the commands' small one.
    private func setPayloadLimits() {
        var limits = [topics.setPrefix + "config": ConfigBundle.maxBytes + 1]
        if let fleetTopic { limits[fleetTopic] = ConfigBundle.maxBytes + 1 }
        for topic in blobTopics.keys { limits[topic] = ConfigBundle.maxBlobBytes + 1 }
        connection.payloadLimits = limits
    }

    /// The one list of topics the kiosk subscribes to (on every connect from now): commands,
    /// live items' `set` and bound topics, and the fleet topic. Each part changes on its own
    /// (`bindLive` at a reload, `enableFleet` at start); none may drop the others'.
    func resubscribe() {
        connection.subscribe(ControlVocabulary.subscriptions.map { topics.setPrefix + $0 }
                             + live.topics + (fleetTopic.map { [$0] } ?? []) + blobTopics.keys.sorted())
    }

    private func receive(_ message: MQTTMessage, now: Double) {
        if let hex = blobTopics[message.topic] {
            if message.payload.isEmpty && message.retained && !message.isOversized { return }  // a retained blob cleared
            // A flood: dropped, and the wait's end refuses the bundle.
            guard blobs.count < 2 * blobTopics.count, blobBytes + message.payload.count <= Self.blobQueueBytes else { return }
            blobs.append(.configBlob(sha256: hex, payload: message.isOversized ? nil : message.payload, length: message.payloadLength))
            blobBytes += message.payload.count
            return
        }
        // A blob topic of an earlier fetch (the broker still sends what it was once asked for).
        if isBlobTopic(message.topic) { return }
        // Signed configurations: retained ones too (a configuration is not a command); the
        // service bounds and checks them.
        if message.topic == fleetTopic || message.topic == topics.setPrefix + "config" {
            if message.payload.isEmpty && message.retained && !message.isOversized { return }  // a retained bundle cleared
            guard takesBundles else { return refuse("mqtt: \(message.topic): no fleet: section; bundle ignored", now: now) }
            // One over the bound was never copied: the fleet refuses it by its size, as the
            // other refusals go (config/state and a config line).
            bundles.append(message.isOversized ? .oversizedBundle(bytes: message.payloadLength) : .configBundle(message.payload))
            if bundles.count > 2 { bundles.removeFirst() }  // the newest win; older ones would be replays
            return
        }
        if takeLive(message, now: now) { return }
        guard message.topic.hasPrefix(topics.setPrefix) else { return }
        let name = String(message.topic.dropFirst(topics.setPrefix.count)).logExcerpt(64)
        // Cheap checks before any decoding: a retained command would run again at every
        // connect; an oversized payload was never copied.
        guard !message.retained else {
            refuse("mqtt: set/\(name): a retained command is not run (it would repeat at every connect)", now: now)
            return
        }
        guard !message.isOversized else {
            refuse("mqtt: set/\(name): a payload of \(message.payloadLength) bytes is over the "
                   + "\(MQTTMessage.payloadLimit)-byte limit; nothing changed", now: now)
            return
        }
        switch MQTTCommand.parse(name: name, payload: message.text) {
        case .failure(let reason):
            refuse("mqtt: set/\(name): \(reason); nothing changed", now: now)
        case .success(let command):
            guard inbox.count < Self.inboxCapacity else {
                refuse("mqtt: set/\(name): \(Self.inboxCapacity) commands already wait; refused", now: now)
                return
            }
            inbox.append(ControlServer.Request(client: .mqtt, command: command))
        }
    }

    /// Every refusal is counted; the journal gets one line per 10 s with the count held back.
    func refuse(_ line: String, now: Double) {
        commandsRefused += 1
        if let heldBack = refusalLog.admit(now: now) { logger.warning(line + LogRateLimit.suffix(heldBack)) }
    }

    /// `<base>/metrics`: flips, input latency p50/p95 (with `--stats`), resident memory,
    /// uptime, dropped event lines.
    package func metrics(now: Double) -> EventLine {
        let figures = loopFigures?()
        func ms(_ v: Double?) -> EventLine.Value { v.map { .number(($0 * 1e6).rounded() / 1e3) } ?? .null }
        return EventLine([
            ("flips", figures.map { .int($0.flips) } ?? .null),
            ("latency_p50_ms", ms(figures?.latency?.p50)), ("latency_p95_ms", ms(figures?.latency?.p95)),
            ("resident_kb", .int(residentKilobytes())),
            ("uptime_s", .number((now - started).rounded())),
            ("dropped_lines", .int(connection.backlog.droppedTotal)),
            ("commands_run", .int(commandsTaken)), ("commands_refused", .int(commandsRefused)),
            ("guarded_reports", .int(guardedReports?() ?? 0)),
        ])
    }

    /// `offline`, DISCONNECT, the handle closed; safe twice.
    package func stop() {
        if commandsTaken + commandsRefused > 0 {
            logger.info("mqtt: commands: \(commandsTaken) run, \(commandsRefused) refused")
        }
        connection.stop()
    }
}

extension ControlServer.ClientID {
    /// Commands from MQTT: no socket client to answer; refusals go to the journal.
    package static let mqtt = ControlServer.ClientID(fd: -1)
}

/// The kiosk's topics under its base.
package struct MQTTTopics: Equatable {
    package let base: String
    package let clientID: String
    /// `mqtt.support_url`, sent in discovery's `origin` with the topics every config names.
    package let supportURL: String?
    package var event: String { base + "/event" }
    package var state: String { base + "/state" }
    package var availability: String { base + "/availability" }
    package var metrics: String { base + "/metrics" }
    /// A screenshot's PNG bytes, not retained (`set/screenshot` asks for one).
    package var screenshot: String { base + "/screenshot" }
    package var setPrefix: String { base + "/set/" }
    /// What the kiosk subscribes to.
    package var commands: String { base + "/set/+" }

    package init(base: String, clientID: String, supportURL: String? = nil) {
        self.base = base
        self.clientID = clientID
        self.supportURL = supportURL
    }
}
