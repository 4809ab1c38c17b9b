import DialCore
import KioskSeams

/// The loop's one seam to the kiosk's outside world: `FeatureRouter` in `run` and the kiosk
/// tests, `NoService` in simulate, bench and the tests of the display path. Values go one way:
/// the loop tells the service what happened (`LoopMessage`, with a `DialSnapshot` of what the
/// dial shows), the service answers with the requests it wants applied, and the loop carries
/// them out in one place (`FrameLoop.carryOut`). The service never holds the loop; its own
/// sources hand their news to the loop as `LoopEvent.message`, which the loop passes on here.
package protocol LoopService: AnyObject {
    /// News from the loop; returns what the service wants the loop to do about it, in order.
    func handle(_ message: LoopMessage, at time: Double, dial: DialSnapshot) throws -> [LoopRequest]
    /// The screen's one owner, handed over when the loop is built: the service changes its
    /// policy (timers, requests, hours) and reports its state; it holds no other screen state.
    func attach(screen: ScreenPower)
    /// Whether `handle` reads its `dial` argument: the snapshot costs a pose per message, every
    /// frame; a service that never reads it (`NoService`) gets the first one again.
    var readsDial: Bool { get }
}

extension LoopService {
    package func attach(screen: ScreenPower) {}
    package var readsDial: Bool { true }
}

/// What the service may know of the dial, read by the loop when it passes a message on: the
/// service reads these and moves the dial only by `LoopRequest.dial`.
package struct DialSnapshot {
    /// What is painted (the ring, its items, visibility, the value dial).
    package var pose: DialPose
    /// The slot at 12 o'clock by its path through the rings (nil: none).
    package var selectedPath: MenuPath?
    /// The ring on screen; nil for a dial without rings (`bench`, the display tests).
    package var ring: MenuPath?

    package init(pose: DialPose, selectedPath: MenuPath?, ring: MenuPath?) {
        self.pose = pose
        self.selectedPath = selectedPath
        self.ring = ring
    }
}

/// A move of the dial a service asks for; the loop makes it and tells the dial's events back
/// as `.dialEvents`, the way a touch's events go.
package enum DialRequest: Equatable {
    /// Slot `path` to the top, changing rings as needed (`select <path>`).
    case select(MenuPath)
    /// A key's command (`back`, `activate`, `turn n`), at the request's time.
    case command(StepCommand)
    /// Fan the items out or fold them into the hub (`show`, `hide`).
    case setShown(Bool)
    /// The live items' states the dial paints from the next frame.
    case live(LiveItems)
    /// `turn <n>` on the open value dial: exactly n steps.
    case turnValue(Int)
    /// A value item's device reported a value (its state topic, `set <path> value`).
    case reportValue(MenuPath, Double)
    /// Close the open value dial (a `select` elsewhere).
    case closeValue
}

/// What a service asks of the loop.
package enum LoopRequest {
    /// The dial's events out through the service.
    case report([DialEvent])
    /// Move the dial; its events come back to the service as `.dialEvents`.
    case dial(DialRequest)
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
    /// An input event the screen's owner admitted as `admission` (`screenChanged`: it changed
    /// the glass; the loop repaints), before the dial gets it (`InputRoute`): the idle timers
    /// take it as activity, speech stops.
    case input(InputEvent, admission: ScreenPolicy.Admission, screenChanged: Bool)
    /// A service source's news, passed on untouched (a control command, live items due, ...).
    case news(any ServiceNews)
}

/// What a service's own source found for its service (`KioskFeatures`' commands, due flushes,
/// the presence sensor, the display's CEC reports): the loop passes it on as `LoopMessage.news`
/// without reading it.
package protocol ServiceNews {}

/// The first frame of a new scene failed and nothing puts a working one back: the run ends,
/// as with any frame that cannot be shown.
package struct SceneFailure: Error, CustomStringConvertible {
    package var reason: String
    package init(reason: String) { self.reason = reason }
    package var description: String { "the new menu's first frame failed: \(reason)" }
}

/// No service: the dial's events go nowhere (simulate writes its own event lines; bench and the
/// display tests need none), no timer dims or blanks, and SIGHUP repaints.
package final class NoService: LoopService {
    package init() {}

    package var readsDial: Bool { false }

    package func handle(_ message: LoopMessage, at time: Double, dial: DialSnapshot) throws -> [LoopRequest] {
        switch message {
        case .hangUp:
            return [.refresh]
        case .dialEvents, .firstFrameShown, .dialReplaced, .sceneShown, .input, .news:
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
