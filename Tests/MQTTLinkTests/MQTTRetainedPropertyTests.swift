import Glibc
import LinuxSystem
import MQTTLink
import Testing
import KioskTestSupport

/// A property of the retained topics over random bursts of changes and random broker stalls
/// (SIGSTOP on a real mosquitto): at no time is more than one publish per topic in flight, and
/// once the broker goes on it holds every topic's latest payload.
@Suite(.serialized) struct MQTTRetainedPropertyTests {
    /// xorshift64*: the same seed, the same run.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return Int((state &* 2_685_821_657_736_338_717) >> 33) % bound
        }
    }

    @Test(arguments: [UInt64(1), 7, 2026])
    func atMostOneInFlightPerTopicAndTheLatestWins(seed: UInt64) throws {
        let broker = try TestBroker()
        defer { kill(broker.pid, SIGCONT) }
        let endpoint = MQTTEndpoint(host: "127.0.0.1", port: broker.port, clientID: "property-\(seed)", keepalive: 60,
                                    username: TestBroker.user, password: TestBroker.password, tls: nil,
                                    availabilityTopic: "property/availability")
        let connection = MQTTConnection(endpoint: endpoint, eventTopic: "property/event", now: monotonicNow()) { _, _ in }
        defer { connection.stop() }
        let topics = ["property/state", "property/config/a", "property/config/b"]
        var latest: [String: String] = [:]
        var worst = 0
        func pump(_ seconds: Double) {
            let end = monotonicNow() + seconds
            repeat {
                var fds = connection.pollDescriptor.map { [$0] } ?? []
                if fds.isEmpty { usleep(2_000) } else { _ = poll(&fds, 1, 2) }
                _ = connection.serve(revents: fds.first?.revents ?? 0, now: monotonicNow())
                worst = max(worst, connection.retainedUnacknowledged)
            } while monotonicNow() < end
        }
        pump(0.3)
        let connected = connection.isConnected
        try #require(connected)
        var random = Random(state: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
        var stopped = false
        for round in 0..<40 {
            switch random.next(4) {
            case 0 where !stopped:
                kill(broker.pid, SIGSTOP)
                stopped = true
            case 1 where stopped:
                kill(broker.pid, SIGCONT)
                stopped = false
            default:
                break
            }
            for n in 0..<random.next(400) {
                let topic = topics[random.next(topics.count)]
                let payload = "{\"round\": \(round), \"n\": \(n), \"pad\": \"\(String(repeating: "x", count: random.next(300)))\"}"
                connection.publishRetained(topic: topic, payload: payload)
                latest[topic] = payload
                worst = max(worst, connection.retainedUnacknowledged)
            }
            pump(Double(random.next(50)) / 1000)
        }
        kill(broker.pid, SIGCONT)
        pump(0.5)
        let settled = { connection.retainedUnacknowledged == 0 }
        for _ in 0..<100 where !settled() { pump(0.05) }
        #expect(worst <= topics.count, "\(worst) retained publishes in flight at once")
        #expect(settled())
        let reader = try TestSubscriber(broker: broker, id: "reader-\(seed)", subscribe: ["property/#"])
        try reader.pump(until: { r in topics.allSatisfy { !r.on($0).isEmpty } }, seconds: 3)
        for topic in topics where latest[topic] != nil {
            #expect(reader.on(topic).last == latest[topic], "\(topic): \(reader.on(topic).last ?? "nothing")")
        }
        print("retained property, seed \(seed): at most \(worst) in flight; the broker holds the latest of \(latest.count) topics")
    }
}
