import DialCore
import KioskSeams
import KioskLoop

/// Input from a script instead of a device: touch samples (a `simulate` script, a `libinput
/// record` file) and key steps, each delivered when the loop's clock reaches its time, one per
/// turn, as an `InputSource` (no descriptor: the loop waits until the next sample's time).
/// Times count from `origin` (0 on a virtual clock; the start of `run --input-script`).
package final class ScriptInput: InputSource, TimedEventSource {
    package let pollDescriptor: Int32 = -1
    private let origin: Double
    private let now: () -> Double
    private let next: () throws -> InputEvent?
    private var upcoming: InputEvent?
    /// Touch slots down after the samples delivered so far.
    package private(set) var fingersDown: Set<Int> = []
    /// Samples delivered so far.
    private(set) var delivered = 0

    /// `next` gives the samples in order (nil: the script is over) and may throw at a bad line;
    /// the first is read here.
    package init(origin: Double = 0, now: @escaping () -> Double, next: @escaping () throws -> InputEvent?) throws {
        self.origin = origin
        self.now = now
        self.next = next
        upcoming = try next()
    }

    /// Every sample is delivered.
    var isOver: Bool { upcoming == nil }

    /// A sample without a finite time is due at once.
    package func nextEventTime(now: Double) -> Double? {
        upcoming.map { $0.time.isFinite ? origin + $0.time : now }
    }

    /// The sample that is due, read ahead to the next one (a bad line stops the run here).
    package func drain() throws -> [InputEvent] {
        guard let event = upcoming, let due = nextEventTime(now: now()), due <= now() else { return [] }
        upcoming = try next()
        delivered += 1
        if case .touch(let touch) = event {
            switch touch.phase {
            case .down: fingersDown.insert(touch.slot)
            case .up, .cancel: fingersDown.remove(touch.slot)
            default: break
            }
        }
        return [event.shifted(by: origin)]
    }
}

extension InputEvent {
    /// The same event `offset` seconds later.
    func shifted(by offset: Double) -> InputEvent {
        guard offset != 0 else { return self }
        switch self {
        case .touch(var touch):
            touch.time += offset
            return .touch(touch)
        case .command(let command, let time):
            return .command(command, time: time + offset)
        }
    }
}
