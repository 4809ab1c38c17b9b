import Glibc
import LinuxSystem
import CMosquitto
import Synchronization

/// `mosquitto_connect_async` for a broker given by name, on a thread of its own: the call
/// resolves the name with getaddrinfo, which waits on DNS (seconds when a server does not
/// answer, past the watchdog), so it must not run on the frame loop. An address is connected on
/// the loop (getaddrinfo answers a numeric host without asking anyone).
///
/// Hand-over: the loop gives the thread the client handle and does not touch it until the
/// thread is done; the thread leaves its result behind a mutex and closes the write end of a
/// pipe, whose hang-up the loop sees in its one poll (nothing is written, so a thread outliving
/// the loop never writes to a reused descriptor). An attempt the loop gives up on keeps the
/// handle, which goes with the thread when the lookup ends; the loop starts no other attempt
/// before that (`isDone`), so at most one lookup runs at a time.
final class ConnectAttempt: @unchecked Sendable {
    /// The read end the loop polls; POLLHUP when the thread is done.
    let done: FileDescriptor
    private let finished: FileDescriptor
    /// The handle the thread connects; the loop takes it back once `isDone`.
    let client: MosquittoClient
    private let host: String
    private let port: Int
    private let keepalive: Int
    private let outcome = Mutex<Result<Void, MosquittoError>?>(nil)

    private init(client: MosquittoClient, host: String, port: Int, keepalive: Int, done: FileDescriptor, finished: FileDescriptor) {
        self.client = client
        self.host = host
        self.port = port
        self.keepalive = keepalive
        self.done = done
        self.finished = finished
    }

    /// Whether `host` must be looked up (is not an IPv4 or IPv6 address).
    static func needsLookup(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) != 1 && inet_pton(AF_INET6, host, &v6) != 1
    }

    /// Starts the connect of `client` to `host` on a new thread.
    static func start(client: MosquittoClient, host: String, port: Int, keepalive: Int) throws(MosquittoError) -> ConnectAttempt {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw Self.failed("create the MQTT connect thread's pipe", errno) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        let attempt = ConnectAttempt(client: client, host: host, port: port, keepalive: keepalive,
                                     done: FileDescriptor(adopting: fds[0]), finished: FileDescriptor(adopting: fds[1]))
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            Unmanaged<ConnectAttempt>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, Unmanaged.passRetained(attempt).toOpaque())
        guard rc == 0 else {
            Unmanaged.passUnretained(attempt).release()
            throw Self.failed("start the MQTT connect thread", rc)
        }
        pthread_detach(thread)
        return attempt
    }

    private static func failed(_ operation: String, _ code: Int32) -> MosquittoError {
        MosquittoError(MosquittoCall(operation: operation, reason: nil, code: Int32(MOSQ_ERR_ERRNO.rawValue)), code: code)
    }

    private func run() {
        let result: Result<Void, MosquittoError>
        do {
            try client.connectAsync(host: host, port: port, keepalive: keepalive)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        outcome.withLock { $0 = result }
        finished.close()
    }

    /// The thread's result once it is done, else nil. Never waits.
    var result: Result<Void, MosquittoError>? { outcome.withLock { $0 } }

    /// The thread is done (its result is there).
    var isDone: Bool { result != nil }

    /// The descriptor to poll while the thread runs.
    var pollDescriptor: pollfd { pollfd(fd: done.rawValue, events: Int16(POLLIN), revents: 0) }
}
