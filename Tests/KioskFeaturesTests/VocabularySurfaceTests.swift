import DialCore
import Foundation
import KioskVocabulary
import Testing
@testable import KioskFeatures

/// The surfaces built from the control vocabulary take no verb of their own: Home Assistant's
/// command entities are exactly the table's, and no source file names a `<base>/set/` topic
/// the table lacks.
@Suite struct VocabularySurfaceTests {
    static let topics = MQTTTopics(base: "dialkiosk/k1", clientID: "k1")

    /// (entity topic, command topics) of every discovery payload: the main ones with two
    /// languages and screenshots allowed, and the numbers of a menu with one kiosk-owned value item.
    static func discovered() throws -> [(String, [String])] {
        var item = MenuItem(id: "v", label: "V", color: RGBColor(hex: 0))
        item.value = ValueSettings(minimum: 0, maximum: 10, step: 1)
        let menu = try MenuTree([MenuNode(item)])
        let configs = HomeAssistantDiscovery.configs(prefix: "ha", topics: topics, ringOptions: ["v"], languages: ["en", "de"], remote: true)
            + HomeAssistantDiscovery.numbers(prefix: "ha", topics: topics, menu: menu)
        return try configs.map { config in
            let json = try #require(try JSONSerialization.jsonObject(with: Data(config.payload.text.utf8)) as? [String: Any])
            let commands = ["command_topic", "brightness_command_topic"].compactMap { json[$0] as? String }
            return (config.topic, commands.map { String($0.dropFirst(topics.setPrefix.count)) })
        }
    }

    @Test func discoveryAnnouncesExactlyTheTablesEntities() throws {
        let discovered = try Self.discovered()
        let forms = ControlVocabulary.mqttInputs.map(\.input)
        // Every command topic announced is a topic of the table (a form's path filled in).
        for (entity, commands) in discovered {
            for command in commands {
                let known = forms.contains { $0.prefix.map { command.hasPrefix($0) } ?? ($0.topic == command) }
                #expect(known, "\(entity) commands set/\(command), which the vocabulary lacks")
            }
        }
        // Every entity of the table (but the fleet's, announced by the service) is announced.
        for input in forms {
            guard let entity = input.homeAssistant, entity.when != .fleet, entity.kind != .lightBrightness else { continue }
            let object = entity.when == .perValueItem ? "value_v" : entity.object
            let announced = discovered.first { $0.0 == "ha/\(entity.component)/k1/\(object)/config" }
            #expect(announced != nil, "\(entity.component) \(entity.object) is in the table but not announced")
            #expect(announced?.1.first.map { input.prefix.map($0.hasPrefix) ?? ($0 == input.topic) } == true,
                    "\(entity.object) commands another topic than set/\(input.topic)")
        }
        let fleet = try #require(ControlVocabulary.mqttInputs.first { $0.input.homeAssistant?.when == .fleet })
        let fields = try #require(HomeAssistantDiscovery.commandFields(fleet.input.homeAssistant!, topic: Self.topics.setPrefix + fleet.input.topic,
                                                                        topics: Self.topics, options: []))
        #expect(fields.first?.0 == "command_topic")
    }

    /// A `<base>/set/` topic written by hand outside the table (`setPrefix + "name"`, `"set/name"`)
    /// is a verb in a surface but not in the table.
    @Test func noSourceNamesASetTopicTheTableLacks() throws {
        let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
        let topics = ControlVocabulary.mqttInputs.map(\.input)
        let files = try #require(FileManager.default.enumerator(atPath: root + "/Sources")).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("KioskVocabulary/") }
        #expect(files.count > 50)
        for file in files {
            let text = try String(contentsOfFile: root + "/Sources/" + file, encoding: .utf8)
            for marker in ["setPrefix + \"", "\"set/", "/set/"] {
                var rest = Substring(text)
                while let hit = rest.range(of: marker) {
                    rest = rest[hit.upperBound...]
                    let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "/" }
                    guard !name.isEmpty else { continue }
                    let known = topics.contains { $0.topic == name || $0.prefix.map { name.hasPrefix($0) || $0.hasPrefix(name) } == true }
                    #expect(known, "Sources/\(file): set/\(name) is not a topic of the vocabulary")
                }
            }
        }
    }
}
