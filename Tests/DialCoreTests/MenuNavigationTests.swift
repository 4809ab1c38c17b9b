import Testing
@testable import DialCore

@Suite struct MenuNavigationTests {
    typealias Path = MenuPath

    /// Navigation on the coffee machine, with the ring `ring` open and `slot` at its top.
    func navigation(openedTo ring: Path = .top) -> MenuNavigation {
        var nav = MenuNavigation(tree: MenuFixture.tree)
        for r in ring.prefixes {
            let slot = nav.slots.firstIndex(of: r)!
            _ = nav.apply(.rest(slot: slot), at: 0)
            _ = nav.apply(.activate(slot: slot), at: 0)
        }
        #expect(nav.ring == ring)
        return nav
    }

    @Test func startsOnTheTopRingAtTheDefaultItem() {
        let nav = MenuNavigation(tree: MenuFixture.tree, defaultItem: "snacks")
        #expect(nav.ring == .top && nav.selectedSlot == 1 && nav.selectedPath == ["snacks"])
        #expect(nav.openRings.isEmpty && nav.hubItem == nil)
        #expect(MenuNavigation(tree: MenuFixture.tree, defaultItem: "nothing").selectedSlot == 0)
        #expect(MenuNavigation(tree: MenuFixture.tree).selectedSlot == 0)
    }

    @Test func aFlatMenuIsTodaysSingleRingWithOneIDPaths() throws {
        var nav = MenuNavigation(tree: try MenuTree(flat: DemoMenu.items), defaultItem: "ipa")
        let ids = DemoMenu.items.map(\.id)
        #expect(nav.slots == ids.map { [$0] })
        #expect(nav.apply(.rest(slot: 3), at: 1) == MenuStep(events: [.selected([ids[3]])]))
        #expect(nav.apply(.rest(slot: 3), at: 2) == MenuStep())
        #expect(nav.apply(.activate(slot: 3), at: 3) == MenuStep(events: [.activated([ids[3]])]))
        #expect(nav.apply(.select([ids[7]]), at: 4) == MenuStep(turn: 7))
        #expect(nav.apply(.returnToTop, at: 5) == MenuStep(turn: 5))
        for intent in [MenuIntent.hubLongPress, .backKey, .wheelClick, .backCommand] {
            #expect(nav.apply(intent, at: 6) == MenuStep())
        }
        #expect(nav.ring == .top && nav.selectedSlot == 3)
    }

    @Test func activatingAnItemWithARingOpensItAtItsFirstItem() {
        var nav = navigation()
        let step = nav.apply(.activate(slot: 0), at: 2.5)
        #expect(step.events == [.opened(["drinks"]), .selected(["drinks", "coffee"])])
        #expect(step.turn == nil)
        #expect(step.ringChange == RingChange(from: .top, to: ["drinks"], folding: [["drinks"], ["snacks"], ["help"]],
                                              flying: [["drinks", ".."], ["drinks", "coffee"], ["drinks", "tea"]],
                                              slot: 1, since: 2.5))
        #expect(nav.ring == ["drinks"] && nav.selectedSlot == 1)
        #expect(nav.hubItem == ["drinks"])
        #expect(nav.rememberedItem(ofRing: .top) == "drinks")
    }

    @Test func anItemWithARingAndACommandReportsActivatedThenOpens() {
        var nav = navigation()
        let step = nav.apply(.activate(slot: 1), at: 1)
        #expect(step.events == [.activated(["snacks"]), .opened(["snacks"]), .selected(["snacks", "cake"])])
    }

    @Test func activatingALeafReportsItAndStays() {
        var nav = navigation(openedTo: ["drinks", "coffee"])
        let before = nav
        #expect(nav.apply(.activate(slot: 1), at: 1) == MenuStep(events: [.activated(["drinks", "coffee", "small"])]))
        #expect(nav == before)
    }

    @Test func backFromEveryLevelRestoresTheParentsItem() {
        var nav = navigation(openedTo: ["drinks", "coffee", "large"])
        #expect(nav.openRings == [["drinks"], ["drinks", "coffee"], ["drinks", "coffee", "large"]])
        let expected: [(ring: Path, events: [MenuEvent])] = [
            (["drinks", "coffee"], [.closed(["drinks", "coffee", "large"]), .selected(["drinks", "coffee", "large"])]),
            (["drinks"], [.closed(["drinks", "coffee"]), .selected(["drinks", "coffee"])]),
            (.top, [.closed(["drinks"]), .selected(["drinks"])]),
        ]
        for (ring, events) in expected {
            let from = nav.ring
            let step = nav.apply(.back, at: 7)
            #expect(step.events == events)
            #expect(step.ringChange?.from == from && step.ringChange?.to == ring)
            #expect(nav.ring == ring && nav.selectedPath == events.last.flatMap { if case .selected(let p) = $0 { p } else { nil } })
        }
    }

    @Test func backAtTheTopDoesNothing() {
        var nav = navigation()
        _ = nav.apply(.rest(slot: 2), at: 1)
        let before = nav
        #expect(nav.apply(.back, at: 2) == MenuStep())
        #expect(nav == before)
    }

    @Test func everyWayBackIsTheBackItem() {
        for intent in [MenuIntent.hubLongPress, .backKey, .wheelClick, .backCommand] {
            #expect(MenuTransition(intent) == .back)
            var byIntent = navigation(openedTo: ["drinks", "coffee"])
            var byItem = byIntent
            #expect(byItem.slots[0] == ["drinks", "coffee", ".."])
            let a = byIntent.apply(intent, at: 3), b = byItem.apply(.activate(slot: 0), at: 3)
            #expect(a == b && byIntent == byItem && byItem.ring == ["drinks"])
        }
    }

    @Test func intentsMapToTransitions() {
        #expect(MenuTransition(.rested(slot: 4)) == .rest(slot: 4))
        #expect(MenuTransition(.activated(slot: 2)) == .activate(slot: 2))
        #expect(MenuTransition(.selectCommand(["a", "b"])) == .select(["a", "b"]))
        #expect(MenuTransition(.idleReturn) == .returnToTop)
    }

    @Test func restingOnTheBackItemSelectsItButIsNotRemembered() {
        var nav = navigation(openedTo: ["drinks"])
        #expect(nav.apply(.rest(slot: 2), at: 1).events == [.selected(["drinks", "tea"])])
        #expect(nav.apply(.rest(slot: 0), at: 2).events == [.selected(["drinks", ".."])])
        #expect(nav.rememberedItem(ofRing: ["drinks"]) == "tea")
        _ = nav.apply(.activate(slot: 0), at: 3)
        #expect(nav.apply(.activate(slot: 0), at: 4).events == [.opened(["drinks"]), .selected(["drinks", "tea"])])
    }

    @Test func eachRingRemembersItsItemAfterLeavingAndReentering() {
        var nav = navigation(openedTo: ["drinks", "coffee"])
        _ = nav.apply(.rest(slot: 2), at: 1)  // large
        _ = nav.apply(.back, at: 2)
        _ = nav.apply(.rest(slot: 2), at: 3)  // tea
        _ = nav.apply(.back, at: 4)
        _ = nav.apply(.rest(slot: 1), at: 5)  // snacks
        _ = nav.apply(.activate(slot: 1), at: 6)
        _ = nav.apply(.back, at: 7)
        _ = nav.apply(.rest(slot: 0), at: 8)  // drinks
        #expect(nav.apply(.activate(slot: 0), at: 9).events == [.opened(["drinks"]), .selected(["drinks", "tea"])])
        _ = nav.apply(.rest(slot: 1), at: 10)  // coffee
        #expect(nav.apply(.activate(slot: 1), at: 11).events
                == [.opened(["drinks", "coffee"]), .selected(["drinks", "coffee", "large"])])
    }

    @Test func selectJumpsAcrossBranchesClosingAndOpeningTheRingsBetween() {
        var nav = navigation(openedTo: ["drinks", "coffee", "large"])
        let step = nav.apply(.select(["snacks", "cookie"]), at: 4)
        #expect(step.events == [.closed(["drinks", "coffee", "large"]), .closed(["drinks", "coffee"]), .closed(["drinks"]),
                                .opened(["snacks"]), .selected(["snacks", "cookie"])])
        #expect(step.ringChange?.from == ["drinks", "coffee", "large"] && step.ringChange?.to == ["snacks"])
        #expect(step.ringChange?.slot == 2)
        // The way back leads through the rings the jump opened.
        #expect(nav.apply(.back, at: 5).events == [.closed(["snacks"]), .selected(["snacks"])])
    }

    @Test func selectDeepFromTheTopOpensEveryRingOnTheWay() {
        var nav = navigation()
        let step = nav.apply(.select(["drinks", "coffee", "large", "whole"]), at: 1)
        #expect(step.events == [.opened(["drinks"]), .opened(["drinks", "coffee"]), .opened(["drinks", "coffee", "large"]),
                                .selected(["drinks", "coffee", "large", "whole"])])
        #expect(nav.rememberedItem(ofRing: .top) == "drinks")
        #expect(nav.rememberedItem(ofRing: ["drinks"]) == "coffee")
        #expect(nav.rememberedItem(ofRing: ["drinks", "coffee"]) == "large")
        // Within a sibling branch only the rings below the common one change.
        let sideways = nav.apply(.select(["drinks", "tea"]), at: 2)
        #expect(sideways.events == [.closed(["drinks", "coffee", "large"]), .closed(["drinks", "coffee"]),
                                    .selected(["drinks", "tea"])])
    }

    @Test func selectOnTheRingOnScreenTurnsTheDialAndTheRestReports() {
        var nav = navigation(openedTo: ["drinks"])
        #expect(nav.apply(.select(["drinks", "tea"]), at: 1) == MenuStep(turn: 2))
        #expect(nav.selectedPath == ["drinks", "coffee"])
        #expect(nav.apply(.rest(slot: 2), at: 1.4).events == [.selected(["drinks", "tea"])])
        #expect(nav.apply(.select(["drinks", ".."]), at: 2) == MenuStep(turn: 0))
    }

    @Test func selectOfABackItemOpensItsRingWithTheBackItemUp() {
        var nav = navigation()
        let step = nav.apply(.select(["drinks", "coffee", ".."]), at: 1)
        #expect(step.events == [.opened(["drinks"]), .opened(["drinks", "coffee"]), .selected(["drinks", "coffee", ".."])])
        #expect(nav.selectedSlot == 0)
        #expect(nav.rememberedItem(ofRing: ["drinks", "coffee"]) == nil)
    }

    @Test func selectOfSomethingThatIsNoSlotDoesNothing() {
        var nav = navigation(openedTo: ["drinks"])
        let before = nav
        for path: Path in [["drinks", "milk"], [".."], ["drinks", "tea", ".."], .top, ["help", "x"]] {
            #expect(nav.apply(.select(path), at: 1) == MenuStep(), "\(path)")
        }
        #expect(nav == before)
    }

    @Test func returnToTopClosesEverythingAndKeepsWhatRingsRemember() {
        var nav = MenuNavigation(tree: MenuFixture.tree, defaultItem: "help")
        _ = nav.apply(.select(["drinks", "coffee", "large", "whole"]), at: 1)
        let step = nav.apply(.returnToTop, at: 30)
        #expect(step.events == [.closed(["drinks", "coffee", "large"]), .closed(["drinks", "coffee"]), .closed(["drinks"]),
                                .selected(["help"])])
        #expect(step.ringChange?.to == .top && step.ringChange?.slot == 2)
        #expect(nav.ring == .top && nav.selectedSlot == 2)
        // At the top already, it turns the dial to the default item, as the flat dial does.
        _ = nav.apply(.rest(slot: 0), at: 31)
        #expect(nav.apply(.returnToTop, at: 60) == MenuStep(turn: 2))
        // The rings below still remember where they were.
        _ = nav.apply(.activate(slot: 0), at: 61)
        _ = nav.apply(.activate(slot: 1), at: 62)
        #expect(nav.selectedPath == ["drinks", "coffee", "large"])
    }

    @Test func slotsOutsideTheRingAreIgnored() {
        var nav = navigation(openedTo: ["drinks"])
        let before = nav
        for t in [MenuTransition.rest(slot: 3), .rest(slot: -1), .activate(slot: 3), .activate(slot: -1)] {
            #expect(nav.apply(t, at: 1) == MenuStep())
        }
        #expect(nav == before)
    }

    @Test func anEmptyMenuDoesNothing() throws {
        var nav = MenuNavigation(tree: try MenuTree([]))
        #expect(nav.selectedSlot == nil && nav.selectedPath == nil && nav.slots.isEmpty)
        for t in [MenuTransition.rest(slot: 0), .activate(slot: 0), .back, .select(["a"]), .returnToTop] {
            #expect(nav.apply(t, at: 1) == MenuStep())
        }
    }
}
