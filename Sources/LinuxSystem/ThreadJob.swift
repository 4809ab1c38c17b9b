import Glibc
import Synchronization

/// The calls that start a `ThreadJob`, as its failure message names them.
public enum ThreadJobCall: SystemCall {
    /// pipe(2) for the job named.
    case pipe(String)
    /// pthread_create(3) for the job named.
    case startThread(String)

    public var phrase: String {
        switch self {
        case .pipe(let name): "create the \(name) pipe"
        case .startThread(let name): "start the \(name) thread"
        }
    }
}

/// Why a `ThreadJob` could not start: the call and its errno.
public typealias ThreadJobError = CallError<ThreadJobCall>

/// Work that must not run on a poll loop (a DNS lookup, a PNG encode, a configuration's whole
/// scene) on a thread of its own, its result handed back through a pipe's hang-up, which the
/// loop's one poll sees like any other descriptor.
///
/// Hand-over: the thread leaves its value behind a mutex, then closes the pipe's write end; the
/// loop sees POLLHUP on the read end and takes the value, which is there by then. Nothing is
/// ever written to the pipe, so a thread that outlives its loop never writes into a descriptor
/// number that was reused meanwhile. The write end is the thread's from `start` on and the read
/// end this object's; each is closed once (the thread's when its work ends, this object's when
/// it goes), so a job the loop forgets leaks no descriptor once its work ends.
///
/// The loop never waits on the job: a job whose work never ends holds only its thread and the
/// pipe. Callers that must not start another while one runs (one DNS lookup at a time) keep the
/// job until `isDone`.
public final class ThreadJob<Value: Sendable> {
    /// What becomes of the thread when its work ends.
    public enum Ending: Sendable {
        /// Nobody waits for it (the usual: a loop must never wait).
        case detached
        /// `join()` waits for it (tests, and a caller that must know the thread is gone); a job
        /// let go unjoined detaches it.
        case joinable
    }

    /// The read end, polled for the hang-up.
    private let done: FileDescriptor
    private let slot: Slot
    /// A joinable thread not yet joined.
    private var thread: SystemThread?

    private final class Slot: Sendable {
        let value = Mutex<Value?>(nil)
    }

    private init(done: FileDescriptor, slot: Slot) {
        self.done = done
        self.slot = slot
    }

    deinit {
        thread?.detach()
    }

    /// Starts `work` on a new thread. `name` names the job in errors ("reload worker");
    /// `nice`: the thread's nice value, set by the thread itself (Linux keeps one per thread,
    /// and raising one's own needs no privilege), nil to keep the caller's.
    public static func start(_ name: String, nice: Int32? = nil, ending: Ending = .detached,
                             _ work: @escaping @Sendable () -> Value) throws(ThreadJobError) -> ThreadJob {
        var fds: [Int32] = [-1, -1]
        // pipe2 is not in Glibc's Swift module without _GNU_SOURCE: pipe, then the flags.
        guard pipe(&fds) == 0 else { throw ThreadJobError(.pipe(name), errno: .current) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let job = ThreadJob(done: FileDescriptor(adopting: fds[0]), slot: Slot())
        let finished = WriteEnd(FileDescriptor(adopting: fds[1]))
        let slot = job.slot
        let entry: () -> Void = {
            if let nice { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) }
            let value = work()
            slot.value.withLock { $0 = value }
            finished.descriptor.close()
        }
        let thread = try SystemThread.start(name, entry)
        switch ending {
        case .detached: thread.detach()
        case .joinable: job.thread = thread
        }
        return job
    }

    /// The work's value once it is done, else nil. Never waits.
    public var result: Value? { slot.value.withLock { $0 } }

    /// The work is done (its value is there).
    public var isDone: Bool { slot.value.withLock { $0 != nil } }

    /// The descriptor to poll: POLLHUP when the work is done.
    public var pollDescriptor: pollfd { pollfd(fd: done.rawValue, events: Int16(POLLIN), revents: 0) }

    /// The work's value when `polled` (what poll returned) shows this job's hang-up, else nil.
    public func finished(in polled: [pollfd]) -> Value? {
        guard polled.contains(where: { $0.fd == done.rawValue && $0.revents != 0 }) else { return nil }
        return result
    }

    /// Waits for a joinable job's thread to end (at once for a detached one, or once joined).
    public func join() {
        guard let thread else { return }
        self.thread = nil
        thread.join()
    }
}

/// The pipe's write end, the thread's from `start` on; the caller never touches it again
/// (hence unchecked).
private struct WriteEnd: @unchecked Sendable {
    let descriptor: FileDescriptor
    init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }
}
