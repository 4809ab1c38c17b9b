import Glibc
import LinuxSystem
import MQTTLink
import Testing
@testable import KioskFeatures
import KioskTestSupport

/// Two kiosks with one client id on a real mosquitto (a cloned image with the same
/// machine-id): the broker gives the session to whichever connected last.
@Suite(.serialized) struct MQTTTakeoverTests {
    /// 120 s of the kiosks' clocks, a second at a time; the network is real.
    private func run(_ a: MQTTKiosk, _ b: MQTTKiosk, seconds: Int = 120) throws {
        try a.loop.start(at: a.time.now)
        try b.loop.start(at: b.time.now)
        for _ in 0..<seconds {
            let end = monotonicNow() + 0.08
            while monotonicNow() < end {
                try a.step(timeoutMS: 2)
                try b.step(timeoutMS: 2)
            }
            a.time.now += 1
            b.time.now += 1
        }
    }

    /// MQTT 5: the broker's DISCONNECT says "session taken over" (0x8E) to the kiosk that loses
    /// the session, so each kiosk says so when it is its turn, and retries only after the longest
    /// backoff. Needs a mosquitto that sends that reason (2.0.15 and later: Debian 13's).
    @Test(.enabled(if: TestBroker.sessionTakeoverBroker != nil, "no mosquitto 2.0.15 or later here"))
    func withMQTT5BothKiosksSayTheirSessionWasTakenOver() throws {
        let broker = try TestBroker(program: try #require(TestBroker.sessionTakeoverBroker))
        let a = try MQTTKiosk(mqtt: section(broker))
        let b = try MQTTKiosk(mqtt: section(broker))
        try run(a, b)
        let line = "mqtt: session taken over: another client connected to 127.0.0.1:\(broker.port) with the client id 'kiosk-test' (MQTT 5 reason 0x8E"
        let saidA = a.logs.filter { $0.contains(line) }, saidB = b.logs.filter { $0.contains(line) }
        print("MQTT 5 client id conflict: kiosk a said it \(saidA.count) times, kiosk b \(saidB.count) times in 120 s")
        #expect(a.bridge.connection.speaking == .v5 && b.bridge.connection.speaking == .v5)
        #expect(!saidA.isEmpty && !saidB.isEmpty, "a: \(a.logs.suffix(6)); b: \(b.logs.suffix(6))")
        // One takeover a minute at most: the retries wait 60 s.
        #expect(saidA.count + saidB.count <= 4, "\(saidA + saidB)")
        #expect(a.logs.contains { $0.contains("(MQTT 5)") && $0.contains("mqtt: connected to") })
    }

    /// Debian 12's mosquitto 2.0.11 speaks MQTT 5 but closes a session it gives away without
    /// DISCONNECT: the kiosks speak 5 to it and infer the takeover as with 3.1.1.
    @Test func withMQTT5AndAnOlderMosquittoTheTakeoverIsStillInferred() throws {
        let broker = try TestBroker()
        let a = try MQTTKiosk(mqtt: section(broker))
        let b = try MQTTKiosk(mqtt: section(broker))
        try run(a, b)
        #expect(a.bridge.connection.speaking == .v5)
        let inferred = (a.logs + b.logs).filter { $0.contains("another client is probably connected with the client id 'kiosk-test'")
            || $0.contains("mqtt: session taken over") }
        #expect(!inferred.isEmpty, "\((a.logs + b.logs).suffix(8))")
    }

    /// MQTT 3.1.1: the broker closes the older connection without a word; the kiosks infer it
    /// from sessions that end at once.
    @Test func twoKiosksWithOneClientIDBackOffAndSaySoOnce() throws {
        let broker = try TestBroker()
        let a = try MQTTKiosk(mqtt: section(broker))
        let b = try MQTTKiosk(mqtt: section(broker))
        a.bridge.connection.protocolWanted = .v311
        b.bridge.connection.protocolWanted = .v311
        try run(a, b)
        // The broker's log file, or its standard error when it cannot open that file (it
        // drops to the mosquitto user).
        let brokerLog = broker.log + (readFile(broker.dir.path + "/stdout.log") ?? "")
        let takeovers = brokerLog.components(separatedBy: "already connected, closing old connection").count - 1
        let said = (a.logs + b.logs).filter { $0.contains("another client is probably connected with the client id 'kiosk-test'") }
        print("client id conflict: \(takeovers) takeovers in 120 s; \(said.count) lines naming it")
        // Once a second each way before: about 120. Backing off: a handful, then two a minute.
        #expect(takeovers > 0, "\(brokerLog.suffix(300))")
        #expect(takeovers <= 16, "\(takeovers) takeovers")
        #expect(said.count >= 1 && said.count <= 2, "\(said)")
        #expect(a.bridge.connection.takenOver || b.bridge.connection.takenOver)
        // The journal is not flooded with lost connections.
        let lost = (a.logs + b.logs).filter { $0.contains("mqtt: lost the connection") }.count
        #expect(lost <= 12, "\(lost) lost lines")
    }
}
