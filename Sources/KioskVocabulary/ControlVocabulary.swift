import DialCore

/// The control vocabulary: every verb the control socket takes and every `<base>/set/...` topic
/// the MQTT bridge takes, with what Home Assistant is told of it. The socket's parser and usage
/// line, the MQTT parser and its error text, the bridge's subscriptions and the command entities
/// of Home Assistant discovery are built from this one list, and the reference's verb table
/// (docs/reference.md) is checked against it. A new verb is a `ControlCommand` case and a row here.
package enum ControlVocabulary {
    /// In the usage line's order.
    package static let verbs: [ControlVerb] = [
        ControlVerb("select", usage: "select <id or path>", help: "turns the ring to that item, opening and closing rings on the way",
                    .parsed({ parseSelect($0) }), mqtt: [MQTTInput("select", .word, homeAssistant: HomeAssistantEntity(
                        .select(options: .ringSlots, valueTemplate: "{{ value_json.selected }}"), object: "item", name: "Item"))]),
        ControlVerb("activate", help: "activates the selected item, as a hub tap does", .none(.activate),
                    mqtt: [MQTTInput("activate", .ignored)]),
        ControlVerb("back", help: "to the parent ring, as the back item, a long press or Escape do", .none(.back),
                    mqtt: [MQTTInput("back", .ignored, homeAssistant: HomeAssistantEntity(.button, object: "back", name: "Back"))]),
        ControlVerb("show", help: "shows the ring", .none(.show), mqtt: [MQTTInput("show", .ignored)]),
        ControlVerb("hide", help: "hides the ring", .none(.hide), mqtt: [MQTTInput("hide", .ignored)]),
        ControlVerb("reload", help: "re-reads the configuration file, as SIGHUP does", .none(.reload),
                    mqtt: [MQTTInput("reload", .ignored, homeAssistant: HomeAssistantEntity(.button, object: "reload", name: "Reload"))]),
        ControlVerb("screen", usage: "screen on|off|dim|auto",
                    help: "the screen on, off (blank) or dimmed; `auto`: back to the opening hours and the idle timers",
                    .parsed({ parseScreen($0) }), mqtt: [MQTTInput("screen", .word, homeAssistant: HomeAssistantEntity(
                        .light(brightnessTopic: "brightness"), object: "screen", name: "Screen"))]),
        ControlVerb("brightness", usage: "brightness 0-100",
                    help: "the backlight's share in percent (0 blanks, 100 is full; painted dim without a backlight)",
                    .integer(IntegerArgument(0...100, "a whole number", { .brightness($0) })), mqtt: [MQTTInput("brightness", .word, homeAssistant: HomeAssistantEntity(
                        .lightBrightness, object: "screen", name: "Screen"))]),
        ControlVerb("repeat", help: "speaks the last utterance again", .none(.repeatSpeech)),
        ControlVerb("speech", usage: "speech on|off", help: "speech on or off until the kiosk has been idle for a while",
                    .parsed({ parseSpeech($0) })),
        ControlVerb("set", usage: "set <path> text|available|value ...", help: "an item's live text, availability or value",
                    .parsed({ ControlLine.parseLive($0.line, verb: $0.verb, arguments: $0.words) }),
                    mqtt: [MQTTInput("item/<path>/text|available|value", .routed),
                           MQTTInput("value/<path>", .routed, homeAssistant: HomeAssistantEntity(
                            .number, object: "value_<path>", name: "the item's label", when: .perValueItem))]),
        ControlVerb("turn", usage: "turn <n>", help: "n detents of an open value dial, or n items of the ring (negative: anticlockwise)",
                    .integer(IntegerArgument(-1000...1000, "a whole number of detents", excludingZero: true, { .turn($0) }))),
        ControlVerb("language", usage: "language <code>", help: "shows and speaks every text in that configured language",
                    .parsed({ parseLanguage($0) }), mqtt: [MQTTInput("language", .word, homeAssistant: HomeAssistantEntity(
                        .select(options: .languages, valueTemplate: "{{ value_json.language }}"), object: "language",
                        name: "Language", when: .twoOrMoreLanguages))]),
        ControlVerb("confirm", usage: "confirm <serial>", help: "confirms the pushed configuration with that serial",
                    .parsed({ parseConfirm($0) }), mqtt: [MQTTInput("config_confirm", .parsed({ parseConfirmPayload($0) }), homeAssistant: HomeAssistantEntity(
                        .button, object: "config_confirm", name: "Confirm configuration", when: .fleet))]),
        ControlVerb("screenshot", help: "a PNG of what the panel shows, for the asking client (`remote.screenshots: true` only)",
                    .none(.screenshot), mqtt: [MQTTInput("screenshot", .ignored, homeAssistant: HomeAssistantEntity(
                        .button, object: "take_screenshot", name: "Take screenshot", when: .screenshots))]),
        ControlVerb(mqttOnly: "config", help: "a signed configuration bundle pushed to a fleet",
                    mqtt: [MQTTInput("config", .routed), MQTTInput("config/blob/<sha256>", .routed, onDemand: true)]),
    ]

    /// The socket verbs by name.
    private static let socketVerbs: [String: ControlVerb.Socket] = Dictionary(
        verbs.compactMap { verb in verb.socket.map { (verb.name, $0) } }, uniquingKeysWith: { first, _ in first })

    package static func socketVerb(_ name: String) -> ControlVerb.Socket? { socketVerbs[name] }

    /// Every MQTT input with the verb it belongs to, in the table's order.
    package static var mqttInputs: [(verb: ControlVerb, input: MQTTInput)] {
        verbs.flatMap { verb in verb.mqtt.map { (verb, $0) } }
    }

    /// The input whose topic (after `<base>/set/`) is exactly `topic` and whose payload the
    /// command parser reads (not a routed one).
    package static func mqttCommand(_ topic: String) -> (verb: ControlVerb, input: MQTTInput)? {
        mqttInputs.first { $0.input.topic == topic && $0.input.isCommand }
    }

    /// The topic filters under `<base>/set/` the bridge subscribes to: `+` for the one-level
    /// topics, `<prefix>#` for each routed form.
    package static var subscriptions: [String] {
        ["+"] + mqttInputs.filter { !$0.input.onDemand }.compactMap { $0.input.prefix.map { $0 + "#" } }
    }
}

/// One row of the vocabulary.
package struct ControlVerb: Sendable {
    /// How the control socket reads the words after the verb.
    package enum Grammar: Sendable {
        /// No arguments; anything after the verb is refused.
        case none(ControlCommand)
        /// One whole number in the row's declared range, checked before any arithmetic.
        case integer(IntegerArgument)
        /// The verb's own parser, with its own refusals.
        case parsed(@Sendable (ControlArguments) -> ControlLine)
    }

    package struct Socket: Sendable {
        /// The verb with its arguments as the usage line shows them.
        package let usage: String
        package let grammar: Grammar
    }

    /// The socket's word; for an MQTT-only row, the name of its topic.
    package let name: String
    /// What it does, as the reference's verb table says it.
    package let help: String
    /// nil: MQTT only.
    package let socket: Socket?
    package let mqtt: [MQTTInput]

    init(_ name: String, usage: String? = nil, help: String, _ grammar: Grammar, mqtt: [MQTTInput] = []) {
        self.name = name
        self.help = help
        socket = Socket(usage: usage ?? name, grammar: grammar)
        self.mqtt = mqtt
    }

    init(mqttOnly name: String, help: String, mqtt: [MQTTInput]) {
        self.name = name
        self.help = help
        socket = nil
        self.mqtt = mqtt
    }
}

/// A verb's one numeric argument: a whole number in `range` (ASCII digits, with a `-` where
/// the range has negatives), refused with the range in the message when it is anything else. The text is read
/// into an Int only after its length is bounded, and compared with the range before anything
/// computes with it: no magnitude (`Int.min`, a hundred digits) reaches the command.
package struct IntegerArgument: Sendable {
    package let range: ClosedRange<Int>
    /// What the number is, as the refusal says it ("a whole number of detents").
    package let what: String
    package let excludingZero: Bool
    package let command: @Sendable (Int) -> ControlCommand

    init(_ range: ClosedRange<Int>, _ what: String, excludingZero: Bool = false, _ command: @escaping @Sendable (Int) -> ControlCommand) {
        self.range = range
        self.what = what
        self.excludingZero = excludingZero
        self.command = command
    }

    /// The number `text` says when it is in range; nil otherwise.
    package func value(_ text: String) -> Int? {
        // A sign only where the range has negatives: `brightness -0` is no brightness.
        let signed = text.hasPrefix("-") && range.lowerBound < 0
        let digits = signed ? text.utf8.dropFirst() : text.utf8[...]
        guard !digits.isEmpty, digits.count <= 19, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let n = Int(text), range.contains(n), !(excludingZero && n == 0) else { return nil }
        return n
    }

    /// `turn needs a whole number of detents from -1000 to 1000, not 0, got 'x'`
    package func refusal(verb: String, got: String) -> String {
        "\(verb) needs \(what) from \(range.lowerBound) to \(range.upperBound)" + (excludingZero ? ", not 0" : "")
            + ", got '\(got.logExcerpt(64))'"
    }
}

/// A topic under `<base>/set/` and how its payload becomes a command.
package struct MQTTInput: Sendable {
    package enum Payload: Sendable {
        /// Anything (Home Assistant's buttons send `PRESS`): the verb without arguments.
        case ignored
        /// One word, the verb's argument, read by the socket's parser.
        case word
        /// A grammar of its own (the trimmed payload).
        case parsed(@Sendable (String) -> Result<ControlCommand, MQTTCommandError>)
        /// Bytes the bridge routes itself before any command parsing (bundles, live items).
        case routed
    }

    /// After `<base>/set/`: a topic (`select`), or a form whose part before the first `<` is a
    /// prefix (`item/<path>/text|available|value`).
    package let topic: String
    package let payload: Payload
    package let homeAssistant: HomeAssistantEntity?
    /// Subscribed only while the bridge asks for it, each topic by its name (a taken bundle's
    /// icon blobs), never by a filter in `subscriptions`: a broker's retained ones stay there.
    package let onDemand: Bool

    init(_ topic: String, _ payload: Payload, homeAssistant: HomeAssistantEntity? = nil, onDemand: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.homeAssistant = homeAssistant
        self.onDemand = onDemand
    }

    /// The prefix of a form with placeholders; nil for a plain topic.
    package var prefix: String? {
        guard let open = topic.firstIndex(of: "<") else { return nil }
        return String(topic[..<open])
    }

    /// Whether `MQTTCommand.parse` reads it (a plain topic, not routed).
    package var isCommand: Bool {
        if case .routed = payload { return false }
        return prefix == nil
    }
}

/// What Home Assistant discovery announces for an MQTT input (the payload's fields beyond
/// these are Home Assistant's schema, built in KioskFeatures's `HomeAssistantDiscovery`).
package struct HomeAssistantEntity: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case button
        /// Its options and, from `<base>/state`, its current value.
        case select(options: Options, valueTemplate: String)
        /// On/off payloads on this input's topic, the brightness on `brightnessTopic`'s.
        case light(brightnessTopic: String)
        /// The brightness of the light of the same object (announced with it).
        case lightBrightness
        /// A number with a slider, one per value item the kiosk owns.
        case number
    }

    package enum Options: Sendable, Equatable {
        /// The slots of the selected item's ring.
        case ringSlots
        /// The configured language codes.
        case languages
    }

    /// When it is announced.
    package enum When: Sendable, Equatable {
        case always
        /// With two or more `languages:`.
        case twoOrMoreLanguages
        /// With a `fleet:` section.
        case fleet
        /// With `remote.screenshots: true`.
        case screenshots
        /// One per value item the kiosk owns.
        case perValueItem
    }

    package let kind: Kind
    /// The object id's part after the client id (`<prefix>/<component>/<client id>/<object>/config`).
    package let object: String
    package let name: String
    package let when: When

    init(_ kind: Kind, object: String, name: String, when: When = .always) {
        self.kind = kind
        self.object = object
        self.name = name
        self.when = when
    }

    /// Home Assistant's component (the topic's second level).
    package var component: String {
        switch kind {
        case .button: return "button"
        case .select: return "select"
        case .light, .lightBrightness: return "light"
        case .number: return "number"
        }
    }

    /// As the reference's verb table names it.
    package var summary: String {
        let base: String
        switch kind {
        case .lightBrightness: base = "\(component) `\(object)` (brightness)"
        default: base = "\(component) `\(object)`"
        }
        switch when {
        case .always, .perValueItem: return base
        case .twoOrMoreLanguages: return base + " (two or more languages)"
        case .fleet: return base + " (with `fleet:`)"
        case .screenshots: return base + " (with `remote.screenshots: true`)"
        }
    }
}
