import DialCore
import Glibc
import KioskSeams
import LinuxSystem
import KioskReporting

/// How the frame loop waits between turns: until one of its descriptors is ready or its clock
/// reaches the next deadline. `run` sleeps in poll(2) on CLOCK_MONOTONIC; `simulate` and the
/// tests jump a virtual clock to the deadline instead of sleeping, so the same loop runs in
/// both (time is an argument: a test never sleeps).
package protocol LoopWaiter {
    /// Waits until a descriptor in `fds` is ready (its `revents` set) or the clock reaches
    /// `deadline` (nil: no deadline). Returns why the run ends instead, when the waiter knows
    /// nothing can ever wake the loop or its time is up (only a virtual clock knows that).
    func wait(_ fds: inout [pollfd], until deadline: Double?, now: Double) throws -> FrameLoop.Ending?
}

/// poll(2) with a timeout until the deadline, rounded up to whole milliseconds so it never
/// wakes early. Never ends the run itself: signals and the exit timer do.
package struct PollWaiter: LoopWaiter {
    package func wait(_ fds: inout [pollfd], until deadline: Double?, now: Double) throws -> FrameLoop.Ending? {
        try PollWaiter.poll(&fds, timeoutMS: FrameSchedule.timeoutMS(until: deadline, now: now))
        return nil
    }

    /// One poll(2) of `fds` for at most `timeoutMS` (-1: no limit); a failure is the command's
    /// error (status 71).
    package static func poll(_ fds: inout [pollfd], timeoutMS: Int32) throws {
        if case .failure(let failure) = LinuxSystem.pollDescriptors(&fds, timeoutMS: timeoutMS) {
            throw CommandFailure("poll failed: \(failure)", status: .osError)
        }
    }
}

/// The loop's clock when no real time passes: `simulate`'s and the tests'. Moved by the
/// virtual waiter (and by a test, or a fake paint that takes time).
package final class VirtualClock {
    package var now: Double

    package init(now: Double = 0) { self.now = now }
}

/// Waiting on a virtual clock: descriptors that are ready already (a test's pipe) are served at
/// once; otherwise the clock jumps to the deadline. No deadline means nothing can happen any
/// more (the script is over, the ring rests): the run ends `.quiet`. A deadline past `horizon`
/// (`simulate --max-seconds`) ends it at the horizon with `.timerExpired`.
package struct VirtualWaiter: LoopWaiter {
    package let clock: VirtualClock
    package var horizon = Double.infinity

    package init(clock: VirtualClock, horizon: Double = .infinity) {
        self.clock = clock
        self.horizon = horizon
    }

    package func wait(_ fds: inout [pollfd], until deadline: Double?, now: Double) throws -> FrameLoop.Ending? {
        if !fds.isEmpty {
            try PollWaiter.poll(&fds, timeoutMS: 0)
            if fds.contains(where: { $0.revents != 0 }) { return nil }
        }
        guard let deadline else { return .quiet }
        guard deadline <= horizon else {
            clock.now = max(clock.now, horizon)
            return .timerExpired
        }
        clock.now = max(clock.now, deadline)
        return nil
    }
}
