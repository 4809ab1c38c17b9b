import Glibc

/// One entry of poll(2)'s array (`struct pollfd`), named so that the loop's sources need not
/// import the C library for it.
public typealias PollDescriptor = pollfd

extension pollfd {
    /// Waits for input on `fd` (POLLIN).
    public static func reading(_ fd: Int32) -> pollfd { pollfd(fd: fd, events: Int16(POLLIN), revents: 0) }

    /// Waits for input and for priority events on `fd` (POLLIN | POLLPRI: a CEC adapter's
    /// messages and its state changes).
    public static func readingWithPriority(_ fd: Int32) -> pollfd { pollfd(fd: fd, events: Int16(POLLIN | POLLPRI), revents: 0) }

    /// poll(2) said input, a priority event, an error or a hang-up: a read will not block.
    public var isReady: Bool { revents & Int16(POLLIN | POLLPRI | POLLERR | POLLHUP) != 0 }
}

/// The standard descriptors, by name.
public enum StandardDescriptor {
    public static let input: Int32 = STDIN_FILENO
    public static let output: Int32 = STDOUT_FILENO
    public static let error: Int32 = STDERR_FILENO
}

/// Signal dispositions the process sets once at start.
public enum SignalDisposition {
    /// SIGPIPE ignored: a write to a closed pipe or socket fails with EPIPE instead of ending
    /// the process.
    public static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }
}
