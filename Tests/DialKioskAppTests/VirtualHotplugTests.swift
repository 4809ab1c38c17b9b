import DialCore
import Glibc
import Testing
@testable import KioskSeams
@testable import DialKioskApp

/// The hotplug path (a new mode: suspended, resized, resumed) on the virtual display, in
/// virtual time: what only the VM case kms-hotplug-mode showed before.
@Suite struct VirtualHotplugTests {
    final class Rig {
        let clock = VirtualClock()
        let display: VirtualDisplay
        let loop: FrameLoop
        var log: [String] = []
        /// What the resize collaborator was asked for.
        var asked: [(Int, Int, MenuPath?)] = []
        /// The size of every target painted.
        var painted: [(Int, Int)] = []

        /// `resizes`: the loop gets `run`'s kind of resize; else the output's default, one mode.
        init(resizes: Bool) throws {
            let clock = self.clock
            display = VirtualDisplay(width: 160, height: 120, timing: .init(refresh: 60)) { clock.now }
            let config = try ConfigLoader.load(path: nil)
            var rig: Rig?
            let scene = { (width: Int, height: Int, path: MenuPath?) throws -> Scene in
                let built = try RunSession.scene(config: config, resting: .path(path), width: width, height: height,
                                                 rotation: .none, painter: .flat)
                return Scene(dial: built.dial) { pose, target in
                    rig?.painted.append((target.width, target.height))
                    return try built.paint(pose, target)
                }
            }
            var output = LoopOutput(presenter: display)
            if resizes {
                output.resize = { width, height, path in
                    rig?.asked.append((width, height, path))
                    return try scene(width, height, path)
                }
            }
            loop = FrameLoop(output: output, sources: FrameLoop.sources(displays: [display]), scene: try scene(160, 120, nil),
                             now: { clock.now }, pacing: LoopPacing(schedule: FrameSchedule(refreshPeriod: display.refreshPeriod)),
                             log: { rig?.log.append($0) })
            rig = self
        }

        func run(until horizon: Double) throws {
            _ = try loop.run(waiter: VirtualWaiter(clock: clock, horizon: horizon))
        }
    }

    @Test func aNewModeRebuildsTheSceneOnTheSelectedSlotAndPaintsAtTheNewSize() throws {
        let rig = try Rig(resizes: true)
        try rig.loop.start(at: 0)
        try rig.run(until: 1)
        let path = rig.loop.dial.selectedPath
        #expect(path != nil)
        let oldDial = rig.loop.dial
        let before = rig.display.presents
        rig.painted.removeAll()
        rig.display.changeMode(width: 320, height: 240)
        try rig.run(until: 2)
        #expect(rig.asked.map { "\($0.0)x\($0.1) \(String(describing: $0.2))" } == ["320x240 \(String(describing: path))"])
        #expect(rig.loop.dial !== oldDial, "a new scene")
        #expect(rig.loop.dial.selectedPath == path, "on the slot that was selected")
        #expect(rig.display.presents == before + 1, "one fresh frame after the resume")
        #expect(rig.painted.map { "\($0.0)x\($0.1)" } == ["320x240"])
        #expect(rig.log.contains("display: new mode 320x240"))
        #expect(rig.log.contains("display: suspended") && rig.log.contains("display: resumed"))
        #expect(rig.loop.schedule.state == .idle)
    }

    @Test func anOutputWithOneModeThatReportsANewOneIsAnError() throws {
        let rig = try Rig(resizes: false)
        try rig.loop.start(at: 0)
        try rig.run(until: 1)
        rig.display.changeMode(width: 320, height: 240)
        #expect(throws: LoopOutput.UnexpectedResize.self) { try rig.run(until: 2) }
        #expect("\(LoopOutput.UnexpectedResize(width: 320, height: 240))"
                == "display: a new mode 320x240 from an output that has one mode")
    }
}
