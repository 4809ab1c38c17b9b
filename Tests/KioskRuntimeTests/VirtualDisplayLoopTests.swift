import DialCore
import Glibc
import Testing
@testable import KioskSeams
@testable import KioskRuntime
@testable import KioskFeatures
@testable import KioskConfiguration
@testable import KioskLoop
import KioskTestSupport

/// The device loop on the virtual display, in virtual time: what only the VM could show before
/// (render late, a missed vblank, a present retry, a hotplug's new mode), in milliseconds and
/// without sleeping.
@Suite struct VirtualDisplayLoopTests {
    /// A fling on the demo menu's dial, the loop's log, when each paint started and each frame
    /// was shown.
    final class Rig {
        let clock = VirtualClock()
        let display: VirtualDisplay
        let loop: FrameLoop
        var log: [String] = []
        var paints: [Double] = []
        /// The size of every target painted.
        var painted: [String] = []
        var shown: [Double] = []
        /// What the resize collaborator was asked for.
        var resized: [String] = []

        /// `resizes`: the loop gets `run`'s kind of resize (a scene for the new size on the
        /// selected slot); else the output's default, one mode.
        init(timing: VirtualDisplay.Timing, faults: ScriptedPresentFaults? = nil, renderLate: Bool = false,
             paintSeconds: Double = 0.002, resizes: Bool = false) throws {
            let clock = self.clock
            display = VirtualDisplay(width: 160, height: 120, timing: timing, faults: faults) { clock.now }
            let config = try ConfigLoader.load(path: nil)
            var rig: Rig?
            let scene = { (resting: SceneResting, width: Int, height: Int) throws -> Scene in
                let base = try SceneRecipe.scene(config: config, resting: resting, width: width, height: height,
                                                rotation: .none, painter: .flat)
                return Scene(dial: base.dial) { pose, target in
                    rig?.paints.append(clock.now)
                    rig?.painted.append("\(target.width)x\(target.height)")
                    clock.now += paintSeconds
                    return try base.paint(pose, target)
                }
            }
            var output = LoopOutput(presenter: display)
            if resizes {
                output.resize = { width, height, path in
                    rig?.resized.append("\(width)x\(height) \(path.map { "\($0)" } ?? "none")")
                    return try scene(.path(path), width, height)
                }
            }
            let g = DialGeometry.fitting(width: 160, height: 120, count: 10)
            var touches: [InputEvent] = []
            for k in 0...10 {
                let a = -1.2 + Double(k) * 0.15
                let phase: TouchPhase = k == 0 ? .down : k == 10 ? .up : .motion
                touches.append(.touch(TouchEvent(phase: phase, x: g.center.x + g.ringRadius * cos(a),
                                                 y: g.center.y + g.ringRadius * sin(a), time: 0.5 + Double(k) * 0.01)))
            }
            var next = touches.makeIterator()
            let input = try ScriptInput(now: { clock.now }) { next.next() }
            loop = FrameLoop(output: output, sources: FrameLoop.sources(displays: [display], inputs: [input]),
                             scene: try scene(.index(nil), 160, 120), now: { clock.now },
                             pacing: LoopPacing(schedule: FrameSchedule(refreshPeriod: display.refreshPeriod),
                                                renderLate: renderLate ? RenderLateSchedule() : nil,
                                                stats: FrameStats(refreshPeriod: display.refreshPeriod)),
                             log: { rig?.log.append($0) })
            rig = self
        }

        func run() throws -> FrameLoop.Ending {
            try loop.run(waiter: ShownRecorder(rig: self, inner: VirtualWaiter(clock: clock, horizon: 60)))
        }
    }

    /// Notes the display's last flip after every turn (the loop has no hook for it, nor needs one).
    struct ShownRecorder: LoopWaiter {
        let rig: Rig
        let inner: VirtualWaiter
        func wait(_ fds: inout [pollfd], until deadline: Double?, now: Double) throws -> FrameLoop.Ending? {
            if let t = rig.display.lastShown, rig.shown.last != t { rig.shown.append(t) }
            return try inner.wait(&fds, until: deadline, now: now)
        }
    }

    private func gaps(_ times: [Double]) -> [Int] {
        zip(times, times.dropFirst()).map { Int((($1 - $0) * 60).rounded()) }
    }

    @Test func aMissedVblankShowsTheFrameOneRefreshLater() throws {
        let faults = ScriptedPresentFaults(missedFlips: [4])
        let rig = try Rig(timing: .init(refresh: 60), faults: faults)
        #expect(try rig.run() == .quiet)
        #expect(faults.missed == 1)
        let steps = gaps(rig.shown)
        #expect(steps.count > 10)
        #expect(steps.filter { $0 == 2 }.count == 1 && steps.allSatisfy { $0 == 1 || $0 == 2 }, "\(steps)")
        let clean = try Rig(timing: .init(refresh: 60))
        _ = try clean.run()
        #expect(gaps(clean.shown).allSatisfy { $0 == 1 }, "without the fault no vblank is missed")
    }

    @Test func aRefusedPresentIsTriedAgainAndTheRingStillSettles() throws {
        let rig = try Rig(timing: .init(refresh: 60), faults: ScriptedPresentFaults(failedPresents: [3: .busy]))
        #expect(try rig.run() == .quiet)
        #expect(rig.log.contains { $0.contains("present refused (busy); trying again in 17 ms") }, "\(rig.log)")
        #expect(rig.display.presents == rig.display.flips + 1)
        #expect(rig.log.contains { $0.hasPrefix("stats: idle") }, "the ring came to rest")
        let fatal = try Rig(timing: .init(refresh: 60), faults: ScriptedPresentFaults(failedPresents: [3: .gone]))
        #expect(throws: VirtualDisplay.RefusedPresent.self) { try fatal.run() }
    }

    @Test func renderLatePaintsAsLateAsStillMakesTheNextVblank() throws {
        let period = 1.0 / 60
        let late = try Rig(timing: .init(refresh: 60), renderLate: true, paintSeconds: 0.003)
        #expect(try late.run() == .quiet)
        // Each frame after the first of a stretch is painted well after its flip event...
        let waits = late.paints.compactMap { paint in late.shown.last { $0 <= paint }.map { paint - $0 } }
        #expect(waits.contains { $0 > period / 2 }, "\(waits)")
        // ...and still shown at the next vblank: no frame slips.
        #expect(gaps(late.shown).allSatisfy { $0 == 1 }, "\(gaps(late.shown))")
        let eager = try Rig(timing: .init(refresh: 60), renderLate: false, paintSeconds: 0.003)
        _ = try eager.run()
        let eagerWaits = eager.paints.compactMap { paint in eager.shown.last { $0 <= paint }.map { paint - $0 } }
        #expect(eagerWaits.allSatisfy { $0 < 1e-9 }, "without render late each paint starts at its flip event")
    }

    @Test func aNewModeRebuildsTheSceneOnTheSelectedSlotAndPaintsAtTheNewSize() throws {
        let rig = try Rig(timing: .init(refresh: 60), resizes: true)
        let rested = try rig.run()
        #expect(rested == .quiet)
        let path = try #require(rig.loop.dial.selectedPath)
        let oldDial = rig.loop.dial
        let presents = rig.display.presents
        rig.painted.removeAll()
        rig.display.changeMode(width: 320, height: 240)
        let restedAgain = try rig.run()
        #expect(restedAgain == .quiet)
        #expect(rig.resized == ["320x240 \(path)"])
        #expect(rig.loop.dial !== oldDial, "a new scene")
        #expect(rig.loop.dial.selectedPath == path, "on the slot the fling left selected")
        #expect(rig.display.presents == presents + 1, "one fresh frame after the resume")
        #expect(rig.painted == ["320x240"])
        #expect(rig.log.contains("display: new mode 320x240"), "\(rig.log)")
        #expect(rig.log.contains("display: suspended") && rig.log.contains("display: resumed"))
    }

    @Test func anOutputWithOneModeThatReportsANewOneIsAnError() throws {
        let rig = try Rig(timing: .init(refresh: 60))
        _ = try rig.run()
        rig.display.changeMode(width: 320, height: 240)
        #expect(throws: LoopOutput.UnexpectedResize.self) { try rig.run() }
        #expect("\(LoopOutput.UnexpectedResize(width: 320, height: 240))"
                == "display: a new mode 320x240 from an output that has one mode")
    }
}
