import Testing
@testable import DialCore

@Suite struct MenuRingChangeTests {
    let reveal = RevealAnimation()

    /// Opening `drinks` at t = 10 on an 800 x 480 frame: builders for the top ring and `drinks`.
    func opening() -> (change: RingChange, folding: PoseBuilder, flying: PoseBuilder) {
        var nav = MenuNavigation(tree: MenuFixture.tree)
        let change = nav.apply(.activate(slot: 0), at: 10).ringChange!
        func builder(_ count: Int) -> PoseBuilder {
            PoseBuilder(layout: DialLayout(count: count), geometry: .fitting(width: 800, height: 480, count: count),
                        reveal: reveal)
        }
        return (change, builder(change.folding.count), builder(change.flying.count))
    }

    @Test func theOldRingFoldsThenTheNewRingFliesOutWithTheDialsTimings() {
        let (change, _, _) = opening()
        let swap = 10 + reveal.totalDuration, end = 10 + 2 * reveal.totalDuration
        #expect(change.swapTime(reveal) == swap && change.endTime(reveal) == end)
        #expect(change.stage(at: 10, reveal: reveal) == .folding(.hiding(since: 10)))
        #expect(change.stage(at: swap.nextDown, reveal: reveal) == .folding(.hiding(since: 10)))
        #expect(change.stage(at: swap, reveal: reveal) == .flying(.showing(since: swap)))
        #expect(change.stage(at: end.nextDown, reveal: reveal) == .flying(.showing(since: swap)))
        #expect(change.stage(at: end, reveal: reveal) == .done)
        #expect(change.ring(at: swap.nextDown, reveal: reveal) == .top)
        #expect(change.ring(at: swap, reveal: reveal) == ["drinks"])
        #expect(MenuNavigation.hubItem(ofRing: change.ring(at: swap.nextDown, reveal: reveal)) == nil)
        #expect(MenuNavigation.hubItem(ofRing: change.ring(at: swap, reveal: reveal)) == ["drinks"])
    }

    @Test func posesStartShownEmptyAtTheSwapAndEndAtRestOnTheSlot() {
        let (change, folding, flying) = opening()
        let rotation = folding.layout.restRotation(of: 0)
        let swap = change.swapTime(reveal), end = change.endTime(reveal)
        func pose(_ t: Double) -> DialPose { change.pose(at: t, folding: folding, rotation: rotation, flying: flying) }
        #expect(pose(10) == folding.pose(rotation: rotation, visibility: .shown, time: 10))
        #expect(pose(swap.nextDown).items.allSatisfy { $0.alpha == 0 })
        #expect(pose(swap).items.count == 3 && pose(swap).items.allSatisfy { $0.alpha == 0 })
        let last = pose(end)
        #expect(last == flying.pose(rotation: flying.layout.restRotation(of: change.slot), visibility: .shown, time: end))
        #expect(last.selected == change.slot)
    }

    @Test func foldingTakesTheLastItemFirstAndFlyingOvershoots() {
        let (change, folding, flying) = opening()
        let rotation = folding.layout.restRotation(of: 0)
        let mid = change.pose(at: 10 + reveal.totalDuration / 2, folding: folding, rotation: rotation, flying: flying)
        #expect(mid.items.last!.alpha < mid.items.first!.alpha)
        // Some frame of the fly-out puts an item beyond its ring: the show animation's overshoot.
        let g = flying.geometry
        let beyond = stride(from: change.swapTime(reveal), to: change.endTime(reveal), by: 0.01).contains { t in
            change.pose(at: t, folding: folding, rotation: rotation, flying: flying).items.contains {
                $0.center.distance(to: g.center) > g.ringRadius + 1
            }
        }
        #expect(beyond)
    }
}
