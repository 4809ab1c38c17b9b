/// Menus inside menus: the items of every ring, each item named by its path of ids from the top
/// (`drinks/coffee/large`). Plain data with lookups; moving through it is `MenuNavigation`.

/// An item's or a ring's name: the ids from the top ring down. The top ring is the empty path;
/// a ring below it is named by the item that opens it.
public struct MenuPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// The id of every ring's back item (the first slot of each ring below the top). Not a valid
    /// item id, so it never names an item: `drinks/..` is the back item of ring `drinks`.
    public static let backID = ".."
    /// The top ring.
    public static let top = MenuPath([])

    public var ids: [String]

    public init(_ ids: [String]) { self.ids = ids }
    public init(arrayLiteral ids: String...) { self.ids = ids }

    /// `drinks/coffee` as a path; nil when a component is empty (`a//b`, a leading or trailing
    /// slash, or the empty text: the top ring is not something one selects).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else { return nil }
        ids = parts
    }

    /// `drinks/coffee`; the top ring is the empty text.
    public var description: String { ids.joined(separator: "/") }

    public var depth: Int { ids.count }
    public var isTop: Bool { ids.isEmpty }
    /// The last id, the item's own; nil for the top ring.
    public var last: String? { ids.last }
    /// The ring this item sits on (the top ring's parent is the top ring).
    public var parent: MenuPath { MenuPath(Array(ids.dropLast())) }
    /// Whether this names a ring's back item.
    public var isBack: Bool { ids.last == MenuPath.backID }

    public func appending(_ id: String) -> MenuPath { MenuPath(ids + [id]) }

    /// Whether `self` is `other` or one of the rings above it.
    public func isPrefix(of other: MenuPath) -> Bool {
        ids.count <= other.ids.count && zip(ids, other.ids).allSatisfy { $0 == $1 }
    }

    /// The rings from the first below the top down to `self`: `a`, `a/b`, `a/b/c` for `a/b/c`.
    public var prefixes: [MenuPath] {
        ids.indices.map { MenuPath(Array(ids[...$0])) }
    }

    /// The longest path that is a prefix of both.
    public func commonPrefix(with other: MenuPath) -> MenuPath {
        MenuPath(Array(zip(ids, other.ids).prefix(while: { $0 == $1 }).map(\.0)))
    }
}

/// One item and, when it opens a ring of its own, that ring's items.
public struct MenuNode: Sendable, Equatable {
    public var item: MenuItem
    /// The items of the ring this item opens; nil for a leaf. An empty list is a problem
    /// (`MenuTreeProblem.Kind.emptyChildren`), not a leaf.
    public var children: [MenuNode]?

    public init(_ item: MenuItem, children: [MenuNode]? = nil) {
        self.item = item
        self.children = children
    }

    public var id: String { item.id }
    public var opensRing: Bool { children != nil }
}

/// Something wrong with a menu tree, located by the path of ids and by the position of the
/// offending item (`indices` [2, 0] is `items[2].items[0]`), so the configuration can name the
/// line; the path alone is ambiguous when the problem is a duplicate id.
public struct MenuTreeProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The item has an `items:` list with nothing in it.
        case emptyChildren
        /// The item's ring would be deeper than `limit` rings (the top ring is level 1).
        case tooDeep(limit: Int)
        /// A sibling before this one (at index `firstIndex` of the same ring) has the same id.
        case duplicateID(firstIndex: Int)
        /// The id cannot name a path component: empty, `.`, `..` or containing `/`.
        case invalidID
    }

    public var kind: Kind
    public var path: MenuPath
    public var indices: [Int]

    public init(_ kind: Kind, path: MenuPath, indices: [Int]) {
        self.kind = kind
        self.path = path
        self.indices = indices
    }

    public var description: String {
        let name = path.description.oneLine()
        switch kind {
        case .emptyChildren: return "\(name): the item's list of items is empty (leave out 'items' for an item without a ring)"
        case .tooDeep(let limit): return "\(name): nesting too deep: at most \(limit) rings, counting the top one"
        case .duplicateID(let first): return "\(name): duplicate id among its siblings (first used by item \(first + 1) of that ring)"
        case .invalidID: return "\(name): an id must not be empty, '.', '..' or contain '/' (it names a path)"
        }
    }
}

/// A menu tree that failed validation: every problem found, in document order.
public struct MenuTreeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [MenuTreeProblem]
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// A validated menu: ids unique among siblings, no empty child list, at most `maximumDepth`
/// rings deep. Immutable; a reload builds a new one.
public struct MenuTree: Sendable, Equatable {
    /// Rings one can nest by default (the issue asks for at least 4). Deeper is a configuration
    /// mistake (a YAML alias nesting a list inside itself, say), not a menu a person can use.
    public static let defaultMaximumDepth = 8

    /// The items of the top ring.
    public let top: [MenuNode]
    public let maximumDepth: Int

    /// Validates `top`; throws `MenuTreeError` with every problem.
    public init(_ top: [MenuNode], maximumDepth: Int = MenuTree.defaultMaximumDepth) throws {
        let problems = MenuTree.problems(in: top, maximumDepth: maximumDepth)
        guard problems.isEmpty else { throw MenuTreeError(problems: problems) }
        self.top = top
        self.maximumDepth = maximumDepth
    }

    /// The menu without items.
    public static let empty = MenuTree(validated: [], maximumDepth: defaultMaximumDepth)

    private init(validated top: [MenuNode], maximumDepth: Int) {
        self.top = top
        self.maximumDepth = maximumDepth
    }

    /// A single ring, as a menu without nesting has always been.
    public init(flat items: [MenuItem]) throws {
        try self.init(items.map { MenuNode($0) })
    }

    /// Every problem of `top`, in document order (a parent before its children). Below an item
    /// already too deep nothing more is reported.
    public static func problems(in top: [MenuNode], maximumDepth: Int = MenuTree.defaultMaximumDepth) -> [MenuTreeProblem] {
        var problems: [MenuTreeProblem] = []
        func visit(_ nodes: [MenuNode], ring: MenuPath, indices: [Int]) {
            var firstIndex: [String: Int] = [:]
            for (i, node) in nodes.enumerated() {
                let path = ring.appending(node.id), at = indices + [i]
                if node.id.isEmpty || node.id == "." || node.id == MenuPath.backID || node.id.contains("/") {
                    problems.append(MenuTreeProblem(.invalidID, path: path, indices: at))
                }
                if let first = firstIndex[node.id] {
                    problems.append(MenuTreeProblem(.duplicateID(firstIndex: first), path: path, indices: at))
                } else {
                    firstIndex[node.id] = i
                }
                guard let children = node.children else { continue }
                // The item sits on ring level `path.depth`; its own ring is one level deeper.
                if path.depth + 1 > maximumDepth {
                    problems.append(MenuTreeProblem(.tooDeep(limit: maximumDepth), path: path, indices: at))
                } else if children.isEmpty {
                    problems.append(MenuTreeProblem(.emptyChildren, path: path, indices: at))
                } else {
                    visit(children, ring: path, indices: at)
                }
            }
        }
        visit(top, ring: .top, indices: [])
        return problems
    }

    // MARK: - Lookups

    /// The item at `path`; nil for the top ring, a back item or a path that names nothing.
    public func node(at path: MenuPath) -> MenuNode? {
        guard let last = path.last else { return nil }
        return items(ofRing: path.parent)?.first { $0.id == last }
    }

    /// The items of ring `ring`; nil when no item of that path opens a ring.
    public func items(ofRing ring: MenuPath) -> [MenuNode]? {
        var nodes = top
        for id in ring.ids {
            guard let next = nodes.first(where: { $0.id == id })?.children else { return nil }
            nodes = next
        }
        return nodes
    }

    /// What ring `ring` shows, in slot order: below the top the back item first, then the items.
    /// Slot `i` is item `i` of the dial that paints the ring.
    public func slots(ofRing ring: MenuPath) -> [MenuPath]? {
        guard let nodes = items(ofRing: ring) else { return nil }
        let back = ring.isTop ? [] : [ring.appending(MenuPath.backID)]
        return back + nodes.map { ring.appending($0.id) }
    }

    /// Every ring's back item, as the dial turns it and the painter draws it (a neutral grey,
    /// so it never passes for one of the configured items).
    public static let backItem = MenuItem(id: MenuPath.backID, label: "Back", color: RGBColor(hex: 0x5A6472))

    /// What ring `ring` shows, in slot order (`slots(ofRing:)`), as items: below the top
    /// `backItem` first.
    public func slotItems(ofRing ring: MenuPath) -> [MenuItem]? {
        guard let nodes = items(ofRing: ring) else { return nil }
        return (ring.isTop ? [] : [MenuTree.backItem]) + nodes.map(\.item)
    }

    /// The place of item `path` among its ring's configured items (events' `index`); nil for a
    /// back item or a path that names nothing.
    public func index(of path: MenuPath) -> Int? {
        guard let last = path.last, !path.isBack else { return nil }
        return items(ofRing: path.parent)?.firstIndex { $0.id == last }
    }

    /// The most slots any ring shows (a ring's back item counted).
    public var largestRing: Int {
        ringPaths.map { slots(ofRing: $0)?.count ?? 0 }.max() ?? 0
    }

    /// Whether `path` names a slot: an item, or the back item of a ring below the top.
    public func isSlot(_ path: MenuPath) -> Bool {
        guard !path.isTop else { return false }
        return path.isBack ? !path.parent.isTop && items(ofRing: path.parent) != nil : node(at: path) != nil
    }

    /// Every ring, the top first, then depth first in document order.
    public var ringPaths: [MenuPath] {
        var rings: [MenuPath] = [.top]
        func visit(_ nodes: [MenuNode], ring: MenuPath) {
            for node in nodes {
                guard let children = node.children else { continue }
                rings.append(ring.appending(node.id))
                visit(children, ring: ring.appending(node.id))
            }
        }
        visit(top, ring: .top)
        return rings
    }

    /// The same menu with every item's texts in `language` (`MenuItem.translated(to:)`).
    public func translated(to language: String?) -> MenuTree {
        guard let language else { return self }
        func map(_ nodes: [MenuNode]) -> [MenuNode] {
            nodes.map { MenuNode($0.item.translated(to: language), children: $0.children.map(map)) }
        }
        return MenuTree(validated: map(top), maximumDepth: maximumDepth)
    }
}
