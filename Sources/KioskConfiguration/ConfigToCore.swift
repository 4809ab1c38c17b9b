import DialCore

/// The configuration in DialCore's terms: what the run loop passes to `Dial` and the painter.
extension KioskConfig {
    /// The top ring's item at 12 o'clock at start (and the one `return_after_seconds` turns
    /// back to): the default item's, or the top ring's item on the way down to it.
    package var defaultIndex: Int {
        guard let id = defaultPath?.ids.first else { return 0 }
        return items.firstIndex { $0.id == id } ?? 0
    }

    /// `behaviour.default_item` as a path (`coffee`, `drinks/coffee`); nil when not set.
    package var defaultPath: MenuPath? { behaviour.defaultItem.flatMap(MenuPath.init(parsing:)) }

    /// The index of the item with `id` (for `select <id>`), or nil.
    package func index(ofItem id: String) -> Int? { items.firstIndex { $0.id == id } }

    /// Whether the dial starts collapsed into the hub.
    package var startsHidden: Bool { behaviour.start == .collapsed }
}

extension MenuTree {
    /// Every item of every ring with its path and its place (`indices` [2, 0] is the file's
    /// `items[2].items[0]`), depth first in document order (a parent before its children): for
    /// item commands, icons and checks that concern all rings.
    package var everyItem: [(path: MenuPath, indices: [Int], item: MenuItem)] {
        var out: [(path: MenuPath, indices: [Int], item: MenuItem)] = []
        func visit(_ nodes: [MenuNode], ring: MenuPath, indices: [Int]) {
            for (i, node) in nodes.enumerated() {
                let path = ring.appending(node.id)
                out.append((path, indices + [i], node.item))
                if let children = node.children { visit(children, ring: path, indices: indices + [i]) }
            }
        }
        visit(top, ring: .top, indices: [])
        return out
    }
}
