import Foundation
import Testing
@testable import KioskSeams
@testable import DialCore

/// Random menus and random walks through them, seeded and reproducible.
/// Set DIALKIOSK_PROPERTY_SEED to replay one failing seed.
struct MenuWalkGenerator {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

    /// A valid tree up to `rings` rings deep, 1 to 6 items a ring, some with rings and commands.
    mutating func tree(rings: Int = 5) -> [MenuNode] {
        (0..<int(1...6)).map { i in
            let children = rings > 1 && chance(0.35) ? tree(rings: rings - 1) : nil
            return MenuFixture.node("n\(i)", command: chance(0.3) ? ["/bin/true"] : nil, children)
        }
    }

    /// `nodes` with a few faults planted: empty child lists, repeated ids, bad ids.
    mutating func damaged(_ nodes: [MenuNode]) -> [MenuNode] {
        nodes.map { node in
            var node = node
            switch int(0...19) {
            case 0: node.children = []
            case 1: node.item.id = ["", "..", "a/b", "."][int(0...3)]
            case 2: node.item.id = "n0"
            default: node.children = node.children.map { damaged($0) }
            }
            return node
        }
    }

    /// One input a person or the socket could produce now, with slots and paths sometimes wrong.
    mutating func transition(_ nav: MenuNavigation, paths: [MenuPath]) -> MenuTransition {
        let slot = chance(0.05) ? int(-2...9) : (nav.slots.isEmpty ? 0 : int(0...nav.slots.count - 1))
        switch int(0...9) {
        case 0...2: return .rest(slot: slot)
        case 3...4: return .activate(slot: slot)
        case 5: return MenuTransition([.hubLongPress, .backKey, .wheelClick, .backCommand][int(0...3)])
        case 6...7:
            if chance(0.1) { return .select(["nothing", "here"]) }
            return .select(paths[int(0...paths.count - 1)])
        case 8: return .returnToTop
        default: return .back
        }
    }
}

/// Walks a navigation and checks, after every step, that it is on a ring of the tree with a
/// slot of that ring at the top, and that its events tell the same story.
struct MenuWalk {
    var failures: [String] = []

    mutating func check(seed: UInt64, steps: Int) {
        var gen = MenuWalkGenerator(seed: seed)
        let tree = try! MenuTree(gen.tree())
        let rings = Set(tree.ringPaths)
        let paths = tree.ringPaths.flatMap { tree.slots(ofRing: $0)! }
        let defaultID = tree.top[gen.int(0...tree.top.count - 1)].id
        var nav = MenuNavigation(tree: tree, defaultItem: defaultID)
        // What the event stream says: the rings opened and not closed, the slot last selected.
        var stack: [MenuPath] = []
        var reported = nav.selectedPath
        func fail(_ what: @autoclosure () -> String) { failures.append("seed \(seed): \(what())") }
        for k in 0..<steps {
            let before = nav, time = Double(k)
            let transition = gen.transition(nav, paths: paths)
            var step = nav.apply(transition, at: time)
            if let turn = step.turn {
                // The dial turns there and comes to rest: its `selected` feeds back.
                if step.ringChange != nil || !step.events.isEmpty { fail("a turn with events or a ring change") }
                step.events += nav.apply(.rest(slot: turn), at: time + 0.5).events
            }
            var what: String { "step \(k) \(transition) from \(before.ring)/\(before.selectedSlot ?? -1)" }
            for event in step.events {
                switch event {
                case .opened(let p):
                    if p.parent != stack.last ?? .top { fail("\(what): opened \(p) below \(stack.last ?? .top)") }
                    stack.append(p)
                case .closed(let p):
                    if stack.last != p { fail("\(what): closed \(p), open: \(stack)") } else { stack.removeLast() }
                case .selected(let p):
                    if p == reported { fail("\(what): selected \(p) again") }
                    reported = p
                case .activated(let p):
                    guard let node = tree.node(at: p) else { fail("\(what): activated \(p), no item"); break }
                    if node.opensRing && node.item.command == nil { fail("\(what): activated \(p), a ring without a command") }
                }
            }
            if !rings.contains(nav.ring) { fail("\(what): on \(nav.ring), not a ring") }
            guard let slot = nav.selectedSlot, nav.slots.indices.contains(slot) else {
                fail("\(what): slot \(String(describing: nav.selectedSlot)) of \(nav.slots.count)")
                break
            }
            if stack != nav.openRings { fail("\(what): events leave \(stack) open, the navigation \(nav.openRings)") }
            if reported != nav.selectedPath { fail("\(what): events say \(String(describing: reported)), it is on \(nav.slots[slot])") }
            for ring in nav.openRings where nav.rememberedItem(ofRing: ring.parent) != ring.last {
                fail("\(what): \(ring.parent) does not remember \(ring)")
            }
            if let change = step.ringChange {
                if change.from != before.ring || change.to != nav.ring || change.slot != slot
                    || change.flying != nav.slots || change.folding != before.slots || change.since != time {
                    fail("\(what): ring change \(change)")
                }
            } else if nav.ring != before.ring {
                fail("\(what): the ring changed without a ring change")
            }
            if failures.count > 5 { return }
        }
    }

    /// Damaged trees: rejected exactly when a problem is found, and each problem's indices lead
    /// to an item with the problem's path.
    mutating func checkProblems(seed: UInt64) {
        var gen = MenuWalkGenerator(seed: seed)
        let nodes = gen.damaged(gen.tree())
        let problems = MenuTree.problems(in: nodes)
        if (try? MenuTree(nodes)) == nil ? problems.isEmpty : !problems.isEmpty {
            failures.append("seed \(seed): validation and problems disagree: \(problems)")
        }
        for problem in problems {
            var level = nodes, path = MenuPath.top
            for i in problem.indices {
                guard level.indices.contains(i) else { break }
                path = path.appending(level[i].id)
                level = level[i].children ?? []
            }
            if path != problem.path { failures.append("seed \(seed): \(problem) is at \(path)") }
        }
    }
}

@Suite struct MenuPropertyTests {
    var seeds: [UInt64] {
        let fixed = ProcessInfo.processInfo.environment["DIALKIOSK_PROPERTY_SEED"].flatMap { UInt64($0) }
        return fixed.map { [$0] } ?? Array(1...150)
    }

    @Test func randomWalksStayOnARingAndSlotAndTheirEventsAddUp() {
        var walk = MenuWalk()
        for seed in seeds {
            walk.check(seed: seed, steps: 2_000)
            if walk.failures.count > 5 { break }
        }
        #expect(walk.failures.isEmpty, "\(walk.failures.prefix(5).joined(separator: "\n"))")
    }

    @Test func damagedTreesReportEveryProblemWhereItIs() {
        var walk = MenuWalk()
        for seed in seeds { walk.checkProblems(seed: seed) }
        #expect(walk.failures.isEmpty, "\(walk.failures.prefix(5).joined(separator: "\n"))")
    }
}
