import KioskVocabulary

extension HomeAssistantDiscovery {
    /// The fleet's entities (with a `fleet:` section): an `update` (the installed serial against
    /// the one offered, from `<base>/config/state`) and the button that confirms the
    /// configuration that waits.
    package static func fleet(prefix: String, topics: MQTTTopics) -> [(topic: String, payload: EventLine)] {
        let id = topics.clientID, stateTopic = topics.base + "/config/state"
        var configs: [(topic: String, payload: EventLine)] = [
            ("\(prefix)/update/\(id)/config/config", EventLine(entity("update", "config", "Configuration", topics: topics) + [
                ("state_topic", .string(stateTopic)),
                ("value_template", .string("{{ value_json.serial | default('local', true) }}")),
                ("latest_version_topic", .string(stateTopic)),
                ("latest_version_template", .string("{{ value_json.offered | default(value_json.serial, true) | default('local', true) }}")),
            ])),
        ]
        // The fleet's command entities, from the vocabulary's table (the confirm button).
        for (_, input) in ControlVocabulary.mqttInputs {
            guard let entity = input.homeAssistant, entity.when == .fleet,
                  let fields = commandFields(entity, topic: topics.setPrefix + input.topic, topics: topics, options: [])
            else { continue }
            configs.append(("\(prefix)/\(entity.component)/\(id)/\(entity.object)/config",
                            EventLine(Self.entity(entity.component, entity.object, entity.name, topics: topics) + fields)))
        }
        return configs
    }
}
