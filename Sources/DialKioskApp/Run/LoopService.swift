import DialCore
import KioskSeams

/// The loop's one seam to the kiosk's outside world: `KioskService` in `run` and the kiosk
/// tests, `NoService` in simulate, bench and the tests of the display path. The loop asks whether
/// input passes (what the screen shows is `ScreenPower`'s), tells what happened, and hands over the requests
/// that only a service has (commands, reloads), which act back on the loop.
protocol LoopService: AnyObject {
    /// An input event through the behaviour timers: whether the dial gets it (a touch on a dark
    /// screen only wakes it), and what it did to the screen.
    func filter(_ event: InputEvent) -> (passOn: Bool, actions: [IdleSchedule.Action])
    /// News from the loop, or a request for the service to carry out on it.
    func handle(_ message: LoopMessage, at time: Double, on loop: FrameLoop) throws
}

/// What the loop passes to its service.
enum LoopMessage {
    /// The dial's events, with the frames queued so far.
    case dialEvents([DialEvent], frames: Int)
    /// The first frame is on the glass (at the message's time, the flip's).
    case firstFrameShown
    /// The dial was replaced without events of its own (start, reload, new scene); the menu
    /// before, if it changed.
    case dialReplaced(previousMenu: MenuTree?)
    /// A control-socket command.
    case command(ControlServer.Request)
    /// SIGHUP.
    case hangUp
    /// A reload's worker decoded the icons of this configuration (`ReloadWorker`).
    case reloadPrepared(KioskConfig, ConfigReload.Changes)
}

/// No service: the dial's events become log lines, no timer dims or blanks, every input passes,
/// and SIGHUP repaints.
final class NoService: LoopService {
    func filter(_ event: InputEvent) -> (passOn: Bool, actions: [IdleSchedule.Action]) { (true, []) }

    func handle(_ message: LoopMessage, at time: Double, on loop: FrameLoop) throws {
        switch message {
        case .dialEvents(let events, _):
            for e in events { loop.log(Self.line(e)) }
        case .hangUp:
            try loop.refresh(at: time)
        case .firstFrameShown, .dialReplaced, .command, .reloadPrepared:
            break  // commands and reloads come only from a service's own sources
        }
    }

    static func line(_ event: DialEvent) -> String {
        switch event {
        case .selected(let index, let path, let time):
            return "selected index=\(index.map(String.init) ?? "none") path=\(path) time=\(fixed(time, 3))"
        case .activated(let index, let path, let time):
            return "activated index=\(index.map(String.init) ?? "none") path=\(path) time=\(fixed(time, 3))"
        case .opened(let path, let time):
            return "opened path=\(path) time=\(fixed(time, 3))"
        case .closed(let path, let time):
            return "closed path=\(path) time=\(fixed(time, 3))"
        case .rest(let time, let rotation, let index):
            return "rest rotation=\(fixed(rotation, 6)) index=\(index.map(String.init) ?? "none") time=\(fixed(time, 3))"
        }
    }
}
