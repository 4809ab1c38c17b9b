import Glibc

/// A thread of this process, started by pthread_create(3): the package's one way to start one
/// (`ThreadJob`, the remote view's worker and the audio worker all start theirs here).
public struct SystemThread: @unchecked Sendable {
    /// pthread_t, for a C call of its own on the thread (glibc's timed join, which the Glibc
    /// module does not export); joined or detached once by its starter.
    public let handle: pthread_t

    /// Starts `body` on a new thread. `name` names it in the error ("reload worker");
    /// `blockingSignals`: the thread takes no signals (they stay the loop's, through its
    /// signalfd), set before it starts so none arrives in between.
    public static func start(_ name: String, blockingSignals: Bool = false,
                             _ body: @escaping () -> Void) throws(ThreadJobError) -> SystemThread {
        let entry = Unmanaged.passRetained(ThreadEntry(body)).toOpaque()
        var previous = sigset_t()
        if blockingSignals {
            var all = sigset_t()
            sigfillset(&all)
            pthread_sigmask(SIG_BLOCK, &all, &previous)
        }
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            Unmanaged<ThreadEntry>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, entry)
        if blockingSignals { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        guard rc == 0 else {
            Unmanaged<ThreadEntry>.fromOpaque(entry).release()
            throw ThreadJobError(.startThread(name), code: rc)
        }
        return SystemThread(handle: thread)
    }

    /// Waits for the thread to end (pthread_join(3)); call once, and not with `detach`.
    public func join() { pthread_join(handle, nil) }

    /// Lets the thread end on its own (pthread_detach(3)); call once, and not with `join`.
    public func detach() { pthread_detach(handle) }
}

/// What the new thread runs (not generic: a C function pointer cannot name a generic type).
private final class ThreadEntry {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
