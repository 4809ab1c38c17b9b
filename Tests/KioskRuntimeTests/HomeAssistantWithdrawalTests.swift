import Glibc
import MQTTLink
import Testing
@testable import KioskFeatures
import KioskTestSupport

/// Entities a reload removes leave Home Assistant: each gets an empty retained config on a real
/// mosquitto, which then keeps no config for it (a late subscriber, as Home Assistant after a
/// restart, sees none), while the entities that stay keep theirs.
@Suite(.serialized) struct HomeAssistantWithdrawalTests {
    static let before = """
        languages:
          - {code: en, name: English}
          - {code: de, name: Deutsch}
        items:
          - id: volume
            label: Volume
            value: {min: 0, max: 100, step: 5}
          - {id: tea, label: Tea}

        """
    static let after = """
        items:
          - {id: tea, label: Tea}
          - {id: cocoa, label: Cocoa}

        """

    @Test func aReloadWithdrawsTheEntitiesItRemoved() throws {
        let broker = try TestBroker()
        let sub = try TestSubscriber(broker: broker, subscribe: ["homeassistant/#"])
        let kiosk = try MQTTKiosk(mqtt: section(broker), items: Self.before)
        try kiosk.loop.start(at: kiosk.time.now)
        let number = "homeassistant/number/kiosk-test/value_volume/config"
        let language = "homeassistant/select/kiosk-test/language/config"
        let item = "homeassistant/select/kiosk-test/item/config"
        let announced = try kiosk.settle(5, subscriber: sub) { !sub.on(number).isEmpty && !sub.on(language).isEmpty }
        #expect(announced, "\(sub.messages.map(\.topic))")
        #expect(sub.on(number).last?.contains("\"default_entity_id\": \"number.kiosk_test_value_volume\"") == true)

        writeFile(kiosk.dir.path + "/config.yaml", Self.after + "mqtt:\n" + section(broker))
        try sub.publish("dialkiosk/kiosk-test/set/reload", "")
        let withdrawn = try kiosk.settle(5, subscriber: sub) { sub.on(number).last == "" && sub.on(language).last == "" }
        #expect(withdrawn, "number: \(sub.on(number)), language: \(sub.on(language))")
        // What stays is announced again with the new ring, never withdrawn.
        #expect(sub.on(item).allSatisfy { !$0.isEmpty })
        #expect(sub.on(item).last?.contains("cocoa") == true)

        // The broker forgot them: a new subscriber gets the item's retained config and none of theirs.
        let late = try TestSubscriber(broker: broker, id: "late", subscribe: ["homeassistant/#"])
        try late.pump(until: { !$0.on(item).isEmpty }, seconds: 3)
        try late.pump(seconds: 0.3)
        #expect(!late.on(item).isEmpty)
        #expect(late.on(number).isEmpty && late.on(language).isEmpty, "\(late.messages.map(\.topic))")
        #expect(kiosk.bridge.discovery.topics.contains(item) && !kiosk.bridge.discovery.topics.contains(number))
    }
}
