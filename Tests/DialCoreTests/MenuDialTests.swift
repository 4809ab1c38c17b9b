import Testing
@testable import KioskSeams
@testable import DialCore

/// A `MenuDial` on the coffee machine (`MenuFixture`), driven on a 60 Hz fake frame clock.
final class MenuRig {
    let dial: MenuDial
    let geometry: DialGeometry
    var t = 1.0
    var events: [DialEvent] = []
    var poses: [DialPose] = []

    init(_ tree: MenuTree = MenuFixture.tree, defaultItem: String? = nil) {
        let g = DialGeometry.fitting(width: 800, height: 480, count: tree.largestRing)
        geometry = g
        dial = MenuDial(tree: tree, geometry: { _ in g }, defaultItem: defaultItem)
    }

    /// Frames until the dial needs none (or `seconds` pass); returns the events they caused.
    @discardableResult
    func settle(_ seconds: Double = 5) -> [DialEvent] {
        let start = events.count, end = t + seconds
        while dial.needsFrame && t < end { frame() }
        return Array(events[start...])
    }

    func frame() {
        t += 1.0 / 60
        events += dial.advance(to: t)
        poses.append(dial.pose)
    }

    @discardableResult
    func input(_ e: InputEvent) -> [DialEvent] {
        let out = dial.handle(e)
        events += out
        return out
    }

    func touch(_ phase: TouchPhase, at p: Point) -> [DialEvent] {
        input(.touch(TouchEvent(phase: phase, x: p.x, y: p.y, time: t)))
    }

    /// A tap on the hub; returns the events of the tap itself.
    @discardableResult
    func tapHub() -> [DialEvent] {
        _ = touch(.down, at: geometry.center)
        t += 0.08
        return touch(.up, at: geometry.center)
    }

    func command(_ c: StepCommand) -> [DialEvent] { input(.command(c, time: t)) }
}

@Suite struct MenuDialTests {
    typealias Path = MenuPath

    @Test func aHubTapOpensTheRingFoldingTheOldOneFirst() {
        let rig = MenuRig()
        rig.settle()
        #expect(rig.dial.pose.ring == .top && rig.dial.pose.items.count == 3)
        let t = rig.t + 0.08
        #expect(rig.tapHub() == [.opened(path: ["drinks"], time: t), .selected(index: 0, path: ["drinks", "coffee"], time: t)])
        #expect(rig.dial.ring == ["drinks"])
        rig.poses = []
        rig.settle()
        // The top ring folds into the hub, then the drinks ring (back, coffee, tea) flies out.
        let firstDrinks = rig.poses.firstIndex { $0.ring == ["drinks"] } ?? rig.poses.count
        #expect(firstDrinks > 10 && firstDrinks < rig.poses.count - 10)
        #expect(rig.poses[..<firstDrinks].allSatisfy { $0.ring == .top && $0.items.count == 3 })
        #expect(rig.poses[firstDrinks - 1].visibility < 0.1)
        #expect(rig.poses[firstDrinks].visibility < 0.1 && rig.poses[firstDrinks].items.count == 3)
        let reveal = RevealAnimation()
        #expect(abs(Double(rig.poses.count) / 60 - 2 * reveal.totalDuration) < 0.1)
        let rest = rig.dial.pose
        #expect(rest.ring == ["drinks"] && rest.visibility == 1 && rest.selected == 1)
        #expect(rig.dial.selectedIndex == 0 && rig.dial.selectedPath == ["drinks", "coffee"])
        #expect(rig.events.count == 2, "no event from the folding ring")
    }

    @Test func anItemWithACommandAndARingReportsActivatedThenOpens() {
        let rig = MenuRig(defaultItem: "snacks")
        let t = rig.t
        #expect(rig.command(.activate) == [.activated(index: 1, path: ["snacks"], time: t), .opened(path: ["snacks"], time: t),
                                           .selected(index: 0, path: ["snacks", "cake"], time: t)])
    }

    /// Opens drinks and lets the change finish.
    func inDrinks() -> MenuRig {
        let rig = MenuRig()
        rig.tapHub()
        rig.settle()
        return rig
    }

    @Test func theBackItemGoesBack() {
        let rig = inDrinks()
        _ = rig.command(.step(-1))
        #expect(rig.settle().contains(.selected(index: nil, path: ["drinks", ".."], time: rig.t)))
        #expect(rig.dial.selectedIndex == nil)
        let t = rig.t
        #expect(rig.command(.activate) == [.closed(path: ["drinks"], time: t), .selected(index: 0, path: ["drinks"], time: t)])
        rig.settle()
        #expect(rig.dial.pose.ring == .top && rig.dial.pose.selected == 0)
    }

    @Test func aLongPressOnTheHubGoesBackOnceAndItsLiftIsNoTap() throws {
        let rig = inDrinks()
        let down = rig.t
        #expect(rig.touch(.down, at: rig.geometry.center).isEmpty)
        // Nothing moves, yet the dial asks for frames: the frame clock is how it sees time pass.
        var closedAt: Double?
        while rig.t < down + 1.5 {
            guard rig.dial.needsFrame else {
                Issue.record("no frame asked for at \(rig.t - down) s into the press")
                break
            }
            rig.frame()
            if closedAt == nil, rig.events.contains(.closed(path: ["drinks"], time: rig.t)) { closedAt = rig.t }
        }
        let at = try #require(closedAt)
        #expect(at >= down + 0.6 && at < down + 0.6 + 1.5 / 60)
        #expect(rig.events.filter { if case .closed = $0 { true } else { false } }.count == 1)
        rig.settle()
        let before = rig.events.count
        _ = rig.touch(.up, at: rig.geometry.center)
        rig.settle()
        #expect(!rig.events[before...].contains { if case .activated = $0 { true } else { false } })
        #expect(!rig.events[before...].contains { if case .opened = $0 { true } else { false } })
        #expect(rig.dial.ring == .top)
    }

    @Test func aShortHoldOrAMovedFingerIsNoLongPress() {
        let rig = inDrinks()
        let start = rig.events.count
        _ = rig.touch(.down, at: rig.geometry.center)
        for _ in 0..<30 { rig.frame() }  // past a tap, short of a long press
        _ = rig.touch(.up, at: rig.geometry.center)
        // A drag that starts on the hub and leaves it turns the ring instead.
        _ = rig.touch(.down, at: rig.geometry.center)
        for k in 1...50 {
            rig.frame()
            _ = rig.touch(.motion, at: Point(x: rig.geometry.center.x + Double(k) * 3, y: rig.geometry.center.y - Double(k)))
        }
        _ = rig.touch(.up, at: Point(x: rig.geometry.center.x + 150, y: rig.geometry.center.y - 50))
        rig.settle()
        #expect(!rig.events[start...].contains { if case .closed = $0 { true } else { false } })
        #expect(rig.dial.ring == ["drinks"])
    }

    @Test func theTopRingHasNoLongPressAndAsksForNoFrames() {
        let rig = MenuRig()
        rig.settle()
        _ = rig.touch(.down, at: rig.geometry.center)
        rig.frame()
        #expect(!rig.dial.needsFrame)
    }

    @Test func theBackCommandGoesBackAndDoesNothingOnTheTopRing() {
        let rig = inDrinks()
        let t = rig.t
        #expect(rig.command(.back) == [.closed(path: ["drinks"], time: t), .selected(index: 0, path: ["drinks"], time: t)])
        #expect(rig.dial.back(at: rig.t).isEmpty)
        rig.settle()
        #expect(rig.command(.back).isEmpty)
        #expect(rig.dial.ring == .top)
    }

    @Test func selectingAPathJumpsAnywhere() throws {
        let rig = MenuRig()
        let t = rig.t
        #expect(rig.dial.select(path: ["nothing"], at: t) == nil)
        #expect(rig.dial.select(path: ["drinks", "coffee", "large"], at: t)
                == [.opened(path: ["drinks"], time: t), .opened(path: ["drinks", "coffee"], time: t),
                    .selected(index: 1, path: ["drinks", "coffee", "large"], time: t)])
        rig.settle()
        #expect(rig.dial.pose.ring == ["drinks", "coffee"] && rig.dial.pose.selected == 2)
        // On the ring on screen the dial turns, and its rest reports the item.
        #expect(try #require(rig.dial.select(path: ["drinks", "coffee", "small"], at: rig.t)).isEmpty)
        #expect(rig.settle().contains(.selected(index: 0, path: ["drinks", "coffee", "small"], time: rig.t)))
        let t2 = rig.t
        #expect(rig.dial.select(path: ["snacks", "cookie"], at: t2)
                == [.closed(path: ["drinks", "coffee"], time: t2), .closed(path: ["drinks"], time: t2),
                    .opened(path: ["snacks"], time: t2), .selected(index: 1, path: ["snacks", "cookie"], time: t2)])
    }

    @Test func returnToTopClosesEveryRingOntoTheDefaultItem() {
        let rig = MenuRig(defaultItem: "help")
        _ = rig.dial.select(path: ["drinks", "coffee", "large", "oat"], at: rig.t)
        rig.settle()
        let t = rig.t
        #expect(rig.dial.returnToTop(at: t)
                == [.closed(path: ["drinks", "coffee", "large"], time: t), .closed(path: ["drinks", "coffee"], time: t),
                    .closed(path: ["drinks"], time: t), .selected(index: 2, path: ["help"], time: t)])
        rig.settle()
        #expect(rig.dial.pose.ring == .top && rig.dial.pose.selected == 2)
    }

    @Test func eachRingRemembersItsLastItem() {
        let rig = inDrinks()
        _ = rig.command(.step(1))
        #expect(rig.settle().contains(.selected(index: 1, path: ["drinks", "tea"], time: rig.t)))
        _ = rig.command(.back)
        rig.settle()
        _ = rig.command(.step(1))
        rig.settle()
        let t = rig.t
        #expect(rig.command(.back).isEmpty, "nothing above the top ring")
        _ = rig.dial.select(path: ["drinks"], at: t)
        rig.settle()
        let t2 = rig.t
        rig.tapHub()
        #expect(rig.events.suffix(2) == [.opened(path: ["drinks"], time: t2 + 0.08),
                                         .selected(index: 1, path: ["drinks", "tea"], time: t2 + 0.08)])
        rig.settle()
        #expect(rig.dial.pose.selected == 2)
    }

    @Test func aHiddenMenuChangesRingsAtOnceAndStaysHidden() {
        let rig = MenuRig()
        rig.dial.setShown(false, at: rig.t)
        rig.settle()
        _ = rig.dial.select(path: ["drinks", "tea"], at: rig.t)
        #expect(rig.dial.pose.ring == ["drinks"] && rig.dial.pose.visibility == 0)
        rig.settle()
        #expect(rig.dial.pose.visibility == 0)
        rig.dial.setShown(true, at: rig.t)
        rig.settle()
        #expect(rig.dial.pose.ring == ["drinks"] && rig.dial.pose.visibility == 1 && rig.dial.pose.selected == 2)
    }
}
