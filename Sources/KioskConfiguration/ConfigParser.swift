import DialCore
import DialRender
import KioskSeams
import YAMLTree

/// Turns the text of a configuration file into a `KioskConfig`, or the first problem in it.
/// Built on YAMLTree's nodes (libyaml's events) so every value keeps its line for the message.
package enum ConfigParser {
    /// The keys each section accepts, in the order the README documents them.
    package static let rootKeys = ["items", "theme", "physics", "display", "input", "behaviour", "power", "mqtt", "accessibility",
                                   "remote", "fleet", "languages", "text", "lock"]
    package static let itemKeys = ["id", "label", "color", "icon", "command", "timeout_seconds", "items", "speech", "ring_speech",
                                   "live", "value", "description", "languages"]
    package static let themeKeys = ["background", "ring", "hub", "label", "font", "label_size", "preset", "label_scale"]
    package static let physicsKeys = ["decay", "min_fling_speed", "snap_duration", "inflate_min", "inflate_max"]
    package static let displayKeys = ["device", "connector", "mode", "rotation", "on_exit", "shape", "vt_switch"]
    package static let inputKeys = ["seat", "calibration", "wheel_click"]
    package static let behaviourKeys = ["default_item", "return_after_seconds", "start", "idle", "idle_after_minutes",
                                "wake_on_touch", "command_timeout_seconds", "language_return_after_seconds"]

    /// Parses `text`; `file` is only used to word errors (`config.yaml:14: ...`).
    /// `brokerElsewhere`: the `mqtt:` section comes from another file (a pushed bundle keeps
    /// the local file's), so items may name topics without one here.
    /// `blobDirectory`: where a pushed configuration's `icon: sha256:HEX` icons are (nil: a local
    /// file, which may not name icons so).
    package static func parse(_ text: String, file: String, brokerElsewhere: Bool = false,
                             blobDirectory: String? = nil) throws -> KioskConfig {
        try ConfigLimits.checkFileSize(text.utf8.count, file: file)
        let root: YAMLNode?
        do {
            root = try YAMLComposer.compose(text)
        } catch let error as YAMLError {
            throw syntaxError(error, text: text, file: file)
        }
        guard let root else { return KioskConfig() }  // empty or comments only
        if case .scalar(let scalar) = root, scalar.style == .plain, scalar.string.isEmpty { return KioskConfig() }
        let document = try ConfigSection(file: file, path: "", node: root, known: rootKeys)

        var config = KioskConfig()
        let languages = try LanguageTable.read(document)
        let warnings = ConfigWarnings()
        config.languages = languages.languages
        let items = try ConfigItemReader.read(document, languages: languages, warnings: warnings, blobDirectory: blobDirectory)
        if let menu = items.menu { config.menu = menu }
        if let text = try document.section("text", known: textKeys) {
            config.texts = try parseTexts(text, languages: languages, warnings: warnings)
        }
        if let preset = try ThemeChecks.themeShorthand(document) {
            config.theme = Theme(preset: preset)
        } else if let theme = try document.section("theme", known: themeKeys) { config.theme = try parseTheme(theme) }
        if let physics = try document.section("physics", known: physicsKeys) {
            config.physics = try parsePhysics(physics)
        }
        if let display = try document.section("display", known: displayKeys) {
            config.display = try parseDisplay(display)
        }
        if let input = try document.section("input", known: inputKeys) { config.input = try parseInput(input) }
        if let behaviour = try document.section("behaviour", known: behaviourKeys) {
            config.behaviour = try parseBehaviour(behaviour, menu: config.menu)
        }
        if let power = try document.section("power", known: powerKeys) { config.power = try parsePower(power) }
        if let mqtt = try document.section("mqtt", known: mqttKeys) { config.mqtt = try parseMQTT(mqtt) }
        if config.mqtt == nil, !brokerElsewhere, let use = items.topicUse {
            // Topics nobody would subscribe to: the items would wait for state forever.
            throw ConfigError(file: file, line: use.line, key: use.key,
                              message: "names MQTT topics, but the configuration has no mqtt: section (add one with the "
                                  + "broker's host, or set the state over the control socket with set and leave the topics out)")
        }
        if let section = try document.section("accessibility", known: accessibilityKeys) {
            config.accessibility = try parseAccessibility(section, languages: languages, warnings: warnings, pushed: blobDirectory != nil)
            if config.accessibility?.speech == true { try checkVoices(document, languages) }
        }
        if let section = try document.section("remote", known: remoteKeys) { config.remote = try parseRemote(section) }
        if let fleet = try document.section("fleet", known: fleetKeys) { config.fleet = try parseFleet(fleet) }
        if let lock = try document.section("lock", known: lockKeys) {
            config.lock = try parseLock(lock, menu: config.menu, languages: languages, warnings: warnings)
        }
        config.warnings = warnings.lines
        return config
    }

    // MARK: sections

    package static func parseTheme(_ section: ConfigSection) throws -> Theme {
        let preset = try section.choice("preset", ThemePreset.self) ?? .standard
        let demo = Theme(preset: preset)
        let colors = (background: try section.color("background") ?? demo.backgroundBottom,
                      ring: try section.color("ring") ?? demo.ringColor,
                      hub: try section.color("hub") ?? demo.hubColor,
                      label: try section.color("label") ?? demo.lightLabelColor)
        var theme: Theme
        switch preset {
        case .standard: theme = Theme(background: colors.background, ring: colors.ring, hub: colors.hub, label: colors.label)
        case .highContrast:
            try ThemeChecks.checkHighContrast(colors, section)
            theme = Theme(highContrast: colors)
        }
        if let font = try section.name("font") {
            try ThemeChecks.checkFont(font, section)
            theme.setFont(font)
        }
        if let size = try section.number("label_size", where: { $0 >= 4 && $0 <= 400 }, "between 4 and 400 (pixels)") {
            theme.labelPixels = size
        }
        if let scale = try section.number("label_scale", where: { $0 >= ThemeChecks.labelScales.lowerBound
                                                                  && $0 <= ThemeChecks.labelScales.upperBound },
                                          "between \(ThemeChecks.labelScales.lowerBound) and \(ThemeChecks.labelScales.upperBound)") {
            theme.labelScale = scale
        }
        return theme
    }

    package static func parsePhysics(_ section: ConfigSection) throws -> KioskConfig.Physics {
        var physics = KioskConfig.Physics()
        if let v = try section.number("decay", where: { $0 > 0 && $0 < 1 }, "strictly between 0 and 1") {
            physics.motion.decayPerFrame60 = v
        }
        if let v = try section.number("min_fling_speed", where: { $0 >= 0 && $0 <= 100 }, "between 0 and 100 (rad/s)") {
            physics.motion.minFlingSpeed = v
        }
        if let range = try section.numberRange("snap_duration", within: 0.05...1, "seconds") {
            physics.motion.snapDuration = range
        }
        if let v = try section.number("inflate_min", where: { $0 >= 0.1 && $0 <= 1 }, "between 0.1 and 1") {
            physics.inflate.minScale = v
        }
        if let v = try section.number("inflate_max", where: { $0 >= 1 && $0 <= 2 }, "between 1 and 2") {
            physics.inflate.maxScale = v
        }
        return physics
    }

    package static func parseDisplay(_ section: ConfigSection) throws -> KioskConfig.Display {
        var display = KioskConfig.Display()
        if let device = try section.name("device") {
            guard device.hasPrefix("/dev/") else {
                throw section.error("device", section.value("device"), "expected a path like /dev/dri/card0, got '\(device)'")
            }
            display.device = device
        }
        if let connector = try section.name("connector") {
            guard !connector.contains(" ") else {
                throw section.error("connector", section.value("connector"),
                                    "expected a connector name like HDMI-A-1 (see dialkiosk list-outputs), got '\(connector)'")
            }
            display.connector = connector
        }
        if let text = try section.string("mode", expecting: "WxH or WxH@Hz") {
            do { display.mode = try ModeRequest(parsing: text) } catch {
                throw section.error("mode", section.value("mode"), "\(error)")
            }
        }
        if let text = try section.string("rotation", expecting: "0, 90, 180 or 270") {
            guard let degrees = Int(text), let rotation = DisplayRotation(degrees: degrees) else {
                throw section.error("rotation", section.value("rotation"), "expected 0, 90, 180 or 270, got '\(text)'")
            }
            display.rotation = rotation
        }
        if let onExit = try section.choice("on_exit", ExitScreen.self) { display.onExit = onExit }
        if let shape = try section.choice("shape", DisplayShape.self) { display.shape = shape }
        if let vt = try section.bool("vt_switch") { display.vtSwitch = vt }
        return display
    }

    package static func parseInput(_ section: ConfigSection) throws -> KioskConfig.Input {
        var input = KioskConfig.Input()
        if let seat = try section.name("seat") { input.seat = seat }
        if let text = try section.string("calibration", expecting: "six numbers \"a b c d e f\"") {
            do { input.calibration = try CalibrationMatrix(parsing: text) } catch {
                throw section.error("calibration", section.value("calibration"),
                                    "expected six numbers \"a b c d e f\" (libinput's matrix), got '\(text)'")
            }
        }
        if let click = try section.choice("wheel_click", WheelClick.self) { input.wheelClick = click }
        return input
    }

    package static func parseBehaviour(_ section: ConfigSection, menu: MenuTree) throws -> KioskConfig.Behaviour {
        var behaviour = KioskConfig.Behaviour()
        if let text = try section.name("default_item") {
            if let problem = defaultItemProblem(text, in: menu) {
                throw section.error("default_item", section.value("default_item"), problem)
            }
            behaviour.defaultItem = text
        }
        // A timer of a few milliseconds would fire between two frames of any touch.
        if let s = try section.number("return_after_seconds", where: { $0 == 0 || ($0 >= 1 && $0 <= 86_400) },
                                      "of seconds: 0 (never), or between 1 and 86400") {
            behaviour.returnAfter = s > 0 ? s : nil
        }
        if let start = try section.choice("start", KioskConfig.StartState.self) { behaviour.start = start }
        if let idle = try section.choice("idle", KioskConfig.IdleAction.self) { behaviour.idle = idle }
        if let m = try section.number("idle_after_minutes", where: { $0 == 0 || ($0 * 60 >= 1 && $0 <= 10_080) },
                                      "of minutes: 0 (never), or at least one second (0.017) and at most 10080") {
            behaviour.idleAfterMinutes = m > 0 ? m : nil
        }
        if let wake = try section.bool("wake_on_touch") { behaviour.wakeOnTouch = wake }
        if let s = try section.number("command_timeout_seconds", where: { $0 >= 1 && $0 <= 86_400 },
                                      "of seconds between 1 and 86400") {
            behaviour.commandTimeout = s
        }
        if let s = try section.number("language_return_after_seconds", where: { $0 == 0 || ($0 >= 1 && $0 <= 86_400) },
                                      "of seconds: 0 (never), or between 1 and 86400") {
            behaviour.languageReturnAfter = s > 0 ? s : nil
        }
        return behaviour
    }

    /// Why `text` names no item of `menu` (a top-level id, or a path such as `drinks/coffee`);
    /// nil when it names one.
    package static func defaultItemProblem(_ text: String, in menu: MenuTree) -> String? {
        guard let path = MenuPath(parsing: text), !path.isBack else {
            return "expected an item id or a path of ids such as drinks/coffee, got '\(text)'"
        }
        // The first ring on the way down that lacks the next id is the one to name.
        for prefix in path.prefixes where menu.node(at: prefix) == nil {
            let ids = (menu.items(ofRing: prefix.parent) ?? []).map(\.id).joined(separator: ", ")
            if prefix.parent.isTop { return "no item has the id '\(prefix.last ?? "")'; ids: " + ids }
            if menu.items(ofRing: prefix.parent) == nil { return "item '\(prefix.parent)' opens no ring, so '\(text)' names nothing" }
            return "ring '\(prefix.parent)' has no item '\(prefix.last ?? "")'; its ids: " + ids
        }
        return nil
    }

    // MARK: YAML syntax

    /// The YAML reader's error, reduced to one located line.
    package static func syntaxError(_ error: YAMLError, text: String, file: String) -> ConfigError {
        switch error {
        case let .syntax(_, problem, line, _, context):
            var message = "YAML syntax error: \(problem)"
            if let context { message += " (\(context.text) at line \(context.line))" }
            return ConfigError(file: file, line: line, key: nil, message: message)
        case let .duplicateKeys(duplicates, line):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return ConfigError(file: file, line: line, key: nil, message: "key \(keys) appears more than once in the same mapping")
        case let .reader(problem, offset, _, _, _):
            let line = offset.map { offset in 1 + text.prefix(offset).reduce(0) { $0 + ($1.isNewline ? 1 : 0) } }
            return ConfigError(file: file, line: line, key: nil, message: "unreadable text: \(problem)")
        case .memory:
            return ConfigError(file: file, line: nil, key: nil, message: "YAML error: \(error)")
        }
    }
}

extension ConfigSection {
    /// The raw node of `key` even when it is null (items: a null list is an error, not a default).
    package func entryNode(_ key: String) -> YAMLNode? {
        guard case .mapping(let mapping) = node else { return nil }
        return mapping.first(where: { $0.key.string == key })?.value
    }
}
