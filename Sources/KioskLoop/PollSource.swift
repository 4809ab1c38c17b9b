import DialCore
import Glibc
import KioskSeams

/// One thing the frame loop waits on in its single poll(). Adding a source is a new conforming
/// type in the list the loop is built with; the loop serves the sources in that order.
package protocol PollSource {
    /// The descriptors and events to poll this turn (empty: none, for example an output queue
    /// with nothing waiting, or a source that is only a deadline).
    var pollDescriptors: [pollfd] { get }
    /// The latest time poll may sleep until for this source (nil: until an event).
    func wakeUp(now: Double) -> Double?
    /// After every poll, also when nothing was ready: `polled` are this source's descriptors
    /// with poll's `revents`; returns what happened, for the loop to act on.
    func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent]
}

extension PollSource {
    package func wakeUp(now: Double) -> Double? { nil }
}

/// What a source found, in the loop's terms.
package enum LoopEvent {
    case display(DisplayEvent)
    /// One source's input of this turn (a frame follows the batch, not every event).
    case input([InputEvent])
    case signal(LoopSignal)
    /// `--exit-after` ran out.
    case timerExpired
    /// For the service, in the turn and order it came (a control-socket or broker command,
    /// live items due): the loop passes it to `LoopService.handle` and carries out the answer.
    case message(LoopMessage)
    /// Requests a source made this turn (the behaviour timers' actions, a prepared reload's
    /// commit, a remote viewer's repaint), carried out in order where the loop carries out
    /// every request (`FrameLoop.carryOut`).
    case requests([LoopRequest])
}

/// Readable, hung up or failed: the source has something to read (or an error to report).
package func isReadable(_ polled: [pollfd]) -> Bool {
    polled.contains { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }
}

/// A source whose news comes at known times on the loop's clock instead of through a
/// descriptor (the virtual display's vblanks, a script's samples): the loop waits until then,
/// and drains it every turn.
package protocol TimedEventSource: AnyObject {
    /// When the next event is due (nil: none is expected).
    func nextEventTime(now: Double) -> Double?
}

/// A display's events (page flips, hotplug): KMSDisplay, HotplugWatcher, the virtual display,
/// a test's pipe.
package struct DisplayEvents: PollSource {
    package let source: DisplayEventSource
    package var pollDescriptors: [pollfd] { descriptors(source.pollDescriptor) }
    package func wakeUp(now: Double) -> Double? { (source as? TimedEventSource)?.nextEventTime(now: now) }
    package func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        guard isReadable(polled) || source is TimedEventSource else { return [] }
        return try source.drainDisplayEvents().map(LoopEvent.display)
    }

    package init(source: DisplayEventSource) {
        self.source = source
    }
}

/// Touches and commands from libinput, a script, or a test's pipe.
package struct InputEvents: PollSource {
    package let source: InputSource
    package var pollDescriptors: [pollfd] { descriptors(source.pollDescriptor) }
    package func wakeUp(now: Double) -> Double? { (source as? TimedEventSource)?.nextEventTime(now: now) }
    package func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        guard isReadable(polled) || source is TimedEventSource else { return [] }
        let events = try source.drain()
        return events.isEmpty ? [] : [.input(events)]
    }

    package init(source: InputSource) {
        self.source = source
    }
}

/// `fd` polled for reading; none for a source without a descriptor (-1).
private func descriptors(_ fd: Int32) -> [pollfd] {
    fd < 0 ? [] : [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
}

extension SignalWatcher: PollSource {
    package var pollDescriptors: [pollfd] { [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)] }
    package func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        isReadable(polled) ? drain().map(LoopEvent.signal) : []
    }
}

extension ExitTimer: PollSource {
    package var pollDescriptors: [pollfd] { [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)] }
    package func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        isReadable(polled) && expired() ? [.timerExpired] : []
    }
}
