import DialCore
import DialRender
import YAMLTree

/// The `items:` lists: the top ring's, and through any item's own `items:` the rings below it.
/// The tree's rules (ids unique among siblings, no empty child list, not too deep) are
/// `MenuTree.problems`; this reads the lists, keeps every item's lines, and words a problem at
/// its line and key path (`items[2].items[0].id`).
package struct ConfigItemReader {
    package let file: String
    package let maximumDepth: Int
    /// Items read so far, in all rings.
    private var count = 0
    /// Where each item stands in the file, by its indices (`[2, 0]` is `items[2].items[0]`).
    private var places: [[Int]: Place] = [:]
    /// Every `icon:` in document order, with its line and key, for the decoding budget.
    private var icons: [(path: String, line: Int?, key: String)] = []
    /// The first item key in document order that names broker topics (`live:`, or `value:`
    /// with a state, current or command topic), with its line: such a menu needs `mqtt:`.
    package private(set) var firstTopicUse: (line: Int?, key: String)?

    /// The lines of an item's id and of its `items:` list.
    private struct Place {
        var id: Int?
        var items: Int?
    }

    /// The configured languages (texts may be maps by them) and where missing translations go.
    package var languages = LanguageTable()
    package var warnings = ConfigWarnings()
    /// Where icons named by their SHA-256 (`icon: sha256:HEX`) are read from: a pushed
    /// configuration's blobs in the state folder. nil (a local file): such an icon is an error.
    package var blobDirectory: String?

    package init(file: String, maximumDepth: Int = MenuTree.defaultMaximumDepth) {
        self.file = file
        self.maximumDepth = maximumDepth
    }

    /// The menu of the document's `items:`; nil when the key is absent (the demo menu).
    package static func menu(of document: ConfigSection, languages: LanguageTable = LanguageTable(),
                             warnings: ConfigWarnings = ConfigWarnings(), blobDirectory: String? = nil) throws -> MenuTree? {
        try read(document, languages: languages, warnings: warnings, blobDirectory: blobDirectory).menu
    }

    /// The menu (nil when `items:` is absent) and the first item key that names broker topics.
    package static func read(_ document: ConfigSection, languages: LanguageTable = LanguageTable(),
                             warnings: ConfigWarnings = ConfigWarnings(), blobDirectory: String? = nil)
        throws -> (menu: MenuTree?, topicUse: (line: Int?, key: String)?) {
        guard let node = document.entryNode("items") else { return (nil, nil) }
        var reader = ConfigItemReader(file: document.file)
        reader.languages = languages
        reader.warnings = warnings
        reader.blobDirectory = blobDirectory
        let top = try reader.ring(node, key: "items", indices: [])
        let tree: MenuTree
        do {
            tree = try MenuTree(top, maximumDepth: reader.maximumDepth)
        } catch let error as MenuTreeError {
            throw reader.error(for: error.problems[0])
        }
        try reader.checkIconBudget()
        return (tree, reader.firstTopicUse)
    }

    /// A ring of items under another key (`lock.admin`), read and checked as `items:` is, as a
    /// menu of its own; problems are worded at `key` (`lock.admin[2].id`).
    package static func menu(at node: YAMLNode, key: String, file: String, languages: LanguageTable,
                             warnings: ConfigWarnings) throws -> MenuTree {
        var reader = ConfigItemReader(file: file)
        reader.languages = languages
        reader.warnings = warnings
        let top = try reader.ring(node, key: key, indices: [])
        do {
            return try MenuTree(top, maximumDepth: reader.maximumDepth)
        } catch let error as MenuTreeError {
            var located = reader.error(for: error.problems[0])
            located.key = located.key.map { $0.hasPrefix("items") ? key + $0.dropFirst("items".count) : $0 }
            throw located
        }
    }

    /// Refuses a menu whose icons' distinct files decode to more than `IconCache.pixelBudget`
    /// pixels (read from the PNG headers), at the icon that passes the budget: the painter's
    /// build at start and at each reload stays well inside the 10 s watchdog. Icons whose
    /// header cannot be read, or over the per-file limit, count 0 here; the painter reports them.
    private func checkIconBudget() throws {
        var seen = Set<IconCache.FileKey>()
        var total = 0
        var crossing: (line: Int?, key: String)?
        for icon in icons where seen.insert(IconCache.fileKey(icon.path)).inserted {
            total += IconCache.decodedPixels(icon.path)
            if total > IconCache.pixelBudget && crossing == nil { crossing = (icon.line, icon.key) }
        }
        guard let crossing else { return }
        let megapixels = (Double(total) / Double(1 << 20) * 10).rounded() / 10
        throw ConfigError(file: file, line: crossing.line, key: crossing.key,
                          message: "the menu's icons decode to \(megapixels) megapixels (\(total) pixels, each distinct "
                              + "file once), more than the budget of \(IconCache.pixelBudget >> 20) megapixels; this icon "
                              + "passes it (use smaller images, or the same file for several items)")
    }

    /// `items[2].items[0]` for indices [2, 0].
    package static func keyPath(_ indices: [Int]) -> String {
        indices.map { "items[\($0)]" }.joined(separator: ".")
    }

    /// The items of one list (`key` is its dotted key); `indices` are those of the item whose
    /// ring it is (empty for the top ring).
    private mutating func ring(_ node: YAMLNode, key: String, indices: [Int]) throws -> [MenuNode] {
        func fail(_ node: YAMLNode, _ key: String, _ message: String) -> ConfigError {
            ConfigError(file: file, line: node.line, key: key, message: message)
        }
        guard case .sequence(let sequence) = node else {
            throw fail(node, key, "expected a list of items (each a mapping with id, label, color), "
                       + "got \(ConfigSection.describe(node))")
        }
        // An empty list below the top is MenuTree's `emptyChildren`, reported with the others.
        if sequence.isEmpty && indices.isEmpty { throw fail(node, key, "the menu needs at least one item") }
        // A ring below the top has its back item in slot 0, so it takes one item fewer.
        let limit = indices.isEmpty ? ConfigLimits.items : ConfigLimits.items - 1
        if sequence.count > limit {
            let message = indices.isEmpty
                ? "the dial shows at most \(limit) items legibly; this list has \(sequence.count)"
                : "a ring below the top shows at most \(limit) items beside its back item; this list has \(sequence.count)"
            throw fail(sequence[limit], "\(key)[\(limit)]", message)
        }
        var nodes: [MenuNode] = []
        for (i, itemNode) in sequence.enumerated() {
            count += 1
            if count > ConfigLimits.totalItems {
                throw fail(itemNode, "\(key)[\(i)]", "a menu holds at most \(ConfigLimits.totalItems) items in all its "
                           + "rings together; this is item \(count) in document order")
            }
            nodes.append(try item(itemNode, key: "\(key)[\(i)]", index: i, indices: indices + [i]))
        }
        return nodes
    }

    private mutating func item(_ node: YAMLNode, key: String, index: Int, indices: [Int]) throws -> MenuNode {
        let item = try ConfigSection(file: file, path: key, node: node, known: ConfigParser.itemKeys)
        guard let id = try item.string("id") else {
            throw ConfigError(file: file, line: node.line, key: item.keyPath("id"), message: "every item needs an id")
        }
        guard ConfigValues.isValidID(id) else {
            throw item.error("id", item.value("id"), "expected letters, digits, '-', '_' or '.' (at most 64), got '\(id)'")
        }
        let childrenNode = item.entryNode("items")
        places[indices] = Place(id: item.value("id")?.line, items: item.keyLine("items"))
        let label = try item.localized("label", languages: languages, warnings: warnings) ?? LocalizedText(id)
        let color = try item.color("color") ?? DemoMenu.paletteColor(index)
        var icon = try item.name("icon")
        if let named = icon, named.hasPrefix(ConfigParser.blobPrefix) {
            let hex = named.dropFirst(ConfigParser.blobPrefix.count)
            guard ConfigParser.isSHA256(hex) else {
                throw item.error("icon", item.value("icon"), "expected 'sha256:' and the 64 lower-case hex digits of the icon file's SHA-256, got '\(named)'")
            }
            guard let blobDirectory else {
                throw item.error("icon", item.value("icon"), "an icon named by its SHA-256 comes only with a pushed configuration "
                                 + "(fleet); in a local file name its absolute path")
            }
            icon = blobDirectory + "/" + hex
        }
        if let icon, !icon.hasPrefix("/") {
            throw item.error("icon", item.value("icon"), "expected an absolute path to a PNG file, got '\(icon)'")
        }
        if let icon { icons.append((icon, item.value("icon")?.line, item.keyPath("icon"))) }
        let command = try item.argv("command")
        let timeout = try item.number("timeout_seconds", where: { $0 >= 1 && $0 <= 86_400 }, "of seconds between 1 and 86400")
        var menuItem = MenuItem(id: id, label: label.base, color: color, iconPath: icon, command: command, commandTimeout: timeout)
        let description = try item.localized("description", languages: languages, warnings: warnings,
                                             maximumCharacters: ConfigLimits.descriptionCharacters)
        let speech = try item.localized("speech", languages: languages, warnings: warnings)
        let ringSpeech = try item.localized("ring_speech", languages: languages, warnings: warnings)
        menuItem.description = description?.base
        menuItem.speech = speech?.base
        menuItem.ringSpeech = ringSpeech?.base
        menuItem.live = try item.liveBinding()
        menuItem.value = try item.valueSettings()
        if firstTopicUse == nil {
            let value = menuItem.value
            if menuItem.live != nil {
                firstTopicUse = (item.keyLine("live"), item.keyPath("live"))
            } else if value?.stateTopic != nil || value?.currentTopic != nil || value?.commandTopic != nil {
                firstTopicUse = (item.keyLine("value"), item.keyPath("value"))
            }
        }
        // The default language too, so a menu shown in another language can go back to it.
        for language in languages.languages {
            let code = language.code
            menuItem.translations[code] = ItemTexts(label: label.text(in: code), description: description?.text(in: code),
                                                    speech: speech?.text(in: code), ringSpeech: ringSpeech?.text(in: code))
        }
        if try item.bool("languages") == true {
            if childrenNode != nil {
                throw item.error("languages", item.value("languages"), "an item whose ring lists the languages has no 'items' of its own")
            }
            return MenuNode(menuItem, children: try languageRing(item, indices: indices))
        }
        guard let childrenNode else { return MenuNode(menuItem) }
        // This item sits on ring level `indices.count` (the top is 1); its ring is one deeper.
        // Refused before reading further, so the reading stays as deep as the limit.
        if indices.count + 1 > maximumDepth {
            throw error(for: MenuTreeProblem(.tooDeep(limit: maximumDepth), path: [], indices: indices))
        }
        // `items:` with nothing after it is an empty list, not a leaf.
        let children = item.value("items") == nil ? [] : try ring(childrenNode, key: item.keyPath("items"), indices: indices)
        return MenuNode(menuItem, children: children)
    }

    /// The ring of a `languages: true` item: one item per configured language, its own name as
    /// the label, choosing it switches to it.
    private mutating func languageRing(_ item: ConfigSection, indices: [Int]) throws -> [MenuNode] {
        guard !languages.languages.isEmpty else {
            throw item.error("languages", item.value("languages"), "'languages: true' lists the configured languages, "
                             + "but the file has no 'languages:' list")
        }
        if indices.count + 1 > maximumDepth {
            throw error(for: MenuTreeProblem(.tooDeep(limit: maximumDepth), path: [], indices: indices))
        }
        if languages.languages.count == 1 {
            warnings.add(file: file, line: item.value("languages")?.line, key: item.keyPath("languages"),
                         "only one language is configured, so this ring offers no choice")
        }
        return languages.languages.enumerated().map { i, language in
            var choice = MenuItem(id: language.code, label: language.name, color: DemoMenu.paletteColor(i))
            choice.languageCode = language.code
            return MenuNode(choice)
        }
    }

    /// A tree problem at its item's line and key, in the words of a configuration error.
    package func error(for problem: MenuTreeProblem) -> ConfigError {
        let item = Self.keyPath(problem.indices)
        let place = places[problem.indices]
        switch problem.kind {
        case .emptyChildren:
            return ConfigError(file: file, line: place?.items, key: item + ".items",
                               message: "the list of items is empty; leave out 'items' for an item without a ring of its own")
        case .tooDeep(let limit):
            return ConfigError(file: file, line: place?.items, key: item + ".items",
                               message: "nesting too deep: at most \(limit) rings, counting the top one")
        case .duplicateID(let firstIndex):
            let first = places[problem.indices.dropLast() + [firstIndex]]?.id
            return ConfigError(file: file, line: place?.id, key: item + ".id",
                               message: "duplicate item id '\(problem.path.last ?? "")'"
                                   + (first.map { " (first used on line \($0))" } ?? ""))
        case .invalidID:
            return ConfigError(file: file, line: place?.id, key: item + ".id",
                               message: "'\(problem.path.last ?? "")' cannot be an item id: '.' and '..' would break "
                                   + "paths such as drinks/coffee")
        }
    }
}
