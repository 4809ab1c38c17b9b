import DialCore
import Foundation
import Testing
@testable import KioskConfiguration
@testable import KioskFeatures

/// `origin.support_url` in Home Assistant discovery: `mqtt.support_url` when configured, in
/// every config the kiosk announces (the dial's entities, the value items' numbers, the fleet's),
/// and absent without it (the project names no URL of its own).
@Suite struct DiscoveryOriginTests {
    private func origins(_ topics: MQTTTopics) throws -> [(topic: String, origin: [String: Any])] {
        var volume = MenuItem(id: "volume", label: "Volume", color: RGBColor(hex: 0))
        volume.value = ValueSettings(minimum: 0, maximum: 100, step: 5, unit: "%")
        let menu = try MenuTree([MenuNode(volume)])
        let configs = HomeAssistantDiscovery.configs(prefix: "ha", topics: topics, ringOptions: ["volume"],
                                                     languages: ["en", "de"], remote: true)
            + HomeAssistantDiscovery.numbers(prefix: "ha", topics: topics, menu: menu)
            + HomeAssistantDiscovery.fleet(prefix: "ha", topics: topics)
        #expect(configs.count > 10)
        return try configs.map { config in
            let json = try #require(try JSONSerialization.jsonObject(with: Data(config.payload.text.utf8)) as? [String: Any])
            return (config.topic, try #require(json["origin"] as? [String: Any], "\(config.topic): no origin"))
        }
    }

    @Test func theConfiguredSupportURLIsInEveryOrigin() throws {
        let settings = try #require(try ConfigParser.parse(
            "mqtt:\n  host: 192.0.2.10\n  client_id: k1\n  support_url: https://help.example.org/kiosks?site=7\n", file: "k.yaml").mqtt)
        let topics = MQTTTopics(base: "dialkiosk/k1", clientID: "k1", supportURL: settings.supportURL)
        for (topic, origin) in try origins(topics) {
            #expect(origin["support_url"] as? String == "https://help.example.org/kiosks?site=7", "\(topic)")
            #expect(origin["name"] as? String == "DialKiosk", "\(topic)")
        }
    }

    @Test func withoutOneNoSupportURLIsSent() throws {
        let settings = try #require(try ConfigParser.parse("mqtt:\n  host: 192.0.2.10\n", file: "k.yaml").mqtt)
        #expect(settings.supportURL == nil)
        for (topic, origin) in try origins(MQTTTopics(base: "dialkiosk/k1", clientID: "k1", supportURL: settings.supportURL)) {
            #expect(origin["support_url"] == nil, "\(topic)")
            #expect(Set(origin.keys) == ["name", "sw_version"], "\(topic)")
        }
    }
}
