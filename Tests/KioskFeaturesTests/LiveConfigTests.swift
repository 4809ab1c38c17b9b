import DialCore
import KioskVocabulary
import Testing
@testable import KioskConfiguration
@testable import KioskFeatures
import KioskTestSupport

/// `live:` and `value:` keys, `set`/`turn` lines and `set/item` topics: what they accept, and
/// a located error for each mistake.
@Suite struct LiveConfigTests {
    static let mistakes: [(String, String)] = [
        ("items:\n  - id: a\n    live: {key: state}\n", "3: items[0].live: live needs a topic"),
        ("items:\n  - id: a\n    live:\n      topic: home/+/state\n", "4: items[0].live.topic: topic must not contain the wildcards"),
        ("items:\n  - id: a\n    live:\n      topic: t\n      format: \"no place\"\n", "5: items[0].live.format: expected a text with {}"),
        ("items:\n  - id: a\n    live:\n      topic: t\n      key: a..b\n", "5: items[0].live.key: expected a dotted path"),
        ("items:\n  - id: a\n    live:\n      topik: t\n", "4: items[0].live.topik: unknown key (did you mean 'topic'?)"),
        ("items:\n  - id: a\n    value:\n      min: 28\n      max: 16\n      step: 1\n", "5: items[0].value.max: max (16.0) must be greater than min (28.0)"),
        ("items:\n  - id: a\n    value:\n      min: 16\n      max: 28\n      step: 5\n", "6: items[0].value.step: the step 5.0 does not divide"),
        ("items:\n  - id: a\n    value:\n      min: 16\n      max: 28\n      step: 0\n", "6: items[0].value.step: expected a number greater than 0"),
        ("items:\n  - id: a\n    value:\n      min: 0\n      max: 1\n      step: 0.5\n      command_topic: a/#\n",
         "7: items[0].value.command_topic: topic must not contain the wildcards"),
        ("items:\n  - id: a\n    value:\n      min: 0\n      max: 1\n      step: 0.5\n      guard_seconds: -1\n",
         "7: items[0].value.guard_seconds: expected a number of seconds from 0 to 60"),
        ("items:\n  - id: a\n    value: {min: 0, max: 1}\n", "3: items[0].value: value needs min, max and step"),
        // Topics without a broker: nothing would subscribe to them.
        ("items:\n  - id: a\n    live: {topic: home/a/state}\n", "3: items[0].live: names MQTT topics, but the configuration has no mqtt: section"),
        ("items:\n  - id: a\n  - id: b\n    items:\n      - id: c\n        value: {min: 0, max: 4, step: 1, command_topic: c/set}\n",
         "6: items[1].items[0].value: names MQTT topics, but the configuration has no mqtt: section"),
        ("items:\n  - id: a\nmqtt:\n  host: broker.lan\n  stale_after_seconds: -1\n",
         "5: mqtt.stale_after_seconds: expected a number of seconds: 0 (never), or between 1 and 604800"),
    ]

    @Test func staleAfterAndTopicsWithABroker() throws {
        let base = "items:\n  - {id: a, live: {topic: home/a}}\n  - {id: v, value: {min: 0, max: 4, step: 1}}\nmqtt:\n  host: broker.lan\n"
        #expect(try ConfigParser.parse(base, file: "ok.yaml").mqtt?.staleAfter == 600)
        #expect(try ConfigParser.parse(base + "  stale_after_seconds: 90\n", file: "ok.yaml").mqtt?.staleAfter == 90)
        #expect(try ConfigParser.parse(base + "  stale_after_seconds: 0\n", file: "ok.yaml").mqtt?.staleAfter == nil)
        // A value the kiosk owns needs no broker (the control socket's set turns it).
        _ = try ConfigParser.parse("items:\n  - {id: v, value: {min: 0, max: 4, step: 1}}\n", file: "ok.yaml")
        // A pushed bundle uses the local file's broker.
        _ = try ConfigParser.parse("items:\n  - {id: a, live: {topic: home/a}}\n", file: "bundle-1.yaml", brokerElsewhere: true)
    }

    @Test func mistakesAreLocated() {
        for (text, expected) in Self.mistakes {
            do {
                _ = try ConfigParser.parse(text, file: "bad.yaml")
                Issue.record("accepted: \(text)")
            } catch let error as ConfigError {
                #expect(error.exitStatus == .config)
                #expect(error.description.hasPrefix("bad.yaml:" + expected), "\(text) -> \(error.description)")
            } catch {
                Issue.record("unexpected \(error) for \(text)")
            }
        }
    }

    @Test func bindingsAndValuesAreRead() throws {
        let config = try ConfigParser.parse("""
            items:
              - id: kitchen
                label: Kitchen light
                live: {topic: home/kitchen/light/state, key: attributes.state, format: "{} now", available_topic: home/kitchen/availability}
              - id: heating
                label: Heating
                value: {min: 16, max: 28, step: 0.5, unit: "°C", command_topic: home/heating/target/set,
                        state_topic: home/heating/target, current_topic: home/heating/current,
                        command: [/usr/local/bin/set-heating], commit_after_seconds: 1.5, guard_seconds: 2}
            mqtt:
              host: broker.lan

            """, file: "ok.yaml")
        let kitchen = try #require(config.menu.node(at: ["kitchen"])?.item.live)
        #expect(kitchen == LiveBinding(topic: "home/kitchen/light/state", key: ["attributes", "state"], format: "{} now",
                                       availableTopic: "home/kitchen/availability"))
        let heating = try #require(config.menu.node(at: ["heating"])?.item.value)
        #expect(heating == ValueSettings(minimum: 16, maximum: 28, step: 0.5, unit: "°C", commandTopic: "home/heating/target/set",
                                         stateTopic: "home/heating/target", currentTopic: "home/heating/current",
                                         command: ["/usr/local/bin/set-heating"], commitAfter: 1.5, guardSeconds: 2))
        #expect(heating.stepCount == 24)
    }

    @Test func controlLines() {
        #expect(ControlLine.parse("set kitchen text light  on ") == .command(.setItem(path: ["kitchen"], change: .text("light  on"))))
        #expect(ControlLine.parse("set kitchen text") == .command(.setItem(path: ["kitchen"], change: .text(nil))))
        #expect(ControlLine.parse("set drinks/coffee available false") == .command(.setItem(path: ["drinks", "coffee"], change: .available(false))))
        #expect(ControlLine.parse("set heating value 21.5") == .command(.setItem(path: ["heating"], change: .value(21.5))))
        #expect(ControlLine.parse("turn -3") == .command(.turn(-3)))
        #expect(ControlLine.parse("turn 0") == .invalid("turn needs a whole number of detents from -1000 to 1000, not 0, got '0'"))
        #expect(ControlLine.parse("set heating value nan") == .invalid("set heating value needs a number, got 'nan'"))
        #expect(ControlLine.parse("set heating available maybe") == .invalid("set heating available needs true or false"))
        #expect(ControlLine.parse("set a;b text x") == .invalid("'a;b' is not an item id or path"))
        #expect(ControlLine.parse("set heating colour red") == .invalid("set needs a path and text <text>, available true|false or value <number>"))
    }

    @Test func mqttPayloads() {
        let text = MQTTLiveRoutes.Field.text(LiveBinding(topic: "t", key: ["attributes", "temperature"], format: "{} °C"))
        #expect(MQTTLiveRoutes.change(Array("{\"attributes\": {\"temperature\": 21.5}}".utf8), field: text) == .success(.text("21.5 °C")))
        #expect((try? MQTTLiveRoutes.change(Array("{\"state\": 1}".utf8), field: text).get()) == nil)
        #expect((try? MQTTLiveRoutes.change(Array("not json {".utf8), field: text).get()) == nil)
        #expect((try? MQTTLiveRoutes.change(Array((String(repeating: " ", count: 1023) + "22").utf8), field: .value).get()) == nil)
        #expect(MQTTLiveRoutes.change(Array("offline".utf8), field: .available) == .success(.available(false)))
        #expect((try? MQTTLiveRoutes.change(Array("NaN".utf8), field: .value).get()) == nil)
        #expect(MQTTLiveRoutes.change(Array(" 22.0\n".utf8), field: .value) == .success(.value(22)))
        #expect((try? MQTTLiveRoutes.setCommand(path: "drinks/coffee/available", payload: Array("false".utf8)).get())
                == .setItem(path: ["drinks", "coffee"], change: .available(false)))
        #expect((try? MQTTLiveRoutes.setCommand(path: "available", payload: Array("false".utf8)).get()) == nil)
    }
}
