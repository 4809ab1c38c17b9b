import DialCore
import KioskSeams

/// The loop's one seam to the kiosk's outside world: `KioskService` in `run` and the kiosk
/// tests, `NoService` in simulate, bench and the tests of the display path. The loop asks whether
/// input passes (what the screen shows is `ScreenPower`'s) and tells what happened; the service
/// answers with the requests it wants applied, which the loop carries out in one place
/// (`FrameLoop.carryOut`). The service's own sources hand requests over as `LoopEvent.requests`.
package protocol LoopService: AnyObject {
    /// An input event through the behaviour timers: whether the dial gets it (a touch on a dark
    /// screen only wakes it), and what it did to the screen.
    func filter(_ event: InputEvent) -> (passOn: Bool, actions: [BehaviourAction])
    /// News from the loop; returns what the service wants the loop to do about it, in order.
    func handle(_ message: LoopMessage, at time: Double, on loop: any LoopControl) throws -> [LoopRequest]
    /// The screen's one owner, handed over when the loop is built: the service changes its
    /// policy (timers, requests, hours) and reports its state; it holds no other screen state.
    func attach(screen: ScreenPower)
}

extension LoopService {
    package func attach(screen: ScreenPower) {}
}

/// What a service may do to the loop (`FrameLoop`): move the dial, and ask for the rest with a
/// `LoopRequest`. Each request ends in at most one new frame, queued the way input queues one.
package protocol LoopControl: AnyObject {
    /// The dial on the screen (commands move it; the service reads its pose).
    var dial: DialDriving { get }
    /// The one owner of what the glass shows; blank switches the output off, dim lowers the
    /// backlight (or both are painted).
    var power: ScreenPower { get }
    /// Carries out `request` in this turn, at the turn's `time`.
    func carryOut(_ request: LoopRequest, at time: Double) throws
    /// `.report(events)`; an error of the service's handling is logged, not thrown (the dial
    /// already moved: the caller has nothing to undo).
    func carryOut(reporting events: [DialEvent])
}

/// What a service asks of the loop.
package enum LoopRequest {
    /// The dial's events out through the service.
    case report([DialEvent])
    /// Carry out what the behaviour timers and the screen's owner decided.
    case apply([BehaviourAction])
    /// Input or a command arrived: when resting and the dial now moves, queue a frame at once.
    case frameIfDue
    /// The picture changed outside the dial: paint now when resting, else with the next frame.
    case repaint
    /// SIGHUP without a reload: the frame again.
    case refresh
    /// A reloaded configuration's dial and painter take over between two frames, and the event
    /// lines catch up with the new dial (`previousMenu`: the menu the `closed` lines name).
    /// `make` gets the id of the top item the dial shows now (the open ring's, or the one at 12
    /// o'clock), so the new dial rests on it when the new menu has it; it runs on the loop and
    /// must be quick (a reload builds the painter before).
    case replaceScene(make: (_ keptTop: String?) throws -> Scene, previousMenu: MenuTree?)
    /// A line for the loop's log.
    case log(String)
    /// The texts in another language (a language code) from the next frame on, and a frame.
    case language(String?)
}

/// The requests under the names the service's code reads best with.
extension LoopControl {
    /// Never fails: what the service's handling of the events throws is logged by the loop.
    package func report(_ events: [DialEvent]) { carryOut(reporting: events) }
    package func apply(_ actions: [BehaviourAction], at time: Double) throws { try carryOut(.apply(actions), at: time) }
    package func frameIfDue(at time: Double) throws { try carryOut(.frameIfDue, at: time) }
    package func repaint(at time: Double) throws { try carryOut(.repaint, at: time) }
    package func refresh(at time: Double) throws { try carryOut(.refresh, at: time) }
    /// Carries out `requests` in order, at `time`.
    package func carryOut(_ requests: [LoopRequest], at time: Double) throws {
        for request in requests { try carryOut(request, at: time) }
    }
}

/// What the loop passes to its service.
package enum LoopMessage {
    /// The dial's events, with the frames queued so far.
    case dialEvents([DialEvent], frames: Int)
    /// The first frame is on the glass (at the message's time, the flip's).
    case firstFrameShown
    /// The dial was replaced without events of its own (start, reload, new scene); the menu
    /// before, if it changed.
    case dialReplaced(previousMenu: MenuTree?)
    /// SIGHUP.
    case hangUp
    /// The first frame of a scene swapped in (a reload, a pushed configuration, a new mode) is
    /// on the glass (at the message's time, the flip's).
    case sceneShown
    /// Painting the first frame of a scene swapped in failed (the painter's own error, not the
    /// display's): nothing of it was queued, the glass still shows the frame before. The
    /// service puts a working scene back in this turn; until it does the loop paints nothing.
    case sceneFailed(String)
}

/// The first frame of a new scene failed and nothing puts a working one back: the run ends,
/// as with any frame that cannot be shown.
package struct SceneFailure: Error, CustomStringConvertible {
    package var reason: String
    package init(reason: String) { self.reason = reason }
    package var description: String { "the new menu's first frame failed: \(reason)" }
}

/// No service: the dial's events go nowhere (simulate writes its own event lines; bench and the
/// display tests need none), no timer dims or blanks, every input passes, and SIGHUP repaints.
package final class NoService: LoopService {
    package init() {}

    package func filter(_ event: InputEvent) -> (passOn: Bool, actions: [BehaviourAction]) { (true, []) }

    package func handle(_ message: LoopMessage, at time: Double, on loop: any LoopControl) throws -> [LoopRequest] {
        switch message {
        case .hangUp:
            return [.refresh]
        case .dialEvents, .firstFrameShown, .dialReplaced, .sceneShown:
            return []
        case .sceneFailed(let why):
            throw SceneFailure(reason: why)
        }
    }
}

/// A service's sources and where a turn serves them: its output first (it moves on even in a
/// turn that ends the run), its control socket, reload worker and deadlines last.
package struct ServiceSources {
    package var first: [any PollSource]
    package var last: [any PollSource]

    package init(first: [any PollSource], last: [any PollSource]) {
        self.first = first
        self.last = last
    }

    /// No service: no sources.
    package static var none: ServiceSources { ServiceSources(first: [], last: []) }
}
