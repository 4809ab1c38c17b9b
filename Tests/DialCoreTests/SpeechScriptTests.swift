import Testing
@testable import DialCore

/// The words for scripted gestures on the coffee machine (`MenuFixture`), driven through a real
/// `MenuDial`: each step's events, as one loop turn would report them, become one utterance.
@Suite struct SpeechScriptTests {
    let menu = MenuFixture.tree

    /// The utterances of everything the dial reports from `body` until it rests.
    func spoken(_ rig: MenuRig, _ body: (MenuRig) -> [DialEvent]) -> [String] {
        var turns = [body(rig)]
        while rig.dial.needsFrame {
            rig.t += 1.0 / 60
            turns.append(rig.dial.advance(to: rig.t))
        }
        return turns.compactMap { SpeechScript.utterance(for: $0, menu: menu) }
    }

    @Test func restingOnAnItemSpeaksItsLabelOnceWhenItComesToRest() {
        let rig = MenuRig()
        rig.settle()
        #expect(spoken(rig) { $0.command(.step(1)) } == ["Snacks"])
        #expect(spoken(rig) { $0.command(.step(1)) } == ["Help"])
        // A step that ends on the same item (nothing to the left of the first) says nothing new.
        #expect(spoken(rig) { _ in [] } == [])
    }

    @Test func openingARingSpeaksItsNameAndSizeThenTheItemSelected() {
        let rig = MenuRig()
        rig.settle()
        #expect(spoken(rig) { $0.tapHub() } == ["Drinks, 2 items. Coffee"])
        // The back item counts as a slot, not an item.
        #expect(spoken(rig) { $0.command(.activate) } == ["Coffee, 2 items. Small"])
    }

    @Test func activatingALeafConfirmsIt() {
        let rig = MenuRig()
        rig.settle()
        _ = spoken(rig) { $0.command(.step(2)) }
        #expect(spoken(rig) { $0.command(.activate) } == ["Help, activated"])
        // An item with a command and a ring (snacks): its ring's name is the confirmation.
        _ = spoken(rig) { $0.command(.step(-1)) }
        #expect(spoken(rig) { $0.command(.activate) } == ["Snacks, 2 items. Cake"])
    }

    @Test func backNamesTheRingReturnedToAndTheItemThere() {
        let rig = MenuRig()
        rig.settle()
        _ = spoken(rig) { $0.tapHub() }
        #expect(spoken(rig) { $0.command(.back) } == ["Back, Main menu. Drinks"])
        _ = spoken(rig) { $0.tapHub() }
        _ = spoken(rig) { $0.command(.activate) }
        #expect(spoken(rig) { $0.command(.back) } == ["Back, Drinks. Coffee"])
    }

    @Test func anItemsOwnSpeechAndRingSpeechReplaceItsLabel() throws {
        var nodes = MenuFixture.nodes
        nodes[0].item.speech = "Hot and cold drinks"
        nodes[0].item.ringSpeech = "The drinks menu"
        nodes[1].item.speech = "Something to eat"
        let menu = try MenuTree(nodes)
        let events: [DialEvent] = [.opened(path: ["drinks"], time: 1), .selected(index: 0, path: ["drinks", "coffee"], time: 1)]
        #expect(SpeechScript.utterance(for: events, menu: menu) == "The drinks menu, 2 items. Coffee")
        #expect(SpeechScript.utterance(for: [.selected(index: 1, path: ["snacks"], time: 1)], menu: menu) == "Something to eat")
        #expect(SpeechScript.utterance(for: [.selected(index: nil, path: ["drinks", ".."], time: 1)], menu: menu) == "Back")
        let words = SpeechWords(topRing: "Hauptmenü", items: "Einträge", activated: "gewählt", back: "Zurück")
        #expect(SpeechScript.utterance(for: [.closed(path: ["drinks"], time: 1), .selected(index: 0, path: ["drinks"], time: 1)],
                                       menu: menu, words: words) == "Zurück, Hauptmenü. Hot and cold drinks")
    }

    @Test func restAloneAndAnEmptyTurnSayNothing() {
        #expect(SpeechScript.utterance(for: [], menu: menu) == nil)
        #expect(SpeechScript.utterance(for: [.rest(time: 1, rotation: 0, index: 0)], menu: menu) == nil)
    }

    @Test func slowTurnClicksOncePerDetentAndAFlingIsRateLimited() {
        var planner = CuePlanner(minimumInterval: 0.04)
        // First frame: where the ring is, no click.
        #expect(planner.cue(ring: .top, selected: 0, count: 10, events: [], at: 0) == nil)
        // One detent per 0.1 s: a click each.
        var clicks = 0
        for i in 1...5 where planner.cue(ring: .top, selected: i, count: 10, events: [], at: Double(i) * 0.1) == .detents(1) { clicks += 1 }
        #expect(clicks == 5 && planner.detentsCrossed == 5)
        // A fling crossing a detent every frame (60 Hz) clicks at most every 0.04 s.
        var flingClicks = 0
        for f in 1...30 {
            let t = 1 + Double(f) / 60
            if case .detents(let n) = planner.cue(ring: .top, selected: (5 + f) % 10, count: 10, events: [], at: t) { flingClicks += n }
        }
        #expect(planner.detentsCrossed == 35)
        #expect(flingClicks >= 10 && flingClicks <= 13, "\(flingClicks)")
        // A frame that crossed three detents (a slow machine) clicks three times.
        #expect(planner.cue(ring: .top, selected: 8, count: 10, events: [], at: 3) == .detents(3))
        #expect(planner.clicks == 5 + flingClicks + 3 && planner.detentsCrossed == 38)
        // Wrapping the short way round: from 9 to 0 is one detent.
        var wrap = CuePlanner()
        _ = wrap.cue(ring: .top, selected: 9, count: 10, events: [], at: 0)
        _ = wrap.cue(ring: .top, selected: 0, count: 10, events: [], at: 1)
        #expect(wrap.detentsCrossed == 1)
    }

    @Test func activationAndBackHaveTheirOwnSoundsAndNothingElseMakesOne() {
        var planner = CuePlanner()
        _ = planner.cue(ring: .top, selected: 0, count: 3, events: [], at: 0)
        #expect(planner.cue(ring: .top, selected: 0, count: 3, events: [.activated(index: 0, path: ["help"], time: 1)], at: 1) == .activate)
        #expect(planner.cue(ring: ["drinks"], selected: 1, count: 3,
                            events: [.opened(path: ["drinks"], time: 2), .selected(index: 0, path: ["drinks", "coffee"], time: 2)], at: 2) == .activate)
        // The new ring's first position is no detent.
        #expect(planner.detentsCrossed == 0)
        #expect(planner.cue(ring: .top, selected: 0, count: 3,
                            events: [.closed(path: ["drinks"], time: 3), .selected(index: 0, path: ["drinks"], time: 3)], at: 3) == .back)
        // A touch that hit nothing: no event, the same item on top.
        #expect(planner.cue(ring: .top, selected: 0, count: 3, events: [], at: 4) == nil)
    }
}
