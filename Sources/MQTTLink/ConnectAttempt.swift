import Glibc
import LinuxSystem
import CMosquitto

/// `mosquitto_connect_async` for a broker given by name, on a thread of its own (`ThreadJob`):
/// the call resolves the name with getaddrinfo, which waits on DNS (seconds when a server does
/// not answer, past the watchdog), so it must not run on the frame loop. An address is connected
/// on the loop (getaddrinfo answers a numeric host without asking anyone).
///
/// Hand-over: the loop gives the thread the client handle and does not touch it until the
/// thread is done (its pipe hangs up in the loop's one poll). An attempt the loop gives up on
/// keeps the handle, which goes with the thread when the lookup ends; the loop starts no other
/// attempt before that (`isDone`), so at most one lookup runs at a time.
final class ConnectAttempt {
    /// How the thread connects: `mosquitto_connect_async` (`mosquitto`), or a stand-in whose
    /// lookup takes as long as a test needs.
    typealias Connect = @Sendable (MosquittoClient, _ host: String, _ port: Int, _ keepalive: Int) -> Result<Void, MosquittoError>

    /// The handle the thread connects; the loop takes it back once `isDone`.
    let client: MosquittoClient
    private let job: ThreadJob<Result<Void, MosquittoError>>

    private init(client: MosquittoClient, job: ThreadJob<Result<Void, MosquittoError>>) {
        self.client = client
        self.job = job
    }

    /// Whether `host` must be looked up (is not an IPv4 or IPv6 address).
    static func needsLookup(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) != 1 && inet_pton(AF_INET6, host, &v6) != 1
    }

    /// The real connect: mosquitto_connect_async, which looks the name up.
    static let mosquitto: Connect = { client, host, port, keepalive in
        do throws(MosquittoError) {
            try client.connectAsync(host: host, port: port, keepalive: keepalive)
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Starts the connect of `client` to `host` on a new thread.
    static func start(client: MosquittoClient, host: String, port: Int, keepalive: Int,
                      connect: @escaping Connect = mosquitto) throws(MosquittoError) -> ConnectAttempt {
        let lent = Lent(client: client)
        do throws(ThreadJobError) {
            let job = try ThreadJob.start("MQTT connect") { connect(lent.client, host, port, keepalive) }
            return ConnectAttempt(client: client, job: job)
        } catch {
            throw MosquittoError(MosquittoCall(operation: error.call.phrase, reason: nil, code: Int32(MOSQ_ERR_ERRNO.rawValue)),
                                 code: error.code)
        }
    }

    /// The thread's result once it is done, else nil. Never waits.
    var result: Result<Void, MosquittoError>? { job.result }

    /// The thread is done (its result is there).
    var isDone: Bool { job.isDone }

    /// The descriptor to poll while the thread runs.
    var pollDescriptor: pollfd { job.pollDescriptor }
}

/// The client handle while the thread holds it: the loop does not touch it meanwhile (hence
/// unchecked).
private struct Lent: @unchecked Sendable {
    let client: MosquittoClient
}
