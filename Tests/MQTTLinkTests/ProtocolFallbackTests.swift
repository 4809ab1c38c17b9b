import Glibc
import LinuxSystem
import Testing
@testable import MQTTLink
import KioskTestSupport

/// A broker that does not take MQTT 5 (mosquitto 2.0 here takes it, so a stand-in on loopback
/// plays an older one): it answers a CONNECT of protocol level 5 with 3.1.1's "unacceptable
/// protocol version" and accepts level 4. The connection speaks 3.1.1 to it at once and stays.
@Suite struct ProtocolFallbackTests {
    /// The stand-in broker: one connection at a time; the protocol levels of the CONNECTs it got.
    final class OldBroker {
        let listener: Int32
        let port: Int
        var peer: Int32 = -1
        var levels: [UInt8] = []
        private var buffer: [UInt8] = []

        init() {
            (listener, port) = TestBroker.boundLoopbackSocket()
            listen(listener, 4)
            _ = fcntl(listener, F_SETFL, O_NONBLOCK)
        }

        deinit {
            if peer >= 0 { close(peer) }
            close(listener)
        }

        /// Accepts, reads a CONNECT when one is whole, and answers it.
        func serve() {
            if peer < 0 {
                peer = accept(listener, nil, nil)
                if peer >= 0 { _ = fcntl(peer, F_SETFL, O_NONBLOCK); buffer = [] }
                return
            }
            var chunk = [UInt8](repeating: 0, count: 512)
            let n = read(peer, &chunk, chunk.count)
            if n == 0 { close(peer); peer = -1; return }
            guard n > 0 else { return }
            buffer += chunk[0..<n]
            // CONNECT: 0x10, a one-byte remaining length here, then 00 04 "MQTT" and the level.
            guard buffer.count >= 9, buffer[0] == 0x10 else { return }
            let level = buffer[8]
            levels.append(level)
            buffer = []
            let connack: [UInt8] = level == 5 ? [0x20, 0x02, 0x00, 0x01] : [0x20, 0x02, 0x00, 0x00]
            _ = connack.withUnsafeBytes { write(peer, $0.baseAddress, $0.count) }
            if level == 5 { close(peer); peer = -1 }
        }
    }

    @Test func aBrokerThatRefusesMQTT5IsSpokenToIn311() throws {
        #expect(MosquittoClient.speaksV5, "Debian 12's libmosquitto has MQTT 5")
        let broker = OldBroker()
        var lines: [String] = []
        let endpoint = MQTTEndpoint(host: "127.0.0.1", port: broker.port, clientID: "fallback-test", keepalive: 60,
                                    username: nil, password: nil, tls: nil, availabilityTopic: "fallback/availability")
        let connection = MQTTConnection(endpoint: endpoint, eventTopic: "fallback/event", now: 0) { _, line in lines.append(line) }
        defer { connection.stop() }
        let end = monotonicNow() + 5
        var now = 0.0
        while monotonicNow() < end, !connection.isConnected {
            var fds = connection.pollDescriptor.map { [$0] } ?? []
            if !fds.isEmpty { _ = poll(&fds, 1, 5) } else { usleep(2_000) }
            _ = connection.serve(revents: fds.first?.revents ?? 0, now: now)
            broker.serve()
            now += 0.001
        }
        #expect(connection.isConnected, "\(lines)")
        #expect(broker.levels == [5, 4], "\(broker.levels)")
        #expect(connection.speaking == .v311 && connection.protocolWanted == .v311)
        #expect(lines.contains { $0.contains("does not take MQTT 5") && $0.contains("speaking MQTT 3.1.1") }, "\(lines)")
        // No failure was said, and no backoff waited: the second attempt went at once.
        #expect(!lines.contains { $0.contains("cannot connect") || $0.contains("refused") }, "\(lines)")
        #expect(now < 1, "\(now) s of the connection's clock")
    }
}
