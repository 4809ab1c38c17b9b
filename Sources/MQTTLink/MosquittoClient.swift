import CMosquitto
import Glibc
import LinuxSystem
import Synchronization

/// A message from the broker, copied out of libmosquitto's struct at once, and only when it is
/// small: a payload over `payloadLimit` bytes or a topic over `topicLimit` bytes is never copied
/// nor decoded (`isOversized`, with its true length), so one hostile message costs the loop no
/// more than a small one.
package struct MQTTMessage: Sendable, Equatable {
    /// Payload bytes copied at most; every command the kiosk takes fits in far less.
    package static let payloadLimit = 4096
    /// Topic bytes copied at most.
    package static let topicLimit = 1024

    package var topic: String
    package var payload: [UInt8]
    package var retained: Bool
    /// The payload's length as the broker sent it (larger than `payload.count` when oversized).
    package var payloadLength: Int
    /// The payload or the topic was over its limit: neither is kept.
    package var isOversized: Bool

    package init(topic: String, payload: [UInt8], retained: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.retained = retained
        payloadLength = payload.count
        isOversized = false
    }

    /// A message whose payload (of `payloadLength` bytes) or topic was over its limit.
    package static func oversized(topic: String, payloadLength: Int, retained: Bool) -> MQTTMessage {
        var message = MQTTMessage(topic: topic, payload: [], retained: retained)
        message.payloadLength = payloadLength
        message.isOversized = true
        return message
    }

    /// The payload as text (MQTT payloads are bytes; ours are UTF-8).
    package var text: String { String(decoding: payload, as: UTF8.self) }
}

/// The protocol a client speaks.
package enum MQTTProtocol: String, Sendable, Equatable {
    case v311 = "3.1.1"
    case v5 = "5"
}

/// What libmosquitto's callbacks reported, in order, as plain values.
package enum MosquittoEvent: Sendable, Equatable {
    /// CONNACK: `code` 0 is accepted; otherwise the broker's refusal (`reason` in words).
    case connected(code: Int32, reason: String)
    /// The connection ended; `code` 0 means we asked for it.
    case disconnected(code: Int32)
    /// MQTT 5: the broker ended the session with a DISCONNECT and a reason code (0x80 and up:
    /// 0x8E is "session taken over", another client connected with this client id).
    case endedByBroker(reason: Int32, words: String)
    case message(MQTTMessage)
    /// A QoS 1 publish was acknowledged (PUBACK); QoS 0 ones report when written.
    case published(mid: Int32)
}

/// One libmosquitto client handle (mosquitto_new ... mosquitto_destroy), driven by the caller's
/// poll: no thread of libmosquitto's, no call here waits on the network. `connectAsync` starts
/// a non-blocking connect; the caller polls `socket` (POLLOUT only while `wantsWrite`) and calls
/// `loopRead`, `loopWrite` and `loopMisc`; callbacks run inside those calls, on the caller's
/// thread, and are queued in `events` for the caller to take.
package final class MosquittoClient {
    private var handle: OpaquePointer?
    /// Callback results since the last `takeEvents`.
    private var events: [MosquittoEvent] = []

    /// libmosquitto, opened (dlopen) by the first client rather than linked: a kiosk without
    /// MQTT never maps it nor OpenSSL; then its global setup, once per process (it
    /// initialises OpenSSL). A failed load is not kept: the next client (the next connection
    /// attempt, with its backoff) tries again, so a library installed later is picked up.
    private static var library: MosquittoError? {
        loaded.withLock { done -> MosquittoError? in
            if done { return nil }
            if let error = load(DK_MOSQUITTO_SONAME) { return error }
            _ = mosquitto_lib_init()
            done = true
            return nil
        }
    }
    private static let loaded = Mutex(false)

    /// nil once `soname` is loaded, else the error naming it: "Failed to load libmosquitto.so.1:
    /// libmosquitto.so.1: cannot open shared object file: No such file or directory".
    static func load(_ soname: String) -> MosquittoError? {
        SharedLibrary.load(soname, with: dk_mosquitto_load).map {
            // The package recommends libmosquitto1 rather than depending on it: say what is off.
            MosquittoError(MosquittoCall(operation: "load \(soname)",
                                         reason: $0 + " (MQTT is off until it is installed; Debian: libmosquitto1)",
                                         code: Int32(MOSQ_ERR_UNKNOWN.rawValue)),
                           code: ELIBACC)
        }
    }

    /// Whether the loaded libmosquitto speaks MQTT 5 (1.6 and later); false before a load or
    /// when it cannot load.
    package static var speaksV5: Bool { library == nil && dk_mosquitto_has_v5() != 0 }

    /// The protocol this client speaks.
    package let speaking: MQTTProtocol

    /// mosquitto_new with a clean session: `clientID` is the MQTT client identifier; `protocol`
    /// `.v5` when the library has it (`speaksV5`), else 3.1.1. The first client loads libmosquitto.
    package init(clientID: String, protocol wanted: MQTTProtocol = .v311) throws(MosquittoError) {
        if let error = Self.library { throw error }
        let handle = mosquitto_new(clientID, true, nil)
        guard let handle else { throw MosquittoError("create MQTT client '\(clientID)'", result: Int32(MOSQ_ERR_ERRNO.rawValue)) }
        self.handle = handle
        speaking = wanted == .v5 && Self.speaksV5 ? .v5 : .v311
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        if speaking == .v5 {
            // Before the connect: CONNECT then says protocol level 5.
            let set = mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5)
            if set != Int32(MOSQ_ERR_SUCCESS.rawValue) {
                mosquitto_destroy(handle)
                self.handle = nil
                throw MosquittoError("speak MQTT 5 as '\(clientID)'", result: set)
            }
            // The v5 callbacks instead of the 3.1.1 ones (libmosquitto calls both when both are
            // set): their codes are MQTT 5 reason codes.
            mosquitto_connect_v5_callback_set(handle) { _, owner, code, _, _ in
                let reason = String(cString: mosquitto_reason_string(code))
                MosquittoClient.owner(owner)?.events.append(.connected(code: code, reason: reason))
            }
            mosquitto_disconnect_v5_callback_set(handle) { _, owner, code, _ in
                // Below 0x80 it is libmosquitto's own error (the socket closed, or our DISCONNECT).
                let event: MosquittoEvent = code >= 0x80
                    ? .endedByBroker(reason: code, words: String(cString: mosquitto_reason_string(code)))
                    : .disconnected(code: code)
                MosquittoClient.owner(owner)?.events.append(event)
            }
        } else {
            mosquitto_connect_callback_set(handle) { _, owner, code in
                let reason = String(cString: mosquitto_connack_string(code))
                MosquittoClient.owner(owner)?.events.append(.connected(code: code, reason: reason))
            }
            mosquitto_disconnect_callback_set(handle) { _, owner, code in
                MosquittoClient.owner(owner)?.events.append(.disconnected(code: code))
            }
        }
        mosquitto_publish_callback_set(handle) { _, owner, mid in
            MosquittoClient.owner(owner)?.events.append(.published(mid: mid))
        }
        mosquitto_message_callback_set(handle) { _, owner, message in
            guard let message, let client = MosquittoClient.owner(owner) else { return }
            let m = message.pointee
            // Lengths first: nothing over its bound is copied or decoded.
            let length = Int(max(0, m.payloadlen))
            let topicLength = m.topic.map { strnlen($0, MQTTMessage.topicLimit + 1) } ?? 0
            guard topicLength <= MQTTMessage.topicLimit else {
                client.events.append(.message(.oversized(topic: "", payloadLength: length, retained: m.retain)))
                return
            }
            let topic = m.topic.map { String(cString: $0) } ?? ""
            guard length <= client.payloadLimits[topic] ?? MQTTMessage.payloadLimit else {
                client.events.append(.message(.oversized(topic: topic, payloadLength: length, retained: m.retain)))
                return
            }
            let bytes = length > 0 && m.payload != nil ? Array(UnsafeRawBufferPointer(start: m.payload, count: length)) : []
            client.events.append(.message(MQTTMessage(topic: topic, payload: bytes, retained: m.retain)))
        }
    }

    /// Topics that may carry more than `MQTTMessage.payloadLimit` (signed configurations), each
    /// with its own bound; every other topic keeps the small one.
    package var payloadLimits: [String: Int] = [:]

    deinit { close() }

    private static func owner(_ pointer: UnsafeMutableRawPointer?) -> MosquittoClient? {
        pointer.map { Unmanaged<MosquittoClient>.fromOpaque($0).takeUnretainedValue() }
    }

    private func live(_ operation: String) throws(MosquittoError) -> OpaquePointer {
        guard let handle else { throw MosquittoError(operation, result: Int32(MOSQ_ERR_INVAL.rawValue)) }
        return handle
    }

    /// What the callbacks reported since the last call, oldest first.
    package func takeEvents() -> [MosquittoEvent] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    /// mosquitto_will_set: what the broker publishes if we vanish without DISCONNECT.
    package func setWill(topic: String, payload: String, qos: Int32, retain: Bool) throws(MosquittoError) {
        let h = try live("set the last will on \(topic)")
        let bytes = Array(payload.utf8)
        try MosquittoError.check("set the last will on \(topic)", mosquitto_will_set(h, topic, Int32(bytes.count), bytes, qos, retain))
    }

    /// mosquitto_username_pw_set.
    package func setCredentials(username: String, password: String?) throws(MosquittoError) {
        let h = try live("set the MQTT user name")
        try MosquittoError.check("set the MQTT user name '\(username)'", mosquitto_username_pw_set(h, username, password))
    }

    /// mosquitto_tls_set: verify the broker against `caFile`; `certFile`/`keyFile` for a client
    /// certificate (unencrypted key). The broker's name is checked against its certificate.
    package func setTLS(caFile: String, certFile: String?, keyFile: String?) throws(MosquittoError) {
        let h = try live("set up TLS")
        try MosquittoError.check("set up TLS with CA file \(caFile)", mosquitto_tls_set(h, caFile, nil, certFile, keyFile, nil))
    }

    /// mosquitto_connect_async: resolves `host` (use an address or a name /etc/hosts answers:
    /// getaddrinfo may wait on DNS) and starts a non-blocking connect; CONNECT goes out when the
    /// socket becomes writable.
    package func connectAsync(host: String, port: Int, keepalive: Int) throws(MosquittoError) {
        let h = try live("connect to broker \(host):\(port)")
        try MosquittoError.check("connect to broker \(host):\(port)", mosquitto_connect_async(h, host, Int32(port), Int32(keepalive)))
    }

    /// mosquitto_socket: the connection's descriptor, or nil when there is none.
    package var socket: Int32? {
        guard let handle else { return nil }
        let fd = mosquitto_socket(handle)
        return fd >= 0 ? fd : nil
    }

    /// mosquitto_want_write: bytes wait to go out (or TLS needs to write).
    package var wantsWrite: Bool { handle.map { mosquitto_want_write($0) } ?? false }

    /// mosquitto_loop_read: reads what the socket holds, at most `maxPackets` packets.
    package func loopRead(maxPackets: Int32) throws(MosquittoError) {
        try MosquittoError.check("read from the MQTT broker", mosquitto_loop_read(try live("read from the MQTT broker"), maxPackets))
    }

    /// mosquitto_loop_write: writes what waits, as far as the socket takes it.
    package func loopWrite() throws(MosquittoError) {
        try MosquittoError.check("write to the MQTT broker", mosquitto_loop_write(try live("write to the MQTT broker"), 1))
    }

    /// mosquitto_loop_misc: keepalive PINGREQ and the PINGRESP timeout.
    package func loopMisc() throws(MosquittoError) {
        try MosquittoError.check("keep the MQTT connection alive", mosquitto_loop_misc(try live("keep the MQTT connection alive")))
    }

    /// mosquitto_publish; returns the message id (its PUBACK reports it in `events`).
    @discardableResult
    package func publish(topic: String, payload: String, qos: Int32, retain: Bool) throws(MosquittoError) -> Int32 {
        let h = try live("publish on \(topic)")
        var mid: Int32 = 0
        let bytes = Array(payload.utf8)
        try MosquittoError.check("publish on \(topic)", mosquitto_publish(h, &mid, topic, Int32(bytes.count), bytes, qos, retain))
        return mid
    }

    /// mosquitto_publish of raw bytes (a screenshot's PNG); returns the message id.
    @discardableResult
    package func publish(topic: String, bytes: [UInt8], qos: Int32, retain: Bool) throws(MosquittoError) -> Int32 {
        let h = try live("publish on \(topic)")
        var mid: Int32 = 0
        try MosquittoError.check("publish on \(topic)", mosquitto_publish(h, &mid, topic, Int32(bytes.count), bytes, qos, retain))
        return mid
    }

    /// mosquitto_subscribe.
    package func subscribe(_ pattern: String, qos: Int32) throws(MosquittoError) {
        let h = try live("subscribe to \(pattern)")
        try MosquittoError.check("subscribe to \(pattern)", mosquitto_subscribe(h, nil, pattern, qos))
    }

    /// mosquitto_disconnect: DISCONNECT queued (the broker then drops the last will).
    package func disconnect() throws(MosquittoError) {
        try MosquittoError.check("disconnect from the MQTT broker", mosquitto_disconnect(try live("disconnect from the MQTT broker")))
    }

    /// mosquitto_destroy; safe to call twice.
    package func close() {
        guard let handle else { return }
        self.handle = nil
        mosquitto_destroy(handle)
    }
}
