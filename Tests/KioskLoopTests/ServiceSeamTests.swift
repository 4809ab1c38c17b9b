import Testing
import Glibc
import DialCore
@testable import KioskSeams
@testable import KioskLoop
import KioskTestSupport

/// A dial at rest that answers every input with one `selected` event and records what the loop
/// did to it.
private final class SelectingDial: StandInDial {
    var handled: [InputEvent] = []
    var selected: [MenuPath] = []
    var shown: [Bool] = []
    func handle(_ event: InputEvent) -> [DialEvent] {
        handled.append(event)
        if case .command(.activate, let t) = event { return [.activated(index: 0, path: ["a"], time: t)] }
        return [.selected(index: 0, path: ["a"], time: event.time)]
    }
    var selectedPath: MenuPath? { ["a"] }
    func select(path: MenuPath, at time: Double) -> [DialEvent]? {
        selected.append(path)
        return [.selected(index: 1, path: path, time: time)]
    }
    func setShown(_ shown: Bool, at time: Double) { self.shown.append(shown) }
}

/// A service source's news in these tests: what the answering service is asked to do.
private struct Ask: ServiceNews {
    var requests: [LoopRequest]
}

/// A service that answers SIGHUP with requests, `Ask` news with its requests, and fails on the
/// dial's events when told to; it records what it heard.
private final class AnsweringService: LoopService {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "the event stream refused it" }
    }
    var messages: [String] = []
    var dialEvents: [DialEvent] = []
    var inputs: [(InputEvent, ScreenPolicy.Admission)] = []
    var snapshots: [DialSnapshot] = []
    var refuseDialEvents = false
    func handle(_ message: LoopMessage, at time: Double, dial: DialSnapshot) throws -> [LoopRequest] {
        snapshots.append(dial)
        switch message {
        case .dialEvents(let events, _):
            dialEvents += events
            if !events.isEmpty && refuseDialEvents { throw Refused() }
        case .hangUp:
            messages.append("hangUp")
            return [.log("asked for a refresh"), .refresh]
        case .input(let event, let admission, _):
            inputs.append((event, admission))
        case .news(let news):
            messages.append("news")
            return (news as? Ask)?.requests ?? []
        case .firstFrameShown, .dialReplaced, .sceneShown, .sceneFailed:
            break
        }
        return []
    }
}

/// Values one way across the loop/service seam: the service answers the loop's messages with
/// requests the loop carries out (moving the dial among them), what the service throws is
/// reported, never dropped, and input reaches the dial through the loop, not the service.
@Suite struct ServiceSeamTests {
    private final class Rig {
        let display = PipeDisplay(), input = PipeInput(), clock = FakeClock(), signals = PipeSignals()
        let service = AnsweringService(), dial = SelectingDial()
        var lines: [String] = []
        var loop: FrameLoop!

        init() throws {
            loop = FrameLoop(output: LoopOutput(presenter: display),
                             sources: FrameLoop.sources(signals: signals, displays: [display], inputs: [input]),
                             scene: Scene(dial: dial) { _, _ in nil }, now: { [clock] in clock.now },
                             service: service, log: { [unowned self] in self.lines.append($0) })
            clock.now = 1
            try loop.start(at: 1)
            clock.now = 1.02
            display.report(.frameShown(time: 1.016))
            _ = try loop.step(timeoutMS: 0)
        }

        /// A service source's news, handed to the loop as the source would.
        func ask(_ requests: [LoopRequest], at time: Double) throws {
            clock.now = time
            try loop.handle(.message(.news(Ask(requests: requests))), at: time)
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
        rig.service.refuseDialEvents = true
        rig.input.send([.touch(TouchEvent(phase: .down, x: 10, y: 10, time: 1.1))])
        _ = try rig.loop.step(timeoutMS: 0)
        #expect(rig.lines.contains("service: the event stream refused it"), "\(rig.lines)")
    }

    @Test func aCommandsDialMoveIsMadeByTheLoopAndItsEventsComeBackToTheService() throws {
        let rig = try Rig()
        try rig.ask([.dial(.command(.activate))], at: 2)
        #expect(rig.dial.handled == [.command(.activate, time: 2)], "the loop moved the dial at the request's time")
        #expect(rig.service.dialEvents == [.activated(index: 0, path: ["a"], time: 2)],
                "the dial's events went back to the service as .dialEvents")

        try rig.ask([.dial(.select(["b", "c"])), .dial(.setShown(false))], at: 3)
        #expect(rig.dial.selected == [["b", "c"]])
        #expect(rig.dial.shown == [false])
        #expect(rig.service.dialEvents.last == .selected(index: 1, path: ["b", "c"], time: 3))
    }

    @Test func theServiceReadsTheDialAsASnapshotPassedWithTheMessage() throws {
        let rig = try Rig()
        try rig.ask([], at: 2)
        let snapshot = try #require(rig.service.snapshots.last)
        #expect(snapshot.selectedPath == ["a"])
        #expect(snapshot.pose.items.count == rig.dial.pose.items.count)
        #expect(snapshot.ring == nil, "a dial without rings")
    }

    @Test func aTouchReachesTheDialAndTheServiceHearsOfIt() throws {
        let rig = try Rig()
        let touch = InputEvent.touch(TouchEvent(phase: .down, x: 10, y: 10, time: 1.1))
        rig.input.send([touch])
        _ = try rig.loop.step(timeoutMS: 0)
        #expect(rig.dial.handled == [touch])
        #expect(rig.service.inputs.map(\.1) == [.dial(activity: true)])
        #expect(rig.service.dialEvents == [.selected(index: 0, path: ["a"], time: 1.1)])
    }

    @Test func aTouchOnABlankedScreenWakesItAndIsSwallowed() throws {
        let rig = try Rig()
        rig.loop.power.change { $0.idleLook = .off; $0.idled() }
        #expect(rig.loop.power.look.isDark)
        let down = InputEvent.touch(TouchEvent(phase: .down, x: 10, y: 10, time: 2))
        let up = InputEvent.touch(TouchEvent(phase: .up, x: 10, y: 10, time: 2.1))
        rig.clock.now = 2
        rig.input.send([down, up])
        _ = try rig.loop.step(timeoutMS: 0)
        #expect(!rig.loop.power.look.isDark, "the touch woke the screen")
        #expect(rig.dial.handled.isEmpty, "and the dial got none of it")
        #expect(rig.service.inputs.map(\.1) == [.woke, .swallowed], "the service heard both")
    }

}

@Suite struct InputRouteTests {
    private let touch = InputEvent.touch(TouchEvent(phase: .down, x: 1, y: 1, time: 0))

    @Test func onlyWhatTheScreenAdmittedForTheDialReachesIt() {
        #expect(InputRoute.reachesDial(touch, admission: .dial(activity: true)))
        #expect(InputRoute.reachesDial(touch, admission: .dial(activity: false)))
        #expect(!InputRoute.reachesDial(touch, admission: .woke))
        #expect(!InputRoute.reachesDial(touch, admission: .swallowed))
    }

    @Test func speechKeysNever() {
        #expect(!InputRoute.reachesDial(.command(.speech(.toggle), time: 0), admission: .dial(activity: true)))
        #expect(InputRoute.reachesDial(.command(.back, time: 0), admission: .dial(activity: true)))
    }
}
