import CLinux
import Glibc
import LinuxSystem
import KioskReporting

/// A one-shot CLOCK_MONOTONIC timerfd (`--exit-after`). `close()` is safe twice.
package final class ExitTimer {
    private let descriptor: FileDescriptor

    /// timerfd_create + timerfd_settime, `seconds` from now.
    package init(seconds: Double) throws(SystemCallError) {
        let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fd >= 0 else { throw SystemCallError("create a timerfd", errno: errno, status: .osError) }
        descriptor = FileDescriptor(adopting: fd)
        var spec = itimerspec()
        let whole = seconds.rounded(.down)
        spec.it_value.tv_sec = Int(whole)
        spec.it_value.tv_nsec = max(1, Int((seconds - whole) * 1_000_000_000))
        guard timerfd_settime(fd, 0, &spec, nil) == 0 else {
            throw SystemCallError("arm a timerfd", errno: errno, status: .osError)
        }
    }

    /// The timerfd to poll; -1 once closed.
    package var fd: Int32 { descriptor.rawValue }

    /// True once the timer has fired (reads the expiration count).
    package func expired() -> Bool {
        var count: UInt64 = 0
        return descriptor.readRecord(into: &count) && count > 0
    }

    package func close() { descriptor.close() }
}
