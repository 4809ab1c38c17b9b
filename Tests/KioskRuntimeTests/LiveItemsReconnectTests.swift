import Glibc
import Audio
import DialCore
import KioskSeams
import KioskVocabulary
import MQTTLink
import Testing
@testable import KioskRuntime
@testable import KioskConfiguration
@testable import KioskLoop
@testable import KioskFeatures
import KioskTestSupport

/// Live items across a broker that goes away and comes back (a real mosquitto), and how a
/// value dial feels: acceleration, the value spoken at each rest, the cue at the stops.
@Suite(.serialized) struct LiveItemsReconnectTests {
    /// The broker stops: an item bound to it says how old its state is once that is older than
    /// `stale_after_seconds`, in whole minutes as the time goes on; back, it is fresh again.
    @Test func aBrokerAwayMakesBoundItemsSayHowOldTheirStateIs() throws {
        let broker = try TestBroker()
        var sub = try TestSubscriber(broker: broker, subscribe: [])
        let kiosk = try LiveKiosk(config: """
            items:
              - {id: kitchen, label: Kitchen, live: {topic: home/kitchen/state}}
              - {id: tea, label: Tea}

            """ + liveMQTTSection(broker) + "  stale_after_seconds: 60\n")
        try kiosk.loop.start(at: kiosk.loop.now())
        try kiosk.settle(20, sub) { kiosk.service.mqtt?.connection.isConnected == true }
        // Retained: it reaches the kiosk whenever its subscription lands (a loaded machine).
        try sub.client.publish(topic: "home/kitchen/state", payload: "on", qos: 1, retain: true)
        let on = try kiosk.settle(20, sub) { kiosk.lines("item").last?.contains("\"text\": \"on\"") == true }
        #expect(on, "\(kiosk.stdout)")
        let menu = try #require(kiosk.loop.dial as? MenuDial)

        // Connected, however long: fresh.
        kiosk.box.offset += 600
        try kiosk.settle(0.3, sub)
        #expect(menu.liveItems.state(of: ["kitchen"]).staleMinutes == nil)
        #expect(!kiosk.stdout.contains { $0.contains("age_minutes") })

        broker.stop()
        try kiosk.settle(1.5) { kiosk.service.mqtt?.connection.isConnected == false }
        // Heard 600 s ago and more: stale at once, in whole minutes; tea (unbound) never.
        let aged = try kiosk.settle(10) { kiosk.lines("item").last?.contains("\"age_minutes\": 10") == true }
        #expect(aged, "\(kiosk.lines("item"))")
        #expect(menu.liveItems.state(of: ["kitchen"]).ageText == "10 min old")
        #expect(menu.liveItems.state(of: ["tea"]).staleMinutes == nil)
        // The clock goes on: the next minute is a new line (the loop woke for it).
        kiosk.box.offset += 61
        let older = try kiosk.settle(10) { kiosk.lines("item").last?.contains("\"age_minutes\": 11") == true }
        #expect(older, "\(kiosk.lines("item"))")
        #expect(kiosk.lines("item").last?.contains("\"text\": \"on\"") == true)

        // Back: fresh again (the broker's next messages follow).
        try broker.start()
        sub = try TestSubscriber(broker: broker, id: "after", subscribe: [])
        kiosk.box.offset += 60  // the kiosk's reconnect backoff runs on the loop's clock
        let back = try kiosk.settle(20, sub) { kiosk.service.mqtt?.connection.isConnected == true }
        #expect(back)
        let fresh = try kiosk.settle(10, sub) { menu.liveItems.state(of: ["kitchen"]).staleMinutes == nil }
        #expect(fresh, "\(kiosk.lines("item")) \(kiosk.box.logs.suffix(8))")
        #expect(kiosk.lines("item").last.map { !$0.contains("age_minutes") } == true, "\(kiosk.lines("item"))")
    }

    /// Live bindings and the fleet topic share one list of subscriptions: after the broker
    /// restarts (a new session, nothing remembered) both are subscribed again, and the
    /// commands' `set/...` topics with them.
    @Test func liveTopicsAndTheFleetTopicAreBothSubscribedAgainAfterAReconnect() throws {
        let broker = try TestBroker()
        var sub = try TestSubscriber(broker: broker, subscribe: [])
        let kiosk = try LiveKiosk(config: """
            items:
              - {id: kitchen, label: Kitchen, live: {topic: home/kitchen/state}}
              - {id: tea, label: Tea}

            """ + liveMQTTSection(broker))
        // As `run` does with a fleet: section, after the service bound its live items.
        try #require(kiosk.service.mqtt).enableFleet(topic: "fleet/all")
        try kiosk.loop.start(at: kiosk.loop.now())
        try kiosk.settle(20, sub) { kiosk.service.mqtt?.connection.isConnected == true }

        // Each message again every second until it arrives, for 20 s: a subscription may land
        // a moment after the connection on a loaded machine.
        func allArrive(_ round: String) throws -> (live: Bool, fleet: Bool, set: Bool) {
            let fleetLines = kiosk.box.logs.filter { $0.contains("fleet: a configuration bundle came") }.count
            var result = (live: false, fleet: false, set: false)
            for _ in 0..<20 where !(result.live && result.fleet && result.set) {
                if !result.live { try sub.publish("home/kitchen/state", "live " + round, qos: 1) }
                if !result.fleet { try sub.publish("fleet/all", "not a bundle", qos: 1) }
                if !result.set { try sub.publish("dialkiosk/kiosk-live/set/item/tea/text", "set " + round, qos: 1) }
                try kiosk.settle(1, sub) {
                    result.live = kiosk.lines("item").contains { $0.contains("\"live \(round)\"") }
                    result.fleet = kiosk.box.logs.filter { $0.contains("fleet: a configuration bundle came") }.count > fleetLines
                    result.set = kiosk.lines("item").contains { $0.contains("\"set \(round)\"") }
                    return result.live && result.fleet && result.set
                }
            }
            return result
        }
        let before = try allArrive("one")
        #expect(before.live && before.fleet && before.set, "before the restart: \(before)")

        broker.stop()
        try kiosk.settle(1.5) { kiosk.service.mqtt?.connection.isConnected == false }
        #expect(kiosk.service.mqtt?.connection.isConnected == false)
        try broker.start()
        sub = try TestSubscriber(broker: broker, id: "after", subscribe: [])
        kiosk.box.offset += 60  // the reconnect backoff runs on the loop's clock
        let back = try kiosk.settle(20, sub) { kiosk.service.mqtt?.connection.isConnected == true }
        #expect(back)
        let after = try allArrive("two")
        #expect(after.live && after.fleet && after.set, "after the restart: \(after); broker log: \(broker.log.suffix(3000))")
    }

    /// On a range of 100 steps, encoder detents 20 ms apart move 4 steps each after the first;
    /// `turn <n>` moves exactly n; each rest speaks the value; a stop plays its cue and says
    /// "maximum".
    @Test func aLongRangeAcceleratesARestSpeaksAndAStopKnocks() throws {
        let kiosk = try LiveKiosk(config: """
            items:
              - id: volume
                label: Volume
                value: {min: 0, max: 100, step: 1, unit: "%", commit_after_seconds: 5}
              - {id: tea, label: Tea}
            accessibility:
              speech: true
              sound_cues: true
              device: "null"

            """)
        try kiosk.loop.start(at: kiosk.loop.now())
        try kiosk.settle(0.3)
        try kiosk.command(.select(path: ["volume"]))
        try kiosk.settle(0.5)
        try kiosk.command(.activate)
        try kiosk.settle(0.2)
        #expect(kiosk.lines("opened").contains { $0.contains("\"volume\"") })

        let t0 = kiosk.loop.now()
        var shown: Double? { (kiosk.loop.dial as? MenuDial)?.values.setpoints[["volume"]]?.shown }
        func key(_ event: InputEvent) throws { try kiosk.loop.handle(.input([event]), at: event.time) }
        for i in 0..<10 { try key(.command(.step(1), time: t0 + Double(i) * 0.02)) }
        #expect(shown == 37, "1 + 9 x 4 steps")
        try kiosk.command(.turn(3))
        #expect(shown == 40, "turn 3 is exactly 3 steps")
        // Slow detents, half a second apart: one step each.
        let t1 = kiosk.loop.now() + 1
        for i in 0..<3 { try key(.command(.step(-1), time: t1 + Double(i) * 0.5)) }
        #expect(shown == 37)

        // The rest after the last detent speaks the value (the commit waits 5 s).
        kiosk.box.offset += max(0, t1 + 1 + ValueSetpoint.restSeconds - kiosk.loop.now())
        let spoken = try kiosk.settle(1) { kiosk.service.speech.lastUtterance == "37 %" }
        #expect(spoken, "\(String(describing: kiosk.service.speech.lastUtterance))")
        #expect(kiosk.lines("value").filter { $0.contains("\"committed\"") }.isEmpty)

        // Into the maximum: the stop's cue and the word.
        try kiosk.command(.turn(1000))
        #expect(shown == 100)
        #expect(kiosk.service.speech.lastJob?.cue == .stop)
        #expect(kiosk.service.speech.lastJob?.text == "maximum")
    }
}
