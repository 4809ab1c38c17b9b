import Foundation
import DialCore
import KioskReporting
import KioskVocabulary
import Testing
@testable import KioskFeatures
import KioskTestSupport

/// Each discovery payload checked field by field against Home Assistant's documented MQTT
/// schemas (home-assistant.io/integrations/{light,select,event,button,sensor,binary_sensor,
/// image,number,update}.mqtt, and the discovery page's `origin`): the
/// required keys present, every key one the component documents, each of the documented type,
/// topics pointing where the kiosk publishes or listens.
@Suite struct HomeAssistantDiscoveryTests {
    enum Kind { case string, bool, int, number, strings, object }

    /// Keys every MQTT entity documents (availability, device, identity).
    static let common: [String: Kind] = [
        "name": .string, "unique_id": .string, "default_entity_id": .string, "availability_topic": .string,
        "payload_available": .string, "payload_not_available": .string, "device": .object, "origin": .object,
    ]
    /// The discovery `origin`: `name` required, `sw_version` and `support_url` optional.
    static let originKeys: [String: Kind] = ["name": .string, "sw_version": .string, "support_url": .string]
    /// Per component: documented keys we may use, and those the docs mark required.
    static let schema: [String: (keys: [String: Kind], required: Set<String>)] = [
        "light": (["command_topic": .string, "state_topic": .string, "payload_on": .string, "payload_off": .string,
                   "state_value_template": .string, "brightness_command_topic": .string,
                   "brightness_state_topic": .string, "brightness_value_template": .string,
                   "brightness_scale": .int, "on_command_type": .string], ["command_topic"]),
        "select": (["command_topic": .string, "state_topic": .string, "value_template": .string, "options": .strings],
                   ["command_topic", "options"]),
        "event": (["state_topic": .string, "event_types": .strings, "value_template": .string], ["state_topic", "event_types"]),
        "button": (["command_topic": .string, "payload_press": .string], ["command_topic"]),
        "sensor": (["state_topic": .string, "value_template": .string, "unit_of_measurement": .string,
                    "device_class": .string, "state_class": .string, "options": .strings], ["state_topic"]),
        "binary_sensor": (["state_topic": .string, "value_template": .string, "device_class": .string,
                           "entity_category": .string, "json_attributes_topic": .string,
                           "json_attributes_template": .string], ["state_topic"]),
        "image": (["image_topic": .string, "content_type": .string], []),
        "number": (["command_topic": .string, "state_topic": .string, "min": .number, "max": .number, "step": .number,
                    "mode": .string, "unit_of_measurement": .string], ["command_topic"]),
        "update": (["state_topic": .string, "value_template": .string, "latest_version_topic": .string,
                    "latest_version_template": .string], []),
    ]
    static let deviceKeys: [String: Kind] = ["identifiers": .strings, "name": .string, "model": .string,
                                             "manufacturer": .string, "sw_version": .string]

    private func matches(_ value: Any, _ kind: Kind) -> Bool {
        switch kind {
        case .string: return value is String
        case .bool: return value is Bool
        case .int: return (value as? NSNumber).map { $0.doubleValue == $0.doubleValue.rounded() && !($0 is Bool) } ?? false
        case .number: return value is NSNumber
        case .strings: return (value as? [Any])?.allSatisfy { $0 is String } ?? false
        case .object: return value is [String: Any]
        }
    }

    @Test func everyPayloadFollowsTheDocumentedSchema() throws {
        let topics = MQTTTopics(base: "dialkiosk/k1", clientID: "k1")
        let configs = HomeAssistantDiscovery.configs(prefix: "homeassistant", topics: topics, ringOptions: ["coffee", "tea"])
        #expect(Set(configs.map(\.topic)) == [
            "homeassistant/light/k1/screen/config", "homeassistant/select/k1/item/config", "homeassistant/event/k1/dial/config",
            "homeassistant/button/k1/back/config", "homeassistant/button/k1/reload/config",
            "homeassistant/sensor/k1/latency/config", "homeassistant/sensor/k1/uptime/config",
            "homeassistant/sensor/k1/power_reason/config", "homeassistant/binary_sensor/k1/problem/config"])
        try validate(configs, topics: topics)
        let light = try #require(configs.first { $0.topic.contains("/light/") }).payload.text
        #expect(light.contains("\"brightness_scale\": 100"))
        let select = try #require(configs.first { $0.topic.contains("/select/") }).payload.text
        #expect(select.contains("\"options\": [\"coffee\", \"tea\"]"))
        // The light's on and off payloads are what set/screen takes.
        #expect(MQTTCommand.parse(name: "screen", payload: "on") == .success(.screen(.on)))
        #expect(MQTTCommand.parse(name: "screen", payload: "off") == .success(.screen(.off)))
    }

    /// Every payload against its component's documented keys and types, with unique ids and
    /// topics the kiosk listens on or publishes.
    private func validate(_ configs: [(topic: String, payload: EventLine)], topics: MQTTTopics) throws {
        var uniqueIDs = Set<String>()
        for (topic, line) in configs {
            let component = String(topic.split(separator: "/")[1])
            let (keys, required) = try #require(Self.schema[component], "\(component)")
            let object = try JSONSerialization.jsonObject(with: Data(line.text.utf8))
            let json = try #require(object as? [String: Any])
            for key in required { #expect(json[key] != nil, "\(topic): required \(key) missing") }
            for (key, value) in json {
                let kind = keys[key] ?? Self.common[key]
                #expect(kind != nil, "\(topic): \(key) is not a documented \(component) key")
                if let kind { #expect(matches(value, kind), "\(topic): \(key) has the wrong type") }
            }
            #expect(uniqueIDs.insert(json["unique_id"] as? String ?? "").inserted)
            #expect(json["availability_topic"] as? String == topics.availability)
            let device = try #require(json["device"] as? [String: Any])
            for (key, value) in device {
                let kind = try #require(Self.deviceKeys[key], "\(topic): device.\(key) undocumented")
                #expect(matches(value, kind))
            }
            #expect(device["model"] as? String == "DialKiosk" && device["sw_version"] as? String == HomeAssistantDiscovery.version)
            #expect(device["identifiers"] as? [String] == ["k1"])
            // The whole entity id, "<domain>.<slug>" (the deprecated `object_id` is gone).
            let uniqueID = json["unique_id"] as? String ?? ""
            #expect(json["default_entity_id"] as? String == "\(component).\(HomeAssistantDiscovery.slug(uniqueID))", "\(topic)")
            #expect(json["object_id"] == nil, "\(topic)")
            let origin = try #require(json["origin"] as? [String: Any], "\(topic): no origin")
            for (key, value) in origin {
                let kind = try #require(Self.originKeys[key], "\(topic): origin.\(key) undocumented")
                #expect(matches(value, kind))
            }
            #expect(origin["name"] as? String == "DialKiosk" && origin["sw_version"] as? String == DialKioskVersion.string)
            // Command topics are ones the kiosk subscribes to, state topics ones it publishes.
            for key in ["command_topic", "brightness_command_topic"] {
                // One level under set/, or a value item's path under set/value/.
                if let t = json[key] as? String {
                    let rest = t.dropFirst(topics.setPrefix.count)
                    #expect(t.hasPrefix(topics.setPrefix) && (!rest.contains("/") || rest.hasPrefix("value/")), "\(t)")
                }
            }
            for key in ["state_topic", "brightness_state_topic", "image_topic"] {
                if let t = json[key] as? String {
                    #expect([topics.state, topics.event, topics.metrics, topics.screenshot, topics.base + "/config/state"].contains(t)
                            || t.hasPrefix(topics.base + "/value/"), "\(t)")
                }
            }
        }
    }

    @Test func theRemoteViewAddsViewedAndWithScreenshotsAnImageItsButtonAndItsTime() throws {
        let topics = MQTTTopics(base: "dialkiosk/k1", clientID: "k1")
        func objects(_ screenshots: Bool?) throws -> Set<String> {
            let configs = HomeAssistantDiscovery.configs(prefix: "ha", topics: topics, ringOptions: ["a"], remote: screenshots)
            try validate(configs, topics: topics)
            return Set(configs.map { $0.topic.split(separator: "/").dropFirst().filter { $0 != "k1" }.dropLast().joined(separator: "/") })
        }
        let plain = try objects(nil)
        #expect(try objects(false).subtracting(plain) == ["binary_sensor/viewed"])
        #expect(try objects(true).subtracting(plain) == ["binary_sensor/viewed", "image/screenshot", "button/take_screenshot", "sensor/screenshot_at"])
        let configs = HomeAssistantDiscovery.configs(prefix: "ha", topics: topics, ringOptions: ["a"], remote: true)
        let image = try #require(configs.first { $0.topic == "ha/image/k1/screenshot/config" }).payload.text
        #expect(image.contains("\"image_topic\": \"dialkiosk/k1/screenshot\"") && image.contains("\"content_type\": \"image/png\""))
        let sensor = try #require(configs.first { $0.topic == "ha/sensor/k1/screenshot_at/config" }).payload.text
        #expect(sensor.contains("\"device_class\": \"timestamp\""))
        // The button's payload is what set/screenshot takes (any payload).
        #expect(MQTTCommand.parse(name: "screenshot", payload: "PRESS") == .success(.screenshot))
        var state = MQTTState(path: nil, menu: .empty, screen: .on, brightness: 100)
        state.viewers = 2
        state.screenshotAt = "2026-11-27T13:45:07Z"
        #expect(state.line.text.hasSuffix("\"viewers\": 2, \"screenshot_at\": \"2026-11-27T13:45:07Z\"}"))
    }

    /// The value items' numbers and the fleet's entities carry the same identity, device and
    /// origin as the dial's (they were announced with `object_id` before).
    @Test func numbersAndTheFleetsEntitiesFollowTheSchemaToo() throws {
        let topics = MQTTTopics(base: "dialkiosk/k1", clientID: "k1")
        var volume = MenuItem(id: "volume", label: "Volume", color: RGBColor(hex: 0))
        volume.value = ValueSettings(minimum: 0, maximum: 100, step: 5, unit: "%")
        let menu = try MenuTree([MenuNode(volume), MenuNode(MenuItem(id: "tea", label: "Tea", color: RGBColor(hex: 0)))])
        let numbers = HomeAssistantDiscovery.numbers(prefix: "homeassistant", topics: topics, menu: menu)
        #expect(numbers.map(\.topic) == ["homeassistant/number/k1/value_volume/config"])
        let fleet = HomeAssistantDiscovery.fleet(prefix: "homeassistant", topics: topics)
        #expect(Set(fleet.map(\.topic)) == ["homeassistant/update/k1/config/config", "homeassistant/button/k1/config_confirm/config"])
        try validate(numbers + fleet, topics: topics)
        #expect(numbers[0].payload.text.contains("\"default_entity_id\": \"number.k1_value_volume\""))
    }

    /// Every event line goes to `<base>/event`, and Home Assistant logs a warning for each one
    /// whose type the event entity does not declare (a real Home Assistant did, for `value` and
    /// `item`: tests/ha/core.py). The template passes exactly the declared types and renders
    /// nothing, which Home Assistant ignores, for the rest.
    @Test func theEventEntityPassesOnlyTheTypesItDeclares() throws {
        let topics = MQTTTopics(base: "dialkiosk/k1", clientID: "k1")
        let configs = HomeAssistantDiscovery.configs(prefix: "homeassistant", topics: topics, ringOptions: ["tea"])
        let event = try #require(configs.first { $0.topic == "homeassistant/event/k1/dial/config" }).payload.text
        let template = HomeAssistantDiscovery.eventTemplate
        #expect(event.contains("\"value_template\": \"{% if value_json.event in ["))
        let opening = "{% if value_json.event in [", closing = "] %}"
        let head = try #require(template.range(of: opening))
        #expect(head.lowerBound == template.startIndex)
        let close = try #require(template.range(of: closing, range: head.upperBound..<template.endIndex))
        let listed = template[head.upperBound..<close.lowerBound].split(separator: ",").map { $0.filter { $0 != " " } }
        #expect(listed == HomeAssistantDiscovery.eventTypes.map { "'\($0)'" })
        // The payload, and nothing else, sits between the condition and its end.
        #expect(template[close.upperBound...] == "{\"event_type\": \"{{ value_json.event }}\", \"item\": \"{{ value_json.id | default('') }}\"}{% endif %}")
        // What `run` writes beyond the declared types is filtered, not declared.
        let written = Set(EventVocabulary.events.filter { $0.from.writers.contains(.run) }.map(\.name))
        let undeclared = written.subtracting(HomeAssistantDiscovery.eventTypes)
        #expect(undeclared.isSuperset(of: ["value", "item", "viewer", "refused"]), "\(undeclared.sorted())")
    }

    @Test func theSelectsOptionsFollowTheRing() throws {
        let menu = try MenuTree([MenuNode(MenuItem(id: "a", label: "A", color: RGBColor(hex: 0))),
                                 MenuNode(MenuItem(id: "d", label: "D", color: RGBColor(hex: 0)), children: [MenuNode(MenuItem(id: "w", label: "W", color: RGBColor(hex: 0)))])])
        #expect(MQTTState(path: MenuPath(["a"]), menu: menu, screen: .on, brightness: 100).ringOptions == ["a", "d"])
        #expect(MQTTState(path: MenuPath(["d", "w"]), menu: menu, screen: .on, brightness: 100).ringOptions == ["d/..", "d/w"])
        let state = MQTTState(path: MenuPath(["d", "w"]), menu: menu, screen: .off, brightness: 70).line.text
        #expect(state == "{\"selected\": \"d/w\", \"path\": [\"d\", \"w\"], \"item\": \"w\", \"label\": \"W\", \"screen\": \"blank\", \"power\": \"off\", \"brightness\": 0, \"power_reason\": \"schedule\"}")
    }
}
