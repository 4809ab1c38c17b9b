import CMosquitto
import Glibc
import Synchronization
import Testing
@testable import MQTTLink

/// A broker given by name whose lookup never answers (DNS that does not reply): the connect is
/// given up after the give-up time, said in one line, tried again later, and never more than one
/// lookup runs, however long the one that hangs takes; the loop's turns stay short throughout.
/// The lookup is a stand-in (`lookupConnect`) that hangs on a real thread until the test lets it
/// go; time is the test's clock.
@Suite struct LookupGiveUpTests {
    /// Lookups made, and the thread ids of those still hanging.
    final class Lookups: Sendable {
        let hang = Mutex(true)
        let threads = Mutex<[Int32]>([])
        let made = Mutex(0)

        var connect: ConnectAttempt.Connect {
            { [self] _, host, _, _ in
                made.withLock { $0 += 1 }
                let tid = Self.threadID()
                threads.withLock { $0.append(tid) }
                while hang.withLock({ $0 }) { usleep(2_000) }
                threads.withLock { $0.removeAll { $0 == tid } }
                return .failure(MosquittoError("look up \(host)", result: Int32(MOSQ_ERR_EAI.rawValue)))
            }
        }

        /// The calling thread's id, from /proc/thread-self ("PID/task/TID").
        static func threadID() -> Int32 {
            var link = [CChar](repeating: 0, count: 64)
            let n = readlink("/proc/thread-self", &link, link.count - 1)
            guard n > 0 else { return -1 }
            return String(decoding: link[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .split(separator: "/").last.flatMap { Int32($0) } ?? -1
        }

        /// Hanging lookups whose threads /proc/self/task lists.
        var alive: Int { threads.withLock { $0 }.filter { access("/proc/self/task/\($0)", F_OK) == 0 }.count }
    }

    @Test func aLookupThatNeverAnswersIsGivenUpAndNoOtherPilesUp() throws {
        let lookups = Lookups()
        let lines = Mutex<[String]>([])
        let endpoint = MQTTEndpoint(host: "silent-dns.test", port: 1883, clientID: "give-up-test", keepalive: 60,
                                    username: nil, password: nil, tls: nil, availabilityTopic: "give-up/availability")
        let connection = MQTTConnection(endpoint: endpoint, eventTopic: "give-up/event", connectTimeout: 10, now: 0) { _, line in
            lines.withLock { $0.append(line) }
        }
        connection.lookupConnect = lookups.connect
        defer { lookups.hang.withLock { $0 = false }; connection.stop() }
        var longestTurn = 0.0, mostAlive = 0
        var now = 0.0
        func turns(until end: Double) {
            while now < end {
                let started = wallClock()
                _ = connection.serve(revents: 0, now: now)
                longestTurn = max(longestTurn, wallClock() - started)
                if now.truncatingRemainder(dividingBy: 1) == 0 { mostAlive = max(mostAlive, lookups.alive) }
                now += 0.25
                usleep(500)
            }
        }
        turns(until: 9.75)
        // Still waiting on the lookup: nothing said, nothing given up.
        #expect(lines.withLock { $0 }.isEmpty)
        #expect(connection.state == .connecting(since: 0))
        turns(until: 10.25)
        let gaveUp = lines.withLock { $0 }
        #expect(gaveUp == ["mqtt: cannot connect to silent-dns.test:1883: no answer from DNS for silent-dns.test within 10 s; trying again in 1 s"])
        guard case .waiting(let retryAt) = connection.state else { Issue.record("state \(connection.state)"); return }
        #expect(retryAt == 11)
        // The lookup hangs on for a minute of the kiosk's clock: later attempts are made and
        // refused while it does, and no second lookup starts.
        turns(until: 70)
        #expect(lookups.made.withLock { $0 } == 1)
        #expect(mostAlive == 1)
        let waiting = lines.withLock { $0 }.filter { $0.contains("the last lookup of silent-dns.test has not ended") }
        #expect(waiting.count >= 3, "\(lines.withLock { $0 })")
        #expect(longestTurn < 0.1, "a turn took \(longestTurn) s")
        // The lookup ends at last: the next attempt looks the name up again.
        lookups.hang.withLock { $0 = false }
        for _ in 0..<2_000 where lookups.alive > 0 { usleep(1_000) }
        turns(until: 200)
        #expect(lookups.made.withLock { $0 } >= 2)
        print("lookup never answering: given up at 10 s, \(waiting.count) later attempts held back while it hung, "
              + "\(lookups.made.withLock { $0 }) lookups in all, at most \(mostAlive) alive, longest turn \(Int(longestTurn * 1000)) ms")
    }
}

private func wallClock() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
