import DialCore
import Testing
@testable import KioskRuntime
@testable import KioskConfiguration
import KioskTestSupport

/// Any item may have `items:`, a ring of its own. The tree's rules are
/// MenuTree's; each broken rule is one located line (file, line, key path) and status 78.
@Suite struct NestedConfigTests {
    static let twoLevels = """
        items:
          - id: drinks
            label: Drinks
            items:
              - id: coffee
                label: Coffee
                command: [/bin/true]
              - id: tea
          - id: help
            command: [/bin/echo, help]
            timeout_seconds: 5
        behaviour:
          default_item: drinks/tea
        """

    private func message(_ text: String) -> String { configErrorMessage(text, file: "menu.yaml") }

    /// A chain of `rings` rings, one item each (`l1`, `l2`...): item k is on line 2k and its
    /// `items:` on line 2k + 1.
    static func chain(rings: Int) -> String {
        var text = "items:\n", indent = "  "
        for level in 1...rings {
            text += indent + "- id: l\(level)\n"
            if level < rings {
                text += indent + "  items:\n"
                indent += "    "
            }
        }
        return text
    }

    @Test func itemsMayHaveRingsOfTheirOwn() throws {
        let config = try ConfigParser.parse(Self.twoLevels, file: "menu.yaml")
        #expect(config.items.map(\.id) == ["drinks", "help"])
        let menu = config.menu
        #expect(menu.ringPaths == [.top, ["drinks"]])
        #expect(menu.items(ofRing: ["drinks"])?.map(\.id) == ["coffee", "tea"])
        #expect(menu.node(at: ["drinks", "coffee"])?.item.command == ["/bin/true"])
        #expect(menu.node(at: ["drinks", "tea"])?.item.label == "tea")
        // Default colours come from the palette by position in the item's own ring.
        #expect(menu.node(at: ["drinks", "tea"])?.item.color == DemoMenu.paletteColor(1))
        #expect(menu.node(at: ["help"])?.item.commandTimeout == 5)
        #expect(menu.node(at: ["drinks"])?.item.command == nil)
        #expect(config.defaultPath == ["drinks", "tea"])
        #expect(config.defaultIndex == 0)
        #expect(menu.everyItem.map(\.path.description) == ["drinks", "drinks/coffee", "drinks/tea", "help"])
        #expect(ConfigSummary.line(config, file: "menu.yaml")
                .hasPrefix("menu.yaml: OK: 2 items on the top ring, 4 in 2 rings; 2 with a command; default 'drinks/tea';"))
    }

    /// A file without `items:` inside items parses exactly as it always has: the same value as
    /// the items set in code, and a one-ring menu.
    @Test func aFlatMenuParsesAsBefore() throws {
        let config = try ConfigParser.parse("items:\n  - {id: a, command: [/bin/true]}\n  - id: b\n", file: "flat.yaml")
        var expected = KioskConfig()
        expected.items = [MenuItem(id: "a", label: "a", color: DemoMenu.paletteColor(0), command: ["/bin/true"]),
                          MenuItem(id: "b", label: "b", color: DemoMenu.paletteColor(1))]
        #expect(config == expected)
        let flat = try MenuTree(flat: expected.items)
        #expect(config.menu == flat)
        #expect(config.menu.ringPaths == [.top])
        #expect(ConfigSummary.line(config, file: "flat.yaml").hasPrefix("flat.yaml: OK: 2 items; 1 with a command; default 'a';"))
    }

    /// Setting the top ring in code (`--items N`) drops the rings the file had below it.
    @Test func settingItemsMakesTheMenuFlat() throws {
        var config = try ConfigParser.parse(Self.twoLevels, file: "menu.yaml")
        config.items = DemoMenu.numbered(3)
        let numbered = try MenuTree(flat: DemoMenu.numbered(3))
        #expect(config.menu == numbered)
        #expect(config == KioskConfig(items: DemoMenu.numbered(3), behaviour: config.behaviour))
    }

    @Test func fourLevelsAndTheDepthLimitWork() throws {
        #expect(try ConfigParser.parse(Self.chain(rings: 4), file: "c.yaml").menu.ringPaths.count == 4)
        let deepest = try ConfigParser.parse(Self.chain(rings: MenuTree.defaultMaximumDepth), file: "c.yaml")
        #expect(deepest.menu.node(at: MenuPath((1...8).map { "l\($0)" })) != nil)
        let key = Array(repeating: "items[0]", count: 8).joined(separator: ".") + ".items"
        #expect(message(Self.chain(rings: 9)) == "menu.yaml:17: \(key): nesting too deep: at most 8 rings, counting the top one")
    }

    @Test func treeProblemsAreLocated() {
        #expect(message("items:\n  - id: a\n    items: []\n")
                == "menu.yaml:3: items[0].items: the list of items is empty; leave out 'items' for an item without a ring of its own")
        #expect(message("items:\n  - id: a\n  - id: b\n    items:\n").hasPrefix("menu.yaml:4: items[1].items: the list of items is empty"))
        #expect(message("items:\n  - id: a\n    items:\n      - id: x\n      - id: y\n      - id: x\n")
                == "menu.yaml:6: items[0].items[2].id: duplicate item id 'x' (first used on line 4)")
        // The same id in two rings is fine: paths tell them apart.
        #expect(message("items:\n  - id: a\n    items:\n      - id: a\n") == "parsed without error")
        #expect(message("items:\n  - id: a\n    items:\n      - id: \"..\"\n")
                == "menu.yaml:4: items[0].items[0].id: '..' cannot be an item id: '.' and '..' would break paths such as drinks/coffee")
        #expect(message("items:\n  - id: .\n").hasPrefix("menu.yaml:2: items[0].id: '.' cannot be an item id"))
        #expect(message("items:\n  - id: a/b\n").hasPrefix("menu.yaml:2: items[0].id: expected letters, digits"))
        #expect(message("items:\n  - id: a\n    items: {id: b}\n")
                .hasPrefix("menu.yaml:3: items[0].items: expected a list of items (each a mapping with id, label, color), got a mapping"))
        #expect(message("items:\n  - id: a\n    items:\n      - id: b\n        color: red\n")
                == "menu.yaml:5: items[0].items[0].color: expected #RRGGBB, got 'red'")
        #expect(message("items:\n  - id: a\n    items:\n      - id: b\n        itemz: []\n")
                .hasPrefix("menu.yaml:5: items[0].items[0].itemz: unknown key (did you mean 'items'?)"))
    }

    /// 64 slots a ring: the top ring's 64 items, or 63 and the back item below it; 512 items in
    /// all, refused at the first item over, before it is read.
    @Test func ringAndTotalLimits() {
        func ring(_ id: String, _ count: Int, indent: String = "  ") -> String {
            "\(indent)- id: \(id)\n\(indent)  items:\n" + (0..<count).map { "\(indent)    - id: x\($0)\n" }.joined()
        }
        #expect(message("items:\n" + ring("a", 63)) == "parsed without error")
        #expect(message("items:\n" + ring("a", 64))
                == "menu.yaml:67: items[0].items[63]: a ring below the top shows at most 63 items beside its back item; this list has 64")
        // 8 rings of 63 and their 8 items: 512 exactly; one more item anywhere is too many.
        let full = "items:\n" + (0..<8).map { ring("r\($0)", 63) }.joined()
        #expect(message(full) == "parsed without error")
        #expect(message(full + "  - id: one-more\n")
                == "menu.yaml:\(1 + 8 * 65 + 1): items[8]: a menu holds at most 512 items in all its rings together; "
                + "this is item 513 in document order")
    }

    /// A default path opens its rings at start; `return_after_seconds` goes to the top ring, on
    /// the top item on the way to it.
    @Test func aDefaultPathIsWhereTheDialStarts() throws {
        let config = try ConfigParser.parse(Self.twoLevels, file: "m.yaml")
        let dial = DialSetup(config: config, width: 800, height: 480).makeDial()
        #expect(dial.ring == ["drinks"])
        #expect(dial.selectedPath == ["drinks", "tea"])
        _ = dial.returnToTop(at: 1)
        #expect(dial.ring == .top)
        #expect(dial.selectedPath == ["drinks"])
        var top = config
        top.behaviour.defaultItem = "help"
        #expect(DialSetup(config: top, width: 800, height: 480).makeDial().selectedPath == ["help"])
    }

    /// YAML aliases repeat a list without repeating its text: eight items, then rings of
    /// eight items each holding the previous list, six times over, would be 8^7 items. The
    /// count stops the reading at item 513 (the line is the anchored list's).
    @Test func aliasesCannotMultiplyItemsPastTheLimit() {
        var text = "items:\n  - id: p0\n    items: &l0 [" + (0..<8).map { "{id: a\($0)}" }.joined(separator: ", ") + "]\n"
        for i in 1..<7 {
            text += "  - id: p\(i)\n    items: &l\(i) [" + (0..<8).map { "{id: x\($0), items: *l\(i - 1)}" }.joined(separator: ", ") + "]\n"
        }
        #expect(message(text) == "menu.yaml:5: items[2].items[5].items[7]: a menu holds at most 512 items in all its rings "
                + "together; this is item 513 in document order")
    }

    @Test func defaultItemMayBeAPath() throws {
        #expect(try ConfigParser.parse(Self.twoLevels, file: "m.yaml").behaviour.defaultItem == "drinks/tea")
        let menu = Self.twoLevels.replacingOccurrences(of: "  default_item: drinks/tea", with: "")
        func defaultItem(_ value: String) -> String {
            message(menu + "  default_item: \(value)\n")
        }
        #expect(defaultItem("help") == "parsed without error")
        #expect(defaultItem("drinks") == "parsed without error")
        #expect(defaultItem("drinks/cofee") == "menu.yaml:13: behaviour.default_item: ring 'drinks' has no item 'cofee'; its ids: coffee, tea")
        #expect(defaultItem("food/x") == "menu.yaml:13: behaviour.default_item: no item has the id 'food'; ids: drinks, help")
        #expect(defaultItem("help/x") == "menu.yaml:13: behaviour.default_item: item 'help' opens no ring, so 'help/x' names nothing")
        #expect(defaultItem("drinks/..").hasPrefix("menu.yaml:13: behaviour.default_item: expected an item id or a path of ids"))
        #expect(defaultItem("drinks//tea").hasPrefix("menu.yaml:13: behaviour.default_item: expected an item id or a path of ids"))
    }
}
