import Glibc
import LinuxSystem
import MQTTLink
import Testing
@testable import KioskServiceKit
import KioskTestSupport

/// Two kiosks with one client id on a real mosquitto (a cloned image with the same
/// machine-id): the broker gives the session to whichever connected last.
@Suite(.serialized) struct MQTTTakeoverTests {
    @Test func twoKiosksWithOneClientIDBackOffAndSaySoOnce() throws {
        let broker = try TestBroker()
        let a = try MQTTKiosk(mqtt: section(broker))
        let b = try MQTTKiosk(mqtt: section(broker))
        try a.loop.start(at: a.time.now)
        try b.loop.start(at: b.time.now)
        // 120 s of the kiosks' clocks, a second at a time; the network is real.
        for _ in 0..<120 {
            let end = monotonicNow() + 0.08
            while monotonicNow() < end {
                try a.step(timeoutMS: 2)
                try b.step(timeoutMS: 2)
            }
            a.time.now += 1
            b.time.now += 1
        }
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
