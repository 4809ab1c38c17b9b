import Glibc
import KioskLoop

extension FrameLoop {
    /// One poll() of at most `timeoutMS` (-1: forever; tests pass 0) and every source's news in
    /// order, then a retry or an overdue frame when the schedule says so: a turn of `run`
    /// without its waiter, for tests that drive the loop a turn at a time.
    package func step(timeoutMS: Int32) throws -> Ending? {
        let requested = sources.map(\.pollDescriptors)
        var fds = Array(requested.joined())
        try PollWaiter.poll(&fds, timeoutMS: timeoutMS)
        return try serve(fds, requested)
    }
}
