import DialCore
import YAMLTree

/// The `lock:` section: a kiosk locked by default, whose admin menu is reached only with the
/// PIN (docs/lockdown.md). `allow:` names what still works while locked; every other item shows
/// and does nothing.
package struct LockSettings: Sendable, Equatable {
    /// The PIN file `dialkiosk lock set-pin` writes (root-owned, mode 0640).
    package var pinFile: String = "/etc/dialkiosk/pin"
    /// The items and rings usable while locked, as paths of the menu (an id in `allow:` names
    /// every item with that id; a ring's path allows the ring to open, not its items).
    package var allow: [MenuPath] = []
    /// The admin menu, reached after the PIN; nil: the lock's own (reload, screen, language, exit).
    package var admin: MenuTree?
    /// Seconds without input after which an unlocked kiosk locks again.
    package var relockAfterSeconds: Double = 60
    /// Seconds a finger must stay on the hub to open the PIN ring.
    package var holdSeconds: Double = 3

    package init() {}
}

extension ConfigParser {
    package static let lockKeys = ["pin_file", "allow", "admin", "relock_after_seconds", "hold_seconds"]

    package static func parseLock(_ section: ConfigSection, menu: MenuTree, languages: LanguageTable,
                                  warnings: ConfigWarnings) throws -> LockSettings {
        var lock = LockSettings()
        if let file = try section.name("pin_file", maximumBytes: 4096) {
            guard file.hasPrefix("/"), ConfigLimits.controlCharacter(in: file) == nil else {
                throw section.error("pin_file", section.value("pin_file"), "expected an absolute path such as /etc/dialkiosk/pin, got '\(file)'")
            }
            lock.pinFile = file
        }
        if let node = section.value("allow") { lock.allow = try allowed(node, key: section.keyPath("allow"), file: section.file, menu: menu) }
        if let node = section.entryNode("admin") {
            lock.admin = try ConfigItemReader.menu(at: node, key: section.keyPath("admin"), file: section.file,
                                                   languages: languages, warnings: warnings)
        }
        if let s = try section.number("relock_after_seconds", where: { $0 >= 5 && $0 <= 86_400 }, "of seconds between 5 and 86400") {
            lock.relockAfterSeconds = s
        }
        if let s = try section.number("hold_seconds", where: { $0 >= 1 && $0 <= 30 }, "of seconds between 1 and 30") {
            lock.holdSeconds = s
        }
        return lock
    }

    /// `allow:`'s entries as paths: an id names every item of the menu with that id, a path
    /// (`help/security`) the one item or ring it names. One naming nothing is refused at its line.
    static func allowed(_ node: YAMLNode, key: String, file: String, menu: MenuTree) throws -> [MenuPath] {
        guard case .sequence(let list) = node else {
            throw ConfigError(file: file, line: node.line, key: key,
                              message: "expected a list of item ids or ring paths, got \(ConfigSection.describe(node))")
        }
        var everyItem: [MenuPath] = []
        for ring in menu.ringPaths {
            for child in menu.items(ofRing: ring) ?? [] { everyItem.append(ring.appending(child.id)) }
        }
        var out: [MenuPath] = []
        for (i, element) in list.enumerated() {
            let at = "\(key)[\(i)]"
            guard case .scalar(let scalar) = element, !scalar.string.isEmpty, scalar.string.utf8.count <= 1024 else {
                throw ConfigError(file: file, line: element.line, key: at,
                                  message: "expected an item id or a ring path such as help/security, got \(ConfigSection.describe(element))")
            }
            let text = scalar.string
            let named: [MenuPath]
            if text.contains("/") {
                named = MenuPath(parsing: text).flatMap { menu.node(at: $0) != nil && !$0.isBack ? [$0] : nil } ?? []
            } else {
                named = everyItem.filter { $0.last == text }
            }
            guard !named.isEmpty else {
                throw ConfigError(file: file, line: element.line, key: at,
                                  message: "'\(text)' names no item of the menu (an item id, or a path such as help/security)")
            }
            for path in named where !out.contains(path) { out.append(path) }
        }
        return out
    }
}
