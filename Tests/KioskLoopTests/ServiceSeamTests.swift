import Testing
import Glibc
import DialCore
@testable import KioskSeams
@testable import KioskLoop
import KioskTestSupport

/// A dial at rest that answers every input with one `selected` event.
private final class SelectingDial: DialDriving {
    func handle(_ event: InputEvent) -> [DialEvent] { [.selected(index: 0, path: ["a"], time: event.time)] }
    func advance(to time: Double) -> [DialEvent] { [] }
    var needsFrame: Bool { false }
    var selectedIndex: Int? { 0 }
    var selectedPath: MenuPath? { ["a"] }
    func returnToTop(at time: Double) -> [DialEvent] { [] }
    func select(path: MenuPath, at time: Double) -> [DialEvent]? { nil }
    func setShown(_ shown: Bool, at time: Double) {}
    var pose: DialPose {
        let g = DialGeometry.fitting(width: 64, height: 48, count: 4)
        return PoseBuilder(layout: DialLayout(count: 4), geometry: g).pose(rotation: 0, visibility: .shown, time: 0)
    }
}

/// A service that answers SIGHUP with requests and fails on the dial's events.
private final class AnsweringService: LoopService {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "the event stream refused it" }
    }
    var messages: [String] = []
    func filter(_ event: InputEvent) -> (passOn: Bool, actions: [BehaviourAction]) { (true, []) }
    func handle(_ message: LoopMessage, at time: Double, on loop: any LoopControl) throws -> [LoopRequest] {
        switch message {
        case .dialEvents(let events, _):
            if !events.isEmpty { throw Refused() }
        case .hangUp:
            messages.append("hangUp")
            return [.log("asked for a refresh"), .refresh]
        case .firstFrameShown, .dialReplaced, .sceneShown, .sceneFailed:
            break
        }
        return []
    }
}

/// Values one way across the loop/service seam: the service answers the loop's messages with
/// requests the loop carries out, and what the service throws is reported, never dropped.
@Suite struct ServiceSeamTests {
    private final class Rig {
        let display = PipeDisplay(), input = PipeInput(), clock = FakeClock(), signals = PipeSignals()
        let service = AnsweringService()
        var lines: [String] = []
        var loop: FrameLoop!

        init() throws {
            loop = FrameLoop(output: LoopOutput(presenter: display),
                             sources: FrameLoop.sources(signals: signals, displays: [display], inputs: [input]),
                             scene: Scene(dial: SelectingDial()) { _, _ in nil }, now: { [clock] in clock.now },
                             service: service, log: { [unowned self] in self.lines.append($0) })
            clock.now = 1
            try loop.start(at: 1)
            clock.now = 1.02
            display.report(.frameShown(time: 1.016))
            _ = try loop.step(timeoutMS: 0)
        }
    }

    @Test func theServicesAnswerToAMessageIsCarriedOutByTheLoop() throws {
        let rig = try Rig()
        let before = rig.display.presents
        rig.signals.send([.hangUp])
        _ = try rig.loop.step(timeoutMS: 0)
        #expect(rig.service.messages == ["hangUp"])
        #expect(rig.lines.contains("asked for a refresh"))
        #expect(rig.display.presents == before + 1, "the refresh it asked for went out")
    }

    @Test func anErrorOfTheServiceOnTheDialsEventsIsLogged() throws {
        let rig = try Rig()
        rig.input.send([.touch(TouchEvent(phase: .down, x: 10, y: 10, time: 1.1))])
        _ = try rig.loop.step(timeoutMS: 0)
        #expect(rig.lines.contains("service: the event stream refused it"), "\(rig.lines)")
    }
}
