import CLinux
import Glibc
import LinuxSystem
import KioskReporting

/// Notices the wall clock being set (an NTP step at boot, `date -s`, a resumed VM's clock
/// fixed) while the loop sleeps: a CLOCK_REALTIME timerfd armed absolute at a far instant with
/// TFD_TIMER_CANCEL_ON_SET, which the kernel cancels (readable, read fails with ECANCELED) at
/// any discontinuous change of the clock. It never fires otherwise, so it costs no wake-up.
/// As a poll source it only wakes the loop: the turn's service tick then sees the clocks'
/// offset moved and looks at the opening hours again.
package final class ClockSetWatch: PollSource {
    private let descriptor: FileDescriptor

    /// timerfd_create(CLOCK_REALTIME) armed a year after now.
    package init() throws(SystemCallError) {
        let fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fd >= 0 else { throw SystemCallError("create a timerfd", errno: errno, status: .osError) }
        descriptor = FileDescriptor(adopting: fd)
        try arm()
    }

    /// timerfd_settime, absolute and cancelled when the clock is set.
    private func arm() throws(SystemCallError) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var spec = itimerspec()
        spec.it_value.tv_sec = now.tv_sec + 365 * 86_400
        guard timerfd_settime(descriptor.rawValue, Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET), &spec, nil) == 0 else {
            throw SystemCallError("arm a timerfd", errno: errno, status: .osError)
        }
    }

    package func close() { descriptor.close() }

    package var pollDescriptors: [pollfd] {
        descriptor.isOpen ? [pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)] : []
    }

    /// Whether the clock was set since the last call; the watch is armed again.
    package func clockWasSet() -> Bool {
        var count: UInt64 = 0
        let n = read(descriptor.rawValue, &count, MemoryLayout<UInt64>.size)
        let cancelled = n < 0 && errno == ECANCELED
        // Cancelled (or the far instant came): armed anew from the clock as it reads now.
        if cancelled || n > 0 { try? arm() }
        return cancelled
    }

    package func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        guard isReadable(polled) else { return [] }
        _ = clockWasSet()
        // Nothing to hand on: waking the loop is the point; the service's tick does the rest.
        return []
    }
}
