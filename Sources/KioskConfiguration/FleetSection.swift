import YAMLTree

/// The `fleet:` section (local file only; absent: no pushed configurations): which keys may
/// sign a bundle, the shared topic bundles arrive on, how long a pushed configuration waits for
/// its confirmation, and whether pushed items may carry commands.
package struct FleetSettings: Sendable, Equatable {
    /// Files of trusted Ed25519 public keys (`dialkiosk config keygen`'s fleet.pub).
    package var trustedKeys: [String]
    /// Retained bundles for many kiosks; nil: only `<base>/set/config`.
    package var topic: String?
    /// Seconds a pushed configuration runs before it is reverted unless confirmed; 0: no confirmation.
    package var confirmSeconds: Double
    /// Whether a pushed menu may carry item commands.
    package var allowCommands: Bool
    /// Seconds a taken bundle waits for the icon blobs it names (`<topic>/blob/<sha256>`)
    /// before it is refused.
    package var blobWaitSeconds: Double = 30

    package init(trustedKeys: [String], topic: String? = nil, confirmSeconds: Double = 120, allowCommands: Bool = false) {
        self.trustedKeys = trustedKeys
        self.topic = topic
        self.confirmSeconds = confirmSeconds
        self.allowCommands = allowCommands
    }
}

extension ConfigParser {
    package static let fleetKeys = ["trusted_keys", "topic", "confirm_seconds", "allow_commands", "blob_wait_seconds"]

    /// The sections a pushed configuration may carry; the others (`display`, `input`, `mqtt`,
    /// `fleet`, and any hardware or network section) stay in the local file.
    package static let pushableSections: Set<String> = ["items", "theme", "physics", "behaviour", "accessibility",
                                                      "languages", "text", "live", "value"]

    /// How a pushed configuration names an icon by its content: `icon: sha256:HEX`.
    package static let blobPrefix = "sha256:"

    /// Whether `hex` is a SHA-256 as blobs are named: 64 lower-case hex digits.
    package static func isSHA256<S: StringProtocol>(_ hex: S) -> Bool {
        hex.utf8.count == 64 && hex.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    package static func parseFleet(_ section: ConfigSection) throws -> FleetSettings {
        guard let node = section.value("trusted_keys") else {
            throw ConfigError(file: section.file, line: section.node.line, key: section.keyPath("trusted_keys"),
                              message: "required: the public key files bundles must be signed by (dialkiosk config keygen)")
        }
        guard case .sequence(let list) = node, !list.isEmpty, list.count <= 16 else {
            throw section.error("trusted_keys", node, "expected a list of 1 to 16 absolute paths, got \(ConfigSection.describe(node))")
        }
        var keys: [String] = []
        for (i, element) in list.enumerated() {
            guard case .scalar(let scalar) = element, scalar.string.hasPrefix("/"), scalar.string.utf8.count <= 4096,
                  ConfigLimits.controlCharacter(in: scalar.string, allowing: []) == nil else {
                throw ConfigError(file: section.file, line: element.line, key: "\(section.keyPath("trusted_keys"))[\(i)]",
                                  message: "expected an absolute path of a public key file, got \(ConfigSection.describe(element))")
            }
            keys.append(scalar.string)
        }
        var settings = FleetSettings(trustedKeys: keys)
        if let topic = try section.name("topic", maximumBytes: 1024) {
            if let problem = MQTTSettings.topicProblem(topic) { throw section.error("topic", section.value("topic"), problem) }
            settings.topic = topic
        }
        if let s = try section.number("confirm_seconds", where: { $0 == 0 || ($0 >= 1 && $0 <= 86_400) },
                                      "of seconds: 0 (no confirmation), or between 1 and 86400") {
            settings.confirmSeconds = s
        }
        if let allow = try section.bool("allow_commands") { settings.allowCommands = allow }
        if let s = try section.number("blob_wait_seconds", where: { $0 >= 1 && $0 <= 3600 }, "of seconds between 1 and 3600") {
            settings.blobWaitSeconds = s
        }
        return settings
    }

    /// The top-level keys of `text` with their lines, in order (empty for an empty document);
    /// a YAML error is thrown located, as `parse` throws it.
    package static func topLevelKeys(_ text: String, file: String) throws -> [(key: String, line: Int?)] {
        try ConfigLimits.checkFileSize(text.utf8.count, file: file)
        let root: YAMLNode?
        do { root = try YAMLComposer.compose(text) } catch let error as YAMLError {
            throw syntaxError(error, text: text, file: file)
        }
        guard let root, case .mapping(let mapping) = root else { return [] }
        return mapping.map { (key: $0.key.string ?? "?", line: $0.key.line) }
    }
}
