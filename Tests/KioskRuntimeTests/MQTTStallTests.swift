import DialCore
import Glibc
import LinuxSystem
import MQTTLink
import Testing
@testable import KioskLoop
@testable import KioskFeatures
import KioskTestSupport

/// A broker that stops reading (SIGSTOP on a real mosquitto) while the kiosk's state keeps
/// changing: what the kiosk hands libmosquitto stays bounded (the latest retained state per
/// topic waits in the kiosk, one in flight), and the latest state arrives once the broker goes on.
@Suite(.serialized) struct MQTTStallTests {
    @Test func aStalledBrokerCostsBoundedMemoryAndGetsTheLatestState() throws {
        let broker = try TestBroker()
        let base = "dialkiosk/kiosk-test"
        let kiosk = try MQTTKiosk(mqtt: section(broker))
        try kiosk.loop.start(at: kiosk.time.now)
        try kiosk.settle(5) { kiosk.bridge.connection.isConnected }
        try kiosk.settle(5) { kiosk.bridge.connection.unacknowledged == 0 && kiosk.bridge.connection.retainedUnacknowledged == 0 }

        kill(broker.pid, SIGSTOP)
        defer { kill(broker.pid, SIGCONT) }
        // Warm up first (the socket's buffers fill, the event backlog reaches its bound), then
        // measure what further changes cost.
        func changes(_ range: Range<Int>) throws {
            for i in range {
                let id = i % 2 == 0 ? "coffee" : "tea"
                kiosk.service.report([.selected(index: i % 2, path: MenuPath([id]), time: Double(i))], frames: i)
                if i % 200 == 0 { try kiosk.step(timeoutMS: 0) }
            }
        }
        try changes(0..<20_000)
        let before = residentKilobytes()
        let handed = kiosk.bridge.connection.handedOver
        try changes(20_000..<60_001)
        // Resident memory is printed, not asserted: the other suites of this process allocate
        // meanwhile. What grows libmosquitto's memory is each message handed to it, counted.
        let grown = residentKilobytes() - before
        let handedDuringStall = kiosk.bridge.connection.handedOver - handed
        let waiting = kiosk.bridge.connection.retainedUnacknowledged
        print("stalled broker: 40,000 state changes handed libmosquitto \(handedDuringStall) messages; resident memory grew by \(grown) kB; retained publishes in flight \(waiting)")
        #expect(handedDuringStall <= 16, "\(handedDuringStall) messages handed to libmosquitto while the broker stalled")
        #expect(waiting <= 8)

        // The broker goes on: the state it ends up holding is the last one (tea: 60,000 is even → coffee).
        kill(broker.pid, SIGCONT)
        let late = try TestSubscriber(broker: broker, id: "late", subscribe: [base + "/state"])
        let arrived = try kiosk.settle(15, subscriber: late) {
            late.on(base + "/state").last?.contains("\"selected\": \"coffee\"") == true && kiosk.bridge.connection.retainedUnacknowledged == 0
        }
        #expect(arrived, "\(late.on(base + "/state").suffix(2)); \(kiosk.logs.suffix(4))")
        let fresh = try TestSubscriber(broker: broker, id: "fresh", subscribe: [base + "/state"])
        try fresh.pump(until: { !$0.on(base + "/state").isEmpty }, seconds: 3)
        #expect(fresh.on(base + "/state").last?.contains("\"selected\": \"coffee\"") == true, "\(fresh.on(base + "/state"))")
    }
}
