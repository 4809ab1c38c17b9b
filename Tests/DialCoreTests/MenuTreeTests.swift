import Testing
@testable import DialCore

/// Menus for the nested-menu tests: a coffee machine four rings deep.
enum MenuFixture {
    static func node(_ id: String, command: [String]? = nil, _ children: [MenuNode]? = nil) -> MenuNode {
        MenuNode(MenuItem(id: id, label: id.capitalized, color: RGBColor(hex: 0x808080), command: command),
                 children: children)
    }

    /// top: drinks, snacks (a ring and a command), help (a leaf with a command)
    /// drinks: coffee, tea;  drinks/coffee: small, large;  drinks/coffee/large: oat, whole
    /// snacks: cake, cookie
    static let nodes: [MenuNode] = [
        node("drinks", [
            node("coffee", [
                node("small"),
                node("large", [node("oat"), node("whole")]),
            ]),
            node("tea"),
        ]),
        node("snacks", command: ["/usr/bin/true"], [node("cake"), node("cookie")]),
        node("help", command: ["/usr/bin/true"]),
    ]

    static var tree: MenuTree { try! MenuTree(nodes) }

    /// A chain of `rings` rings: `l1` opens `l2` ... down to a leaf on the last ring.
    static func chain(rings: Int) -> [MenuNode] {
        var nodes = [node("l\(rings)")]
        for level in stride(from: rings - 1, through: 1, by: -1) { nodes = [node("l\(level)", nodes)] }
        return nodes
    }

    static func problems(_ nodes: [MenuNode], maximumDepth: Int = MenuTree.defaultMaximumDepth) -> [MenuTreeProblem] {
        #expect(throws: MenuTreeError.self) { try MenuTree(nodes, maximumDepth: maximumDepth) }
        return MenuTree.problems(in: nodes, maximumDepth: maximumDepth)
    }
}

/// An item without a command, for short trees in the tests below.
private func n(_ id: String, _ children: [MenuNode]? = nil) -> MenuNode { MenuFixture.node(id, children) }

@Suite struct MenuPathTests {
    @Test func parsesAndPrintsSlashSeparatedIDs() {
        #expect(MenuPath(parsing: "drinks/coffee/large") == ["drinks", "coffee", "large"])
        #expect(MenuPath(parsing: "help") == ["help"])
        #expect(MenuPath(["drinks", "coffee"]).description == "drinks/coffee")
        for bad in ["", "/", "/drinks", "drinks/", "drinks//coffee"] {
            #expect(MenuPath(parsing: bad) == nil, "'\(bad)'")
        }
    }

    @Test func prefixesParentAndCommonPrefix() {
        let p: MenuPath = ["a", "b", "c"]
        #expect(p.prefixes == [["a"], ["a", "b"], ["a", "b", "c"]])
        #expect(MenuPath.top.prefixes.isEmpty)
        #expect(p.parent == ["a", "b"])
        #expect(MenuPath.top.parent == .top)
        #expect(p.commonPrefix(with: ["a", "x", "c"]) == ["a"])
        #expect(p.commonPrefix(with: ["x"]) == .top)
        #expect(MenuPath(["a"]).isPrefix(of: p) && !p.isPrefix(of: ["a"]))
        #expect(MenuPath(["a", ".."]).isBack && !p.isBack)
    }
}

@Suite struct MenuTreeTests {
    @Test func namesItemsByPathFourRingsDeep() throws {
        let tree = MenuFixture.tree
        #expect(tree.node(at: ["drinks", "coffee", "large", "oat"])?.item.label == "Oat")
        #expect(tree.node(at: ["drinks", "coffee", "large"])?.opensRing == true)
        #expect(tree.node(at: ["drinks", "tea"])?.opensRing == false)
        #expect(tree.node(at: ["drinks", "milk"]) == nil)
        #expect(tree.node(at: ["tea"]) == nil)
        #expect(tree.node(at: .top) == nil)
        #expect(tree.ringPaths == [.top, ["drinks"], ["drinks", "coffee"], ["drinks", "coffee", "large"], ["snacks"]])
    }

    @Test func ringsBelowTheTopStartWithTheirBackItem() {
        let tree = MenuFixture.tree
        #expect(tree.slots(ofRing: .top) == [["drinks"], ["snacks"], ["help"]])
        #expect(tree.slots(ofRing: ["drinks"]) == [["drinks", ".."], ["drinks", "coffee"], ["drinks", "tea"]])
        #expect(tree.slots(ofRing: ["drinks", "tea"]) == nil)
        #expect(tree.slots(ofRing: ["nothing"]) == nil)
        #expect(tree.isSlot(["drinks", ".."]))
        #expect(tree.isSlot(["drinks", "coffee", "large", "whole"]))
        #expect(!tree.isSlot([".."]))
        #expect(!tree.isSlot(["drinks", "tea", ".."]))
        #expect(!tree.isSlot(.top))
        #expect(!tree.isSlot(["drinks", "milk"]))
    }

    @Test func flatMenuIsOneRing() throws {
        let tree = try MenuTree(flat: DemoMenu.items)
        #expect(tree.ringPaths == [.top])
        #expect(tree.slots(ofRing: .top) == DemoMenu.items.map { [$0.id] })
    }

    @Test func theSameIDOnDifferentRingsIsFine() throws {
        _ = try MenuTree([n("a", [n("small")]), n("b", [n("small")]), n("small")])
    }

    @Test func emptyChildListIsReportedWithItsPathAndPlace() {
        let problems = MenuFixture.problems([n("drinks", [n("tea"), n("coffee", [])])])
        #expect(problems == [MenuTreeProblem(.emptyChildren, path: ["drinks", "coffee"], indices: [0, 1])])
        #expect(problems.first?.description.hasPrefix("drinks/coffee: ") == true)
    }

    @Test func duplicateSiblingIDsAreReportedAtTheSecond() {
        let problems = MenuFixture.problems([n("a"), n("drinks", [n("tea"), n("milk"), n("tea")]), n("a")])
        #expect(problems == [
            MenuTreeProblem(.duplicateID(firstIndex: 0), path: ["drinks", "tea"], indices: [1, 2]),
            MenuTreeProblem(.duplicateID(firstIndex: 0), path: ["a"], indices: [2]),
        ])
    }

    @Test func ringsAsDeepAsTheLimitAreFineOneMoreIsNot() throws {
        _ = try MenuTree(MenuFixture.chain(rings: 4), maximumDepth: 4)
        _ = try MenuTree(MenuFixture.chain(rings: MenuTree.defaultMaximumDepth))
        let deep = MenuTree.defaultMaximumDepth + 1
        let problems = MenuFixture.problems(MenuFixture.chain(rings: deep + 2))
        // The item whose ring would be one too many, once: nothing below it is looked at.
        let path = MenuPath((1...MenuTree.defaultMaximumDepth).map { "l\($0)" })
        #expect(problems == [MenuTreeProblem(.tooDeep(limit: MenuTree.defaultMaximumDepth), path: path,
                                             indices: Array(repeating: 0, count: MenuTree.defaultMaximumDepth))])
        #expect(MenuFixture.problems(MenuFixture.chain(rings: 5), maximumDepth: 4).count == 1)
    }

    @Test func idsThatCannotNameAPathAreReported() {
        let problems = MenuFixture.problems([n(".."), n("a/b"), n(""), n("."), n("fine")])
        #expect(problems.map(\.kind) == Array(repeating: .invalidID, count: 4))
        #expect(problems.map(\.indices) == [[0], [1], [2], [3]])
    }

    @Test func everyProblemIsReportedInDocumentOrder() {
        let problems = MenuFixture.problems([
            n("x", []),
            n("y", [n("z"), n("z"), n("w", [])]),
            n("x"),
        ])
        #expect(problems.map(\.path) == [["x"], ["y", "z"], ["y", "w"], ["x"]])
        let error = MenuTreeError(problems: problems)
        #expect(error.description.split(separator: "\n").count == 4)
    }
}
