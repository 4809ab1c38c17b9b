import CMosquitto
import Glibc
import LinuxSystem

/// Where and as whom to connect.
package struct MQTTEndpoint: Sendable, Equatable {
    package var host: String
    package var port: Int
    package var clientID: String
    package var keepalive: Int
    package var username: String?
    package var password: String?
    /// CA file, optional client certificate and key; nil: plain TCP.
    package var tls: (caFile: String, certFile: String?, keyFile: String?)?
    /// Where `online`/`offline` go (retained; `offline` is the last will).
    package var availabilityTopic: String

    package init(host: String, port: Int, clientID: String, keepalive: Int, username: String?, password: String?,
                tls: (caFile: String, certFile: String?, keyFile: String?)?, availabilityTopic: String) {
        self.host = host
        self.port = port
        self.clientID = clientID
        self.keepalive = keepalive
        self.username = username
        self.password = password
        self.tls = tls
        self.availabilityTopic = availabilityTopic
    }

    package static func == (a: MQTTEndpoint, b: MQTTEndpoint) -> Bool {
        a.host == b.host && a.port == b.port && a.clientID == b.clientID && a.keepalive == b.keepalive
            && a.username == b.username && a.password == b.password && a.availabilityTopic == b.availabilityTopic
            && a.tls?.caFile == b.tls?.caFile && a.tls?.certFile == b.tls?.certFile && a.tls?.keyFile == b.tls?.keyFile
    }
}

/// The kiosk's one broker connection, driven by the frame loop's poll: never a thread, never a
/// wait. Why not libmosquitto's own thread (mosquitto_loop_start): the loop already polls every
/// descriptor it has, so one more socket costs nothing; a thread would need locks or a queue
/// and a wake-up descriptor back into the loop, and its callbacks would race the dial's state.
/// Here every callback runs inside a call the loop made, in the loop's turn, and a turn's
/// MQTT work is bounded (`readsPerTurn` packets, `inflightLimit` publishes in flight).
///
/// Event lines go through a bounded `EventBacklog` (QoS 1), handed to libmosquitto only while
/// connected and at most `inflightLimit` unacknowledged; libmosquitto resends those after a
/// reconnect. Retained topics are kept and published again on every connect (a restarted
/// broker without persistence has forgotten them).
package final class MQTTConnection {
    /// Why there is no connection, or what it is doing.
    package enum State: Equatable, Sendable {
        /// Waiting until `retryAt` for the next attempt.
        case waiting(retryAt: Double)
        /// TCP (and TLS) connect or CONNACK pending since `since`.
        case connecting(since: Double)
        case connected
        case stopped
    }

    /// Packets read per loop turn at most; the rest wait in the socket.
    package static let readsPerTurn = 32
    /// QoS 1 event lines handed to libmosquitto and not yet acknowledged, at most.
    package static let inflightLimit = 20
    /// A connect (TCP, TLS, CONNACK, or a broker name's lookup) not finished in this time is
    /// given up, unless the connection is given another (`connectTimeout`).
    package static let defaultConnectTimeout = 10.0
    /// This connection's give-up time for a connect.
    package let connectTimeout: Double
    /// How a broker given by name is connected off the loop (tests give a lookup that hangs).
    var lookupConnect: ConnectAttempt.Connect = ConnectAttempt.mosquitto

    package private(set) var endpoint: MQTTEndpoint
    package private(set) var state: State
    package private(set) var backoff = ReconnectBackoff()
    /// How soon the broker ended the last sessions (another client with the same id).
    package private(set) var sessions = SessionWatch()
    /// Another client keeps taking the session (same client id): retries wait the longest
    /// backoff, and the journal said so once.
    package var takenOver: Bool { sessions.takenOver }
    package private(set) var backlog: EventBacklog
    /// The protocol the next client speaks: MQTT 5 while the library has it and the broker has
    /// not refused it, so a broker that ends a session says why (0x8E: taken over); 3.1.1 after
    /// a refusal, for the rest of the run. Set before the first attempt to speak 3.1.1 only
    /// (tests of the 3.1.1 path against a broker that speaks both).
    package var protocolWanted: MQTTProtocol = .v5
    /// The protocol of the last accepted connection (nil before one).
    package private(set) var speaking: MQTTProtocol?
    private var client: MosquittoClient?
    /// A broker given by name: the connect (and its lookup) running on a thread of its own.
    private var lookup: ConnectAttempt?
    /// A lookup given up on (connect timeout): it keeps its handle until it ends, and no other
    /// attempt starts before.
    private var abandoned: ConnectAttempt?
    private var inflight: [Int32: String] = [:]
    /// The latest payload of each retained topic (what the broker must end up holding).
    private var retained: [(topic: String, payload: String)] = []
    /// Retained publishes handed to libmosquitto and not yet acknowledged, by message id: at
    /// most one per topic, so a broker that stalls holds at most one payload per topic in
    /// libmosquitto's queue, however often the state changes (the latest waits here).
    private var retainedInFlight: [Int32: (topic: String, payload: String)] = [:]
    /// Retained publishes in flight (at most one per topic).
    package var retainedUnacknowledged: Int { retainedInFlight.count }
    /// Event lines the broker acknowledged (for tests and metrics).
    package private(set) var acknowledged = 0
    /// Event lines handed to libmosquitto and not yet acknowledged (it resends them after a
    /// reconnect: QoS 1 is at least once).
    package var unacknowledged: Int { inflight.count }
    /// Messages handed to libmosquitto since the start: each is a copy it holds until the
    /// socket takes it, so while a broker stalls this count is what its memory grows by.
    package private(set) var handedOver = 0
    private let eventTopic: String
    private let log: (MQTTLogLevel, String) -> Void
    /// Called after each accepted connection, after `online` and the subscriptions went out.
    package var onConnect: (() -> Void)?
    private var subscriptions: [String] = []
    private var lastMisc = -Double.infinity

    /// Nothing touches the network here; the first attempt is made by the first `serve`.
    package init(endpoint: MQTTEndpoint, eventTopic: String, backlogCapacity: Int = EventBacklog.defaultCapacity,
                connectTimeout: Double = MQTTConnection.defaultConnectTimeout,
                now: Double, log: @escaping (MQTTLogLevel, String) -> Void) {
        self.endpoint = endpoint
        self.connectTimeout = connectTimeout
        self.eventTopic = eventTopic
        self.backlog = EventBacklog(capacity: backlogCapacity)
        self.log = log
        state = .waiting(retryAt: now)
    }

    deinit {
        // A lookup's thread still holds the handle: it goes when that thread lets go of it.
        if lookup == nil { client?.close() }
    }

    package var isConnected: Bool { state == .connected }

    /// Topics to subscribe to (QoS 1) on every connect.
    package func subscribe(_ patterns: [String]) {
        let added = patterns.filter { !subscriptions.contains($0) }
        subscriptions = patterns
        // Connected already (a reload bound new topics): subscribe to the new ones now.
        guard isConnected, let client, !added.isEmpty else { return }
        do {
            for pattern in added { try client.subscribe(pattern, qos: 1) }
            flushWrites()
        } catch {
            log(.warning, "mqtt: \(error)")
        }
    }

    /// Topics whose payloads may be larger than `MQTTMessage.payloadLimit`, with their bound
    /// (kept across reconnects).
    package var payloadLimits: [String: Int] = [:] {
        didSet { client?.payloadLimits = payloadLimits }
    }

    /// The descriptor to poll: POLLIN, and POLLOUT only while libmosquitto has bytes to write.
    /// None while waiting to retry: a socket given up on (connect timeout) may still be open
    /// and would report POLLHUP every turn.
    package var pollDescriptor: pollfd? {
        switch state {
        case .connecting, .connected: break
        case .waiting, .stopped: return nil
        }
        if let lookup { return lookup.pollDescriptor }
        guard let client, let fd = client.socket else { return nil }
        let events = Int16(POLLIN) | (client.wantsWrite ? Int16(POLLOUT) : 0)
        return pollfd(fd: fd, events: events, revents: 0)
    }

    /// When the loop must come back: the next attempt, the connect timeout, the keepalive check.
    package func wakeUp(now: Double) -> Double? {
        switch state {
        case .waiting(let retryAt): return retryAt
        case .connecting(let since): return since + connectTimeout
        case .connected: return lastMisc + Self.miscInterval(endpoint.keepalive)
        case .stopped: return nil
        }
    }

    /// Whether a connect begun at `since` is given up at `now`.
    static func givesUp(since: Double, now: Double, after timeout: Double) -> Bool { now - since >= timeout }

    /// mosquitto_loop_misc's pace: a few times per keepalive, at most once a second.
    static func miscInterval(_ keepalive: Int) -> Double { max(1, Double(keepalive) / 4) }

    /// One loop turn: the attempt when due, the socket's reads and writes (`revents` from
    /// poll, 0 when it was not polled or nothing happened), keepalive, and what the broker sent.
    package func serve(revents: Int16, now: Double) -> [MQTTMessage] {
        switch state {
        case .stopped:
            return []
        case .waiting(let retryAt):
            guard now >= retryAt else { return [] }
            attempt(now: now)
        case .connecting(let since):
            if let lookup, !lookup.isDone, Self.givesUp(since: since, now: now, after: connectTimeout) {
                // The thread keeps the handle until its lookup ends; the next attempt makes a new one.
                abandoned = lookup
                self.lookup = nil
                client = nil
                lost("no answer from DNS for \(endpoint.host) within \(Int(connectTimeout)) s", now: now)
                return []
            }
            if Self.givesUp(since: since, now: now, after: connectTimeout) {
                lost("no answer from \(endpoint.host):\(endpoint.port) within \(Int(connectTimeout)) s", now: now)
                return []
            }
        case .connected:
            if sessions.healthy(at: now) { backoff.connected() }
            if sessions.held(at: now) {
                log(.info, "mqtt: the session as \(endpoint.clientID) has held for \(Int(SessionWatch.shortSession)) s; no other client takes it now")
            }
        }
        var revents = revents
        if let lookup {
            guard let result = lookup.result else { return [] }
            self.lookup = nil
            revents = 0  // they were the pipe's
            if case .failure(let error) = result {
                lost(Self.words(error), now: now)
                return []
            }
        }
        guard let client, client.socket != nil else { return [] }
        var messages: [MQTTMessage] = []
        do {
            if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                for _ in 0..<Self.readsPerTurn {
                    try client.loopRead(maxPackets: 1)
                    let before = messages.count
                    messages += handle(client.takeEvents(), now: now)
                    if messages.count == before || client.socket == nil { break }
                }
            }
            if client.socket != nil, isConnected, now - lastMisc >= Self.miscInterval(endpoint.keepalive) {
                lastMisc = now
                try client.loopMisc()
            }
            pump()
            if client.socket != nil, client.wantsWrite { try client.loopWrite() }
            messages += handle(client.takeEvents(), now: now)
        } catch {
            messages += handle(client.takeEvents(), now: now)
            // Unless an event already ended it (a broker's DISCONNECT, a refused MQTT 5).
            if isConnecting, client.speaking == .v5, Self.failsAnMQTT5Connect(error) {
                // A 3.1.1-only broker answers an MQTT 5 CONNECT with a 3.1.1 CONNACK, which
                // Debian 13's libmosquitto fails to read as MQTT 5's (an error of its own, no
                // CONNACK event; Debian 12's reports the CONNACK), or closes the connection:
                // that too is a broker that does not take MQTT 5.
                fallBack(Self.words(error), now: now)
            } else if state == .connected || isConnecting {
                lost(Self.words(error), now: now)
            }
        }
        return messages
    }

    private var isConnecting: Bool {
        if case .connecting = state { return true }
        return false
    }

    /// An event line, QoS 1 on the event topic, in order; waits in the backlog while the
    /// broker is away.
    package func publishEvent(_ line: String) {
        backlog.append(line)
        if backlog.takeOverflowNotice() {
            log(.warning, "mqtt: \(backlog.capacity) event lines wait for the broker; dropping the oldest from now on")
        }
        guard isConnected else { return }
        pump()
        flushWrites()
    }

    /// A retained topic: published when it changed and none of it is in flight (else its
    /// latest payload goes when the broker acknowledges the one in flight), and again on every
    /// connect.
    package func publishRetained(topic: String, payload: String) {
        if let i = retained.firstIndex(where: { $0.topic == topic }) {
            guard retained[i].payload != payload else { return }
            retained[i].payload = payload
        } else {
            retained.append((topic, payload))
        }
        sendRetained(topic)
        flushWrites()
    }

    /// Hands `topic`'s latest payload to libmosquitto unless one of it is in flight or already sent.
    private func sendRetained(_ topic: String) {
        guard isConnected, let client, let latest = retained.first(where: { $0.topic == topic }),
              !retainedInFlight.values.contains(where: { $0.topic == topic }) else { return }
        do {
            let mid = try client.publish(topic: topic, payload: latest.payload, qos: 1, retain: true)
            handedOver += 1
            retainedInFlight[mid] = latest
        } catch {
            log(.warning, "mqtt: \(error)")
        }
    }

    /// A value dial's commit: QoS 1, not retained (a retained setpoint would be sent again to
    /// every device that connects); dropped with a warning while disconnected.
    package func publishCommand(topic: String, payload: String) {
        guard isConnected else { return log(.warning, "mqtt: not connected; \(topic) = \(payload) was not sent") }
        send(topic: topic, payload: payload, qos: 1, retain: false)
    }

    /// A message that is only worth sending now (metrics): QoS 0, dropped while disconnected.
    package func publishNow(topic: String, payload: String) {
        // Not while earlier bytes still wait to go out: a stalled broker would let them pile up.
        guard client?.wantsWrite == false else { return }
        send(topic: topic, payload: payload, qos: 0, retain: false)
    }

    /// Bytes only worth sending now (a screenshot asked for over MQTT): QoS 0, not retained,
    /// dropped while disconnected; libmosquitto copies them and writes them as the socket takes
    /// them. Returns whether they were queued.
    @discardableResult
    package func publishBytes(topic: String, bytes: [UInt8]) -> Bool {
        guard isConnected, let client else { return false }
        do {
            try client.publish(topic: topic, bytes: bytes, qos: 0, retain: false)
            handedOver += 1
            flushWrites()
            return true
        } catch {
            log(.warning, "mqtt: \(error)")
            return false
        }
    }

    private func send(topic: String, payload: String, qos: Int32, retain: Bool) {
        guard isConnected, let client else { return }
        do {
            try client.publish(topic: topic, payload: payload, qos: qos, retain: retain)
            handedOver += 1
            flushWrites()
        } catch {
            log(.warning, "mqtt: \(error)")
        }
    }

    /// On the way out: `offline` (retained) and DISCONNECT, written as far as the socket takes
    /// them without waiting, then the handle goes. Safe to call twice.
    package func stop() {
        guard state != .stopped else { return }
        if lookup != nil {
            // The handle is the lookup thread's until it ends; it goes with that thread.
            lookup = nil
            client = nil
        }
        if isConnected, let client {
            pump()
            _ = try? client.publish(topic: endpoint.availabilityTopic, payload: "offline", qos: 1, retain: true)
            _ = try? client.disconnect()
            for _ in 0..<8 where client.socket != nil && client.wantsWrite { _ = try? client.loopWrite() }
        }
        client?.close()
        client = nil
        state = .stopped
    }

    /// Makes no attempt until `resume` (the password could not be read). Before the first
    /// attempt only.
    package func hold() {
        guard client == nil, lookup == nil else { return }
        state = .stopped
    }

    /// After `hold`: the password read at last; the first attempt is made at the next turn.
    package func resume(password: String?, now: Double) {
        guard state == .stopped, client == nil else { return }
        endpoint.password = password
        state = .waiting(retryAt: now)
    }

    // MARK: steps

    private func attempt(now: Double) {
        if let abandoned {
            guard abandoned.isDone else {
                return lost("the last lookup of \(endpoint.host) has not ended", now: now)
            }
            self.abandoned = nil
        }
        do {
            let client = try self.client ?? makeClient()
            self.client = client
            if ConnectAttempt.needsLookup(endpoint.host) {
                lookup = try ConnectAttempt.start(client: client, host: endpoint.host, port: endpoint.port,
                                                  keepalive: endpoint.keepalive, connect: lookupConnect)
                state = .connecting(since: now)
                return
            }
            try client.connectAsync(host: endpoint.host, port: endpoint.port, keepalive: endpoint.keepalive)
            state = .connecting(since: now)
        } catch {
            lost(Self.words(error), now: now)
        }
    }

    private func makeClient() throws(MosquittoError) -> MosquittoClient {
        let client = try MosquittoClient(clientID: endpoint.clientID, protocol: protocolWanted)
        client.payloadLimits = payloadLimits
        try client.setWill(topic: endpoint.availabilityTopic, payload: "offline", qos: 1, retain: true)
        if let username = endpoint.username { try client.setCredentials(username: username, password: endpoint.password) }
        if let tls = endpoint.tls { try client.setTLS(caFile: tls.caFile, certFile: tls.certFile, keyFile: tls.keyFile) }
        return client
    }

    private func handle(_ events: [MosquittoEvent], now: Double) -> [MQTTMessage] {
        var messages: [MQTTMessage] = []
        for event in events {
            switch event {
            case .connected(let code, let reason):
                if code == 0 {
                    accepted(now: now)
                } else if client?.speaking == .v5, Self.refusesV5(code) {
                    fallBack(reason, now: now)
                } else {
                    log(.error, "mqtt: \(endpoint.host):\(endpoint.port) refused the connection: \(reason)")
                }
            case .disconnected:
                break  // the failing call that follows says why
            case .endedByBroker(let reason, let words):
                endedByBroker(reason, words, now: now)
            case .message(let message):
                messages.append(message)
            case .published(let mid):
                if inflight.removeValue(forKey: mid) != nil { acknowledged += 1 }
                if let sent = retainedInFlight.removeValue(forKey: mid),
                   retained.contains(where: { $0.topic == sent.topic && $0.payload != sent.payload }) {
                    sendRetained(sent.topic)  // it changed meanwhile: the latest goes now
                }
            }
        }
        return messages
    }

    /// CONNACK codes of a broker that does not take protocol level 5: 3.1.1's "unacceptable
    /// protocol version" (1, what a 3.1.1-only broker answers) and MQTT 5's "unsupported
    /// protocol version" (0x84).
    static func refusesV5(_ code: Int32) -> Bool { code == 1 || code == 0x84 }

    /// A failure of libmosquitto's own after the connection was made and before a CONNACK
    /// (not the system's, not a keepalive): how a broker that does not speak MQTT 5 ends it.
    static func failsAnMQTT5Connect(_ error: Error) -> Bool {
        guard let code = (error as? MosquittoError)?.call.code else { return false }
        return code != Int32(MOSQ_ERR_ERRNO.rawValue) && code != Int32(MOSQ_ERR_KEEPALIVE.rawValue)
            && code != Int32(MOSQ_ERR_NOMEM.rawValue)
    }

    /// The broker refused MQTT 5: a new client speaks 3.1.1, at once (this is no failure of
    /// the broker's).
    private func fallBack(_ reason: String, now: Double) {
        protocolWanted = .v311
        log(.info, "mqtt: \(endpoint.host):\(endpoint.port) does not take MQTT 5 (\(reason)); speaking MQTT 3.1.1 to it")
        client?.close()
        client = nil
        state = .waiting(retryAt: now)
    }

    /// MQTT 5: the broker ended the session with a reason. 0x8E (session taken over) means
    /// another client connected with this client id: said each time (the retries wait the
    /// longest backoff, so at most once a minute), so both kiosks of a cloned image say why.
    private func endedByBroker(_ reason: Int32, _ words: String, now: Double) {
        let code = "0x" + String(reason, radix: 16, uppercase: true)
        guard reason == 0x8E, state == .connected else {
            return lost("the broker ended the session: \(words) (MQTT 5 reason \(code))", now: now)
        }
        sessions.lost(at: now)
        let retryAt = max(backoff.failed(at: now), now + ReconnectBackoff.longest)
        state = .waiting(retryAt: retryAt)
        log(.error, "mqtt: session taken over: another client connected to \(endpoint.host):\(endpoint.port) with the client id "
            + "'\(endpoint.clientID)' (MQTT 5 reason \(code), \(words)); give each kiosk its own mqtt.client_id "
            + "(a cloned image with the same /etc/machine-id?); trying again in \(Int((retryAt - now).rounded())) s")
        if let fd = client?.socket { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func accepted(now: Double) {
        guard let client else { return }
        state = .connected
        speaking = client.speaking
        // The backoff is reset only by a session that lasts (`lost`): one the broker ends at
        // once, again and again, must not be retried every second.
        sessions.accepted(at: now)
        lastMisc = now
        if !takenOver {
            log(.info, "mqtt: connected to \(endpoint.host):\(endpoint.port) as \(endpoint.clientID) (MQTT \(client.speaking.rawValue))")
        }
        let dropped = backlog.takeDroppedSinceReport()
        if dropped > 0 {
            log(.warning, "mqtt: dropped \(dropped) event lines while the broker was away (the queue holds \(backlog.capacity))")
        }
        do {
            try client.publish(topic: endpoint.availabilityTopic, payload: "online", qos: 1, retain: true)
            for pattern in subscriptions { try client.subscribe(pattern, qos: 1) }
            // A new session: what was in flight is sent again by libmosquitto or lost with the
            // old one; every topic's latest goes now.
            retainedInFlight = [:]
            for (topic, _) in retained { sendRetained(topic) }
        } catch {
            log(.warning, "mqtt: \(error)")
        }
        onConnect?()
        pump()
    }

    /// Hands waiting event lines to libmosquitto while fewer than `inflightLimit` await PUBACK.
    private func pump() {
        guard isConnected, let client else { return }
        while inflight.count < Self.inflightLimit, let line = backlog.first {
            do {
                let mid = try client.publish(topic: eventTopic, payload: line, qos: 1, retain: false)
                handedOver += 1
                inflight[mid] = line
                backlog.removeFirst()
            } catch {
                log(.warning, "mqtt: \(error)")
                return
            }
        }
    }

    private func flushWrites() {
        guard let client, client.socket != nil, client.wantsWrite else { return }
        do { try client.loopWrite() } catch { /* the next turn's read reports the lost connection */ }
    }

    private func lost(_ why: String, now: Double) {
        let was = state
        var retryAt: Double
        if was == .connected {
            let wasTakenOver = takenOver
            if !sessions.lost(at: now) { backoff.connected() }
            retryAt = backoff.failed(at: now)
            if takenOver {
                retryAt = max(retryAt, now + ReconnectBackoff.longest)
                if !wasTakenOver {
                    log(.error, "mqtt: \(endpoint.host):\(endpoint.port) ended \(sessions.shortInARow) sessions in a row within "
                        + "\(Int(SessionWatch.shortSession)) s of accepting them: another client is probably connected with "
                        + "the client id '\(endpoint.clientID)' (a cloned image with the same /etc/machine-id?); give each kiosk "
                        + "its own mqtt.client_id. Retrying every \(Int(ReconnectBackoff.longest)) s, quietly")
                }
                state = .waiting(retryAt: retryAt)
                if let fd = client?.socket { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
                return
            }
        } else {
            retryAt = backoff.failed(at: now)
        }
        state = .waiting(retryAt: retryAt)
        let delay = Int((retryAt - now).rounded())
        switch was {
        case .connected: log(.warning, "mqtt: lost the connection to \(endpoint.host):\(endpoint.port): \(why); reconnecting in \(delay) s")
        default: log(.warning, "mqtt: cannot connect to \(endpoint.host):\(endpoint.port): \(why); trying again in \(delay) s")
        }
        // Lines in flight stay with libmosquitto, which sends them again after the reconnect.
        if let fd = client?.socket { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// The failure in words a person can act on.
    static func words(_ error: Error) -> String {
        guard let error = error as? MosquittoError else { return "\(error)" }
        var text = error.description
        if text.hasPrefix("Failed to ") { text = String(text.dropFirst("Failed to ".count)) }
        if error.call.code == Int32(MOSQ_ERR_TLS.rawValue) || error.call.code == Int32(MOSQ_ERR_TLS_HANDSHAKE.rawValue) {
            text += " (TLS: check mqtt.tls.ca_file, the broker's certificate name and that the port speaks TLS)"
        }
        // The shipped unit allows no network: name the drop-in that opens the broker's address.
        if error.call.code == Int32(MOSQ_ERR_ERRNO.rawValue), let hint = SandboxRefusal.hint(errno: error.code, dropIn: "mqtt.conf") {
            text += " (\(hint))"
        }
        return text
    }
}

/// How loud a connection message is (the kiosk maps it onto its journal priorities).
package enum MQTTLogLevel: Sendable {
    case info, warning, error
}
