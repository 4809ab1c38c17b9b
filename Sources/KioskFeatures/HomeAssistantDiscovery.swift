import DialCore
import KioskLoop
import KioskReporting
import KioskVocabulary

/// `<base>/state`, retained: the selected item, its ring's items, the screen and brightness.
package struct MQTTState: Equatable {
    package var path: MenuPath?
    package var menu: MenuTree
    package var screen: PowerState
    package var brightness: Int
    /// The language's code the texts are shown in (nil: no `languages:`).
    package var language: String?
    /// Why the screen is in its state (`PowerReason`).
    package var reason: PowerReason = .schedule
    /// Remote viewers connected (nil: no `remote:` section).
    package var viewers: Int?
    /// When the last screenshot was taken, ISO 8601 (nil: none yet).
    package var screenshotAt: String?
    /// The optional parts that cannot work now, "part: what to change" (absent when none).
    package var problems: [String] = []

    /// The slots of the selected item's ring, its back item included (what `set/select`
    /// takes): Home Assistant's select options. The state names only one of these.
    package var ringOptions: [String] {
        let ring = path?.parent ?? MenuPath([])
        let slots = menu.slots(ofRing: ring) ?? menu.slots(ofRing: MenuPath([])) ?? []
        return slots.map(\.description)
    }

    /// The selected path when it is one of `ringOptions`, else nil (never a value the select
    /// entity lacks).
    package var selectedOption: String? {
        guard let path, ringOptions.contains(path.description) else { return nil }
        return path.description
    }

    package var screenWord: String {
        switch screen {
        case .on: return "on"
        case .dim: return "dim"
        case .off: return "blank"
        }
    }

    package var line: EventLine {
        let item = path.flatMap { $0.isBack ? MenuTree.backItem : menu.node(at: $0)?.item }
        var fields: [(String, EventLine.Value)] = [
            ("selected", selectedOption.map { .string($0) } ?? .null),
            ("path", .strings(path?.ids ?? [])),
            ("item", item.map { .string($0.id) } ?? .null),
            ("label", item.map { .string($0.label) } ?? .null),
            ("screen", .string(screenWord)),
            // The light's on/off for Home Assistant: dim is on at a lower brightness.
            ("power", .string(screen == .off ? "off" : "on")),
            ("brightness", .int(screen == .off ? 0 : brightness)),
            ("power_reason", .string(reason.rawValue)),
        ]
        // Separate statements: one long literal is too much for Swift 6.0's type checker.
        if let language { fields.append(("language", .string(language))) }
        if let viewers { fields.append(("viewers", .int(viewers))) }
        if let screenshotAt { fields.append(("screenshot_at", .string(screenshotAt))) }
        if !problems.isEmpty { fields.append(("problems", .strings(problems))) }
        return EventLine(fields)
    }

    package init(path: MenuPath?, menu: MenuTree, screen: PowerState, brightness: Int) {
        self.path = path
        self.menu = menu
        self.screen = screen
        self.brightness = brightness
    }
}

/// Home Assistant MQTT discovery: one retained `<prefix>/<component>/<client id>/<object>/config`
/// per entity, all in one `device`. Field names and meanings are Home Assistant's documented
/// MQTT schemas (light default schema, select, event, button, sensor).
package enum HomeAssistantDiscovery {
    package static let model = "DialKiosk"
    /// The one version string (`dialkiosk --version`, the package's changelog).
    package static let version = DialKioskVersion.string
    /// Who publishes the configs (Home Assistant logs it when an entity is added or changes),
    /// and where it points people for help: `mqtt.support_url`, left out when not configured
    /// (the project names no URL of its own).
    package static func origin(supportURL: String?) -> EventLine {
        var fields: [(String, EventLine.Value)] = [("name", .string(model)), ("sw_version", .string(version))]
        if let supportURL { fields.append(("support_url", .string(supportURL))) }
        return EventLine(fields)
    }

    /// The fields every entity of the kiosk starts with: its name, ids, availability, device
    /// and origin. `default_entity_id` is the whole entity id, "<domain>.<slug>" (it replaced
    /// the deprecated `object_id`, which named only the part after the dot).
    package static func entity(_ domain: String, _ object: String, _ name: String,
                               topics: MQTTTopics) -> [(String, EventLine.Value)] {
        let id = topics.clientID
        return [("name", .string(name)), ("unique_id", .string("\(id)_\(object)")),
                ("default_entity_id", .string("\(domain).\(slug("\(id)_\(object)"))")),
                ("availability_topic", .string(topics.availability)),
                ("payload_available", .string("online")), ("payload_not_available", .string("offline")),
                ("device", .object(EventLine([("identifiers", .strings([id])), ("name", .string("DialKiosk \(id)")),
                                               ("model", .string(model)), ("manufacturer", .string("DialKiosk")),
                                               ("sw_version", .string(version))]))),
                ("origin", .object(origin(supportURL: topics.supportURL)))]
    }
    /// The events the event entity reports (its `event_types`).
    package static let eventTypes = EventVocabulary.homeAssistantTypes
    /// The event entity's `value_template`: a line of one of `eventTypes` becomes Home
    /// Assistant's event payload; any other line on `<base>/event` (a value turning, an item's
    /// live state, a viewer: each shown by an entity of its own) renders empty, which Home
    /// Assistant ignores, where an undeclared event type is a warning in its log for each line.
    package static var eventTemplate: String {
        let names = eventTypes.map { "'\($0)'" }.joined(separator: ", ")
        return "{% if value_json.event in [\(names)] %}"
            + "{\"event_type\": \"{{ value_json.event }}\", \"item\": \"{{ value_json.id | default('') }}\"}{% endif %}"
    }

    /// `languages`: the configured language codes (a `select` of them when there are two or more).
    /// `screenshots`: nil without a `remote:` section; with one, a "viewed" binary sensor, and when true an
    /// image, its button and the time of the last one.
    package static func configs(prefix: String, topics: MQTTTopics, ringOptions: [String],
                                languages: [String] = [], remote screenshots: Bool? = nil) -> [(topic: String, payload: EventLine)] {
        let id = topics.clientID
        func common(_ domain: String, _ object: String, _ name: String) -> [(String, EventLine.Value)] {
            entity(domain, object, name, topics: topics)
        }
        func topic(_ component: String, _ object: String) -> String { "\(prefix)/\(component)/\(id)/\(object)/config" }
        // The command entities, from the vocabulary's table.
        var entities: [(topic: String, payload: EventLine)] = []
        for (_, input) in ControlVocabulary.mqttInputs {
            guard let entity = input.homeAssistant else { continue }
            switch entity.when {
            case .always: break
            case .twoOrMoreLanguages: if languages.count < 2 { continue }
            case .screenshots: if screenshots != true { continue }
            case .fleet, .perValueItem: continue  // the fleet's and the value items' own discovery
            }
            let options: [String]
            switch entity.kind {
            case .select(.ringSlots, _): options = ringOptions
            case .select(.languages, _): options = languages
            default: options = []
            }
            guard let fields = commandFields(entity, topic: topics.setPrefix + input.topic, topics: topics, options: options) else { continue }
            entities.append((topic(entity.component, entity.object),
                             EventLine(common(entity.component, entity.object, entity.name) + fields)))
        }
        entities += remoteEntities(screenshots, topics: topics, common: common, topic: topic)
        return entities + [
            (topic("event", "dial"), EventLine(common("event", "dial", "Dial") + [
                ("state_topic", .string(topics.event)),
                ("event_types", .strings(eventTypes)),
                ("value_template", .string(eventTemplate)),
            ])),
            (topic("sensor", "power_reason"), EventLine(common("sensor", "power_reason", "Screen power reason") + [
                ("state_topic", .string(topics.state)), ("value_template", .string("{{ value_json.power_reason }}")),
                ("device_class", .string("enum")),
                ("options", .strings(PowerReason.allCases.map(\.rawValue))),
            ])),
            // On while an optional part (remote view, speech, CEC, presence) cannot work; the
            // state's `problems` lines, which say what to change, are its attribute.
            (topic("binary_sensor", "problem"), EventLine(common("binary_sensor", "problem", "Problem") + [
                ("state_topic", .string(topics.state)),
                ("value_template", .string("{{ 'ON' if (value_json.problems | default([])) | length > 0 else 'OFF' }}")),
                ("device_class", .string("problem")), ("entity_category", .string("diagnostic")),
                ("json_attributes_topic", .string(topics.state)),
                ("json_attributes_template", .string("{{ {'problems': value_json.problems | default([])} | tojson }}")),
            ])),
            (topic("sensor", "latency"), EventLine(common("sensor", "latency", "Input latency p95") + [
                ("state_topic", .string(topics.metrics)), ("value_template", .string("{{ value_json.latency_p95_ms }}")),
                ("unit_of_measurement", .string("ms")), ("device_class", .string("duration")),
                ("state_class", .string("measurement")),
            ])),
            (topic("sensor", "uptime"), EventLine(common("sensor", "uptime", "Uptime") + [
                ("state_topic", .string(topics.metrics)), ("value_template", .string("{{ value_json.uptime_s }}")),
                ("unit_of_measurement", .string("s")), ("device_class", .string("duration")),
                ("state_class", .string("total_increasing")),
            ])),
        ]
    }

    /// A command entity's own fields beyond the common ones (Home Assistant's schema for its
    /// component); nil for one announced as part of another (a light's brightness).
    package static func commandFields(_ entity: HomeAssistantEntity, topic command: String, topics: MQTTTopics,
                                      options: [String]) -> [(String, EventLine.Value)]? {
        switch entity.kind {
        case .button:
            return [("command_topic", .string(command)), ("payload_press", .string("PRESS"))]
        case .select(_, let template):
            return [("command_topic", .string(command)),
                    ("state_topic", .string(topics.state)), ("value_template", .string(template)),
                    ("options", .strings(options))]
        case .light(let brightness):
            return [("command_topic", .string(command)),
                    ("payload_on", .string("on")), ("payload_off", .string("off")),
                    ("state_topic", .string(topics.state)), ("state_value_template", .string("{{ value_json.power }}")),
                    ("brightness_command_topic", .string(topics.setPrefix + brightness)),
                    ("brightness_state_topic", .string(topics.state)),
                    ("brightness_value_template", .string("{{ value_json.brightness }}")),
                    ("brightness_scale", .int(100)),
                    // A brightness command alone switches the screen on: send only the brightness.
                    ("on_command_type", .string("brightness"))]
        case .lightBrightness, .number:
            return nil
        }
    }

    /// The remote view's entities: who is watching, and screenshots when they are allowed.
    private static func remoteEntities(_ screenshots: Bool?, topics: MQTTTopics,
                                       common: (String, String, String) -> [(String, EventLine.Value)],
                                       topic: (String, String) -> String) -> [(topic: String, payload: EventLine)] {
        guard let screenshots else { return [] }
        var entities: [(topic: String, payload: EventLine)] = [
            (topic("binary_sensor", "viewed"), EventLine(common("binary_sensor", "viewed", "Viewed") + [
                ("state_topic", .string(topics.state)),
                ("value_template", .string("{{ 'ON' if (value_json.viewers | int(0)) > 0 else 'OFF' }}")),
                ("device_class", .string("occupancy")),
            ])),
        ]
        guard screenshots else { return entities }
        entities += [
            (topic("image", "screenshot"), EventLine(common("image", "screenshot", "Screenshot") + [
                ("image_topic", .string(topics.screenshot)), ("content_type", .string("image/png")),
            ])),
            (topic("sensor", "screenshot_at"), EventLine(common("sensor", "screenshot_at", "Screenshot taken") + [
                ("state_topic", .string(topics.state)),
                ("value_template", .string("{{ value_json.screenshot_at | default(None) }}")),
                ("device_class", .string("timestamp")),
            ])),
        ]
        return entities
    }

    /// An entity id's object part: lowercase letters, digits and underscores.
    package static func slug(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.map { ("a"..."z").contains($0) || ("0"..."9").contains($0) ? Character($0) : "_" })
    }
}
