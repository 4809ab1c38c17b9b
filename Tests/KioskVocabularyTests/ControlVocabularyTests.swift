import DialCore
import Testing
@testable import KioskVocabulary

/// The vocabulary's table is the one list: every command the service understands has its row,
/// and the socket parser, the usage line and the MQTT parser take exactly the table's verbs.
@Suite struct ControlVocabularyTests {
    /// One line per `ControlCommand` case and the row it belongs to. The switch is exhaustive:
    /// a new case does not compile here until it is given a row's name, which the tests below
    /// then require of the table.
    static func row(of command: ControlCommand) -> String {
        switch command {
        case .select: return "select"
        case .activate: return "activate"
        case .back: return "back"
        case .show: return "show"
        case .hide: return "hide"
        case .reload: return "reload"
        case .screen: return "screen"
        case .brightness: return "brightness"
        case .repeatSpeech: return "repeat"
        case .speech: return "speech"
        case .confirmConfig: return "confirm"
        case .configBundle, .oversizedBundle, .configBlob: return "config"
        case .setItem: return "set"
        case .turn: return "turn"
        case .language: return "language"
        case .screenshot: return "screenshot"
        }
    }

    /// A socket line for each verb of the table, and what it must become.
    static let socketExamples: [String: ControlCommand] = [
        "select drinks/coffee": .select(path: ["drinks", "coffee"]), "activate": .activate, "back": .back, "show": .show,
        "hide": .hide, "reload": .reload, "screen auto": .screen(.auto), "brightness 40": .brightness(40),
        "repeat": .repeatSpeech, "speech off": .speech(false), "set a/b value 2.5": .setItem(path: ["a", "b"], change: .value(2.5)),
        "turn -3": .turn(-3), "language de": .language("de"), "confirm 7": .confirmConfig(serial: 7),
        "screenshot": .screenshot,
    ]

    @Test func everySocketVerbOfTheTableParsesAndNothingElse() {
        let verbs = ControlVocabulary.verbs.filter { $0.socket != nil }.map(\.name)
        #expect(Set(verbs).count == verbs.count, "a verb twice in the table")
        // Each example is a verb of the table, becomes its command, and the command's row is the verb's.
        #expect(Set(Self.socketExamples.keys.map { String($0.split(separator: " ")[0]) }) == Set(verbs),
                "every socket verb of the table has an example, and no example is outside it")
        for (line, command) in Self.socketExamples {
            #expect(ControlLine.parse(line) == .command(command), "\(line)")
            #expect(Self.row(of: command) == String(line.split(separator: " ")[0]))
        }
        // A word that is not a verb of the table is unknown, even one a verb's argument uses.
        for word in ["config", "config_confirm", "item", "value", "on", "select_", "Select"] {
            guard case .invalid(let message) = ControlLine.parse(word) else {
                Issue.record("'\(word)' parsed as a command")
                continue
            }
            #expect(message.hasPrefix("unknown command '\(word)'"))
        }
    }

    @Test func everyCommandHasItsRow() {
        let names = Set(ControlVocabulary.verbs.map(\.name))
        let commands: [ControlCommand] = Array(Self.socketExamples.values) + [.configBundle([1]), .oversizedBundle(bytes: 9),
                                                                                        .configBlob(sha256: "ab", payload: nil, length: 9)]
        for command in commands { #expect(names.contains(Self.row(of: command)), "\(command) has no row in the table") }
    }

    @Test func theUsageLineIsTheTablesVerbs() {
        let items = ControlLine.usage.dropFirst("commands: ".count).components(separatedBy: ", ")
        #expect(items == ControlVocabulary.verbs.compactMap { $0.socket?.usage })
        for (item, verb) in zip(items, ControlVocabulary.verbs.filter { $0.socket != nil }) {
            #expect(item == verb.name || item.hasPrefix(verb.name + " "), "usage '\(item)' does not start with its verb")
        }
    }

    /// A payload for each MQTT command topic of the table.
    static let mqttExamples: [String: (String, ControlCommand)] = [
        "select": ("tea", .select(path: ["tea"])), "activate": ("PRESS", .activate), "back": ("PRESS", .back),
        "show": ("", .show), "hide": ("x", .hide), "reload": ("PRESS", .reload), "screen": ("dim", .screen(.dim)),
        "brightness": ("7\n", .brightness(7)), "language": ("pt-BR", .language("pt-BR")),
        "config_confirm": ("PRESS", .confirmConfig(serial: nil)), "screenshot": ("PRESS", .screenshot),
    ]

    @Test func theMQTTParserTakesExactlyTheTablesTopics() {
        let topics = ControlVocabulary.mqttInputs.filter { $0.input.isCommand }.map(\.input.topic)
        #expect(Set(topics).count == topics.count, "an MQTT topic twice in the table")
        #expect(Set(Self.mqttExamples.keys) == Set(topics))
        for (topic, (payload, command)) in Self.mqttExamples {
            #expect(MQTTCommand.parse(name: topic, payload: payload) == .success(command), "set/\(topic) \(payload)")
            // The topic's row is the command's row: HA's entity and the socket agree.
            let verb = ControlVocabulary.mqttCommand(topic)?.verb.name
            #expect(verb == Self.row(of: command), "set/\(topic)")
        }
        let unknown = MQTTCommand.parse(name: "launch", payload: "x")
        #expect(unknown == .failure(MQTTCommandError("unknown command 'launch'; commands: " + topics.joined(separator: ", "))))
        // Routed topics are the bridge's own (bundles, live items), never commands.
        for routed in ["config", "item/a/text", "value/a"] {
            #expect((try? MQTTCommand.parse(name: routed, payload: "1").get()) == nil, "set/\(routed)")
        }
    }

    @Test func subscriptionsCoverEveryTopicOfTheTable() {
        let filters = ControlVocabulary.subscriptions
        #expect(filters == ["+", "item/#", "value/#"])
        for (_, input) in ControlVocabulary.mqttInputs {
            // The bridge subscribes to these one by one while it wants them (MQTTBridge.wantBlobs).
            if input.onDemand {
                #expect(input.prefix.map { !filters.contains($0 + "#") } ?? true, "set/\(input.topic) is subscribed always")
                continue
            }
            let covered = input.prefix.map { prefix in filters.contains(prefix + "#") } ?? !input.topic.contains("/")
            #expect(covered, "set/\(input.topic) is not subscribed")
        }
    }

    @Test func homeAssistantEntitiesAreConsistent() {
        let entities = ControlVocabulary.mqttInputs.compactMap { pair in pair.input.homeAssistant.map { (pair.input, $0) } }
        for (input, entity) in entities {
            if case .light(let brightness) = entity.kind {
                // The light's brightness topic is an input of the table announced as this light's brightness.
                let other = ControlVocabulary.mqttInputs.first { $0.input.topic == brightness }?.input.homeAssistant
                #expect(other?.kind == .lightBrightness && other?.object == entity.object, "light \(entity.object)")
            }
            if entity.kind == .lightBrightness {
                #expect(entities.contains { if case .light(input.topic) = $0.1.kind { return true } else { return false } },
                        "set/\(input.topic) is the brightness of no light")
            }
        }
        let objects = entities.filter { $0.1.kind != .lightBrightness }.map { "\($0.1.component)/\($0.1.object)" }
        #expect(Set(objects).count == objects.count, "two entities share a topic")
    }
}
