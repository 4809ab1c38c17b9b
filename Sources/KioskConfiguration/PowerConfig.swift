import OpeningHours
import YAMLTree

/// The `power:` section: opening hours and what the screen does outside them.
package struct PowerSettings: Sendable, Equatable {
    /// The screen's state outside the hours.
    package enum OutsideHours: String, Sendable, CaseIterable {
        /// Blank (the output off where it can be).
        case off
        case dim
        /// On: the schedule only reports.
        case on
    }

    /// What a touch outside the hours does.
    package enum TouchOutsideHours: String, Sendable, CaseIterable {
        /// Wake for `behaviour.idle_after_minutes`.
        case wake
        case ignore
    }

    /// `presence`: an input device whose key wakes a dark screen.
    package struct Presence: Sendable, Equatable {
        /// A path, or a device name as the kernel reports it.
        package var device: String
        /// The key code (KEY_WAKEUP is 143).
        package var key: UInt16

        package init(device: String, key: UInt16) {
            self.device = device
            self.key = key
        }

        /// The key names the configuration takes, beside a plain number (linux/input-event-codes.h).
        package static let keyNames: [String: UInt16] = ["KEY_WAKEUP": 143, "KEY_POWER": 116, "KEY_SLEEP": 142,
                                                       "KEY_PROG1": 148, "KEY_F13": 183, "BTN_0": 256]
    }

    /// `cec`: the HDMI-CEC adapter that switches the display (a TV) with the screen.
    package enum CEC: Sendable, Equatable {
        /// `true`: the first adapter with a physical address other than 0.0.0.0 nobody holds.
        case first
        /// `/dev/cecN`.
        case path(String)
    }

    package var presence: Presence?
    /// nil: no CEC (`false` or absent).
    package var cec: CEC?
    /// `schedule`: nil without one (always open).
    package var schedule: OpeningHours?
    package var outsideHours: OutsideHours
    package var touchOutsideHours: TouchOutsideHours

    package init(schedule: OpeningHours? = nil, outsideHours: OutsideHours = .off, touchOutsideHours: TouchOutsideHours = .wake) {
        self.schedule = schedule
        self.outsideHours = outsideHours
        self.touchOutsideHours = touchOutsideHours
    }
}

extension ConfigParser {
    package static let powerKeys = ["schedule", "outside_hours", "touch_outside_hours", "presence", "cec"]
    package static let presenceKeys = ["device", "key"]
    package static let windowKeys = ["days", "on", "off"]

    /// The `power:` section. `on` and `off` in a window are read as the text written: a YAML 1.1
    /// reader would take the keys for booleans and `07:00` for a base-60 number; here they are times.
    package static func parsePower(_ section: ConfigSection) throws -> PowerSettings {
        var power = PowerSettings()
        if let node = section.value("schedule") {
            guard case .sequence(let list) = node else {
                throw section.error("schedule", node, "expected a list of windows such as {days: mon-fri, on: \"07:00\", off: \"19:30\"}, got \(ConfigSection.describe(node))")
            }
            guard !list.isEmpty else {
                throw section.error("schedule", node, "an empty schedule would keep the screen off for good; give at least one window, or leave schedule out")
            }
            guard list.count <= 64 else { throw section.error("schedule", node, "at most 64 windows, got \(list.count)") }
            var windows: [HoursWindow] = []
            for (i, element) in list.enumerated() {
                let window = try ConfigSection(file: section.file, path: "\(section.keyPath("schedule"))[\(i)]",
                                               node: element, known: windowKeys)
                windows.append(try parseWindow(window))
            }
            power.schedule = OpeningHours(windows)
        }
        if let presence = try section.section("presence", known: presenceKeys) {
            guard let device = try presence.name("device") else {
                throw section.error("presence", section.value("presence"), "needs a device: a path such as /dev/input/by-id/... or a device name")
            }
            let text = try presence.name("key") ?? "KEY_WAKEUP"
            guard let key = PowerSettings.Presence.keyNames[text] ?? UInt16(text).flatMap({ $0 > 0 && $0 < 0x300 ? $0 : nil }) else {
                let names = PowerSettings.Presence.keyNames.keys.sorted().joined(separator: ", ")
                throw presence.error("key", presence.value("key"), "expected a key code (1 to 767) or one of \(names), got '\(text)'")
            }
            power.presence = PowerSettings.Presence(device: device, key: key)
        }
        if let text = try section.name("cec") {
            if let flag = ConfigValues.bool(text) {
                power.cec = flag ? .first : nil
            } else if text.hasPrefix("/dev/cec"), Int(text.dropFirst(8)) != nil {
                power.cec = .path(text)
            } else {
                throw section.error("cec", section.value("cec"), "expected true, false or a CEC device such as /dev/cec0, got '\(text)'")
            }
        }
        if let outside = try section.choice("outside_hours", PowerSettings.OutsideHours.self) { power.outsideHours = outside }
        if let touch = try section.choice("touch_outside_hours", PowerSettings.TouchOutsideHours.self) {
            power.touchOutsideHours = touch
        }
        return power
    }

    private static func parseWindow(_ section: ConfigSection) throws -> HoursWindow {
        func required(_ key: String) throws -> YAMLNode {
            guard let node = section.value(key) else {
                throw ConfigError(file: section.file, line: section.node.line, key: section.keyPath(key),
                                  message: "missing; a window needs days, on and off")
            }
            return node
        }
        let daysNode = try required("days")
        var days: Set<Weekday> = []
        let words: [YAMLNode]
        if case .sequence(let list) = daysNode { words = Array(list) } else { words = [daysNode] }
        guard !words.isEmpty else { throw section.error("days", daysNode, "expected at least one day, got an empty list") }
        for word in words {
            guard case .scalar(let scalar) = word, let some = HoursWindow.days(scalar.string) else {
                throw section.error("days", word, "expected a day (mon, tue, wed, thu, fri, sat, sun), a range such as mon-fri or fri-mon, or a list of them; got \(ConfigSection.describe(word))")
            }
            days.formUnion(some)
        }
        var minutes: [Int] = []
        for key in ["on", "off"] {
            let node = try required(key)
            guard case .scalar(let scalar) = node, let m = HoursWindow.minutes(scalar.string, closing: key == "off") else {
                let range = key == "off" ? "00:00 to 24:00" : "00:00 to 23:59"
                throw section.error(key, node, "expected a time HH:MM from \(range), got \(ConfigSection.describe(node))")
            }
            minutes.append(m)
        }
        guard minutes[0] != minutes[1] else {
            throw section.error("off", section.value("off"), "the window is empty: on and off are the same time")
        }
        return HoursWindow(days: days, on: minutes[0], off: minutes[1])
    }
}
