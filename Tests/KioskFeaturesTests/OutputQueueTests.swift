import Glibc
import LinuxSystem
import Foundation
import Testing
@testable import KioskReporting
import KioskTestSupport

/// Event and log lines on the frame loop went out with blocking write(2),
/// so a reader that stopped froze the kiosk, and one that went away killed it (SIGPIPE).
@Suite struct OutputQueueTests {
    /// A pipe whose buffer holds one page, so it fills after a few lines.
    private func smallPipe() -> (read: Int32, write: Int32) {
        // Close-on-exec at once: a child another test spawns meanwhile must not keep the read end open,
        // or a write after close(read) finds a reader still there and no EPIPE comes.
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[1], 1031 /* F_SETPIPE_SZ */, 4096)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        return (fds[0], fds[1])
    }

    private func line(_ i: Int) -> String {
        "{\"t\": \(i), \"event\": \"selected\", \"index\": 3, \"id\": \"weissbier\", \"label\": \"Weissbier\"}"
    }

    @Test func aPipeNobodyReadsNeverBlocksKeepsMemoryBoundedAndCountsTheDrops() throws {
        let (r, w) = smallPipe()
        defer { close(r); close(w) }
        let queue = OutputQueue(fd: w, capacity: 8 * 1024)
        var reports: [OutputQueue.Report] = []
        queue.report = { reports.append($0) }
        #expect(queue.mode == .reopened)
        for i in 0..<10_000 { queue.append(line: line(i)) }
        #expect(queue.pendingBytes <= 8 * 1024)
        #expect(queue.pendingBytes > 0)
        #expect(queue.pollDescriptor?.events == Int16(POLLOUT))
        #expect(reports.isEmpty, "no room yet: the count waits")
        #expect(fcntl(w, F_GETFL) & O_NONBLOCK == 0, "the shared descriptor is left blocking for everyone else")
        // The reader wakes up: everything that was queued arrives in whole lines, then the count.
        var received = ""
        while queue.pendingBytes > 0 {
            received += drainText(r)
            queue.flush()
        }
        received += drainText(r)
        let lines = received.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(received.hasSuffix("\n"))
        #expect(lines.allSatisfy { $0.hasPrefix("{\"t\": ") && $0.hasSuffix("\"label\": \"Weissbier\"}") })
        #expect(reports == [.dropped(lines: 10_000 - lines.count)])
        #expect(queue.pollDescriptor == nil)
    }

    @Test func aSocketIsWrittenWithoutWaiting() throws {
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        let queue = OutputQueue(fd: pair[1], capacity: 16 * 1024)
        #expect(queue.mode == .socket)
        for i in 0..<50_000 { queue.append(line: line(i)) }
        #expect(queue.droppedLines > 0)
        #expect(queue.pendingBytes <= 16 * 1024)
        #expect(fcntl(pair[1], F_GETFL) & O_NONBLOCK == 0)
    }

    @Test func aReaderThatWentAwayClosesTheQueueOnce() throws {
        let previous = signal(SIGPIPE, SIG_IGN)  // as `run` does
        defer { signal(SIGPIPE, previous) }
        let (r, w) = smallPipe()
        defer { close(w) }
        let queue = OutputQueue(fd: w)
        var reports: [OutputQueue.Report] = []
        queue.report = { reports.append($0) }
        queue.append(line: "one")
        close(r)
        queue.append(line: "two")
        queue.append(line: "three")
        #expect(reports == [.closed(errno: Errno(EPIPE))])
        #expect(queue.isClosed && queue.pollDescriptor == nil && queue.pendingBytes == 0)
    }

    /// A descriptor that is not open at all (stdout closed by whoever started us) is given up
    /// at once; polling it would return POLLNVAL for ever and spin the loop.
    @Test func aDescriptorThatIsNotOpenIsGivenUp() {
        let queue = OutputQueue(fd: 900_000)
        var reports: [OutputQueue.Report] = []
        queue.report = { reports.append($0) }
        #expect(queue.mode == .pollFirst)
        queue.append(line: "lost")
        #expect(reports == [.closed(errno: Errno(EBADF))])
        #expect(queue.pollDescriptor == nil)
    }

    @Test func writesAreWholeLinesOfAtMostPipeBuf() {
        func chunk(_ text: String) -> Int {
            Array(text.utf8).withUnsafeBytes { OutputQueue.chunkLength($0[...]) }
        }
        let short = String(repeating: "x", count: 99) + "\n"  // 100 bytes
        #expect(chunk(short) == 100)
        #expect(chunk(String(repeating: short, count: 50)) == 4000, "40 whole lines fit in 4096, the 41st does not")
        let long = String(repeating: "y", count: 5000) + "\n"
        #expect(chunk(long + short) == 5001, "a line longer than PIPE_BUF goes alone")
        #expect(chunk("tail without newline") == 20)
    }

    /// The loop polls a queue that has lines waiting for POLLOUT and flushes it when the reader
    /// makes room; the service logs the count once.
    @Test func theServiceDropsEventLinesForAStoppedReaderAndSaysHowMany() throws {
        let f = try LegacyServiceTests.Fixture(watchdogUSec: nil)
        _ = fcntl(f.pipeFDs[1], 1031 /* F_SETPIPE_SZ */, 4096)
        // Old code blocks in write(2) here; a rescuer unblocks it after a while so the test can
        // fail instead of hanging. It never acts when the writes do not block.
        let rescuer = PipeRescuer(fd: f.pipeFDs[0], after: 30)
        for i in 0..<2_000 { f.service.report([.selected(index: i % 10, path: ["item-\(i % 10 + 1)"], time: Double(i))], frames: i) }
        #expect(!rescuer.stop(), "event lines blocked the caller")
        let events = try #require(f.service.outputQueues.first)
        #expect(events.pendingBytes > 0 && events.pendingBytes <= events.capacity)
        var received = ""
        while events.pendingBytes > 0 {
            received += f.stdout()
            var pfd = try #require(events.pollDescriptor)
            #expect(poll(&pfd, 1, 0) == 1, "writable once read: the loop's poll source")
            events.flush()
        }
        received += f.stdout()
        let lines = received.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("{\"t\": ") && $0.hasSuffix("\"]}") })
        let warning = "<4>events: dropped \(2_000 - lines.count) event lines: standard output was not being read\n"
        #expect(f.logs.filter { $0.contains("dropped") } == [warning])
    }
}

/// Drains a pipe from another thread once `seconds` have passed, unless stopped first; says
/// whether it had to. Only a guard against a hanging test, never a verdict on speed.
/// @unchecked: its two flags are read and written only while holding `lock`; `fd` is a constant.
final class PipeRescuer: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var acted = false

    init(fd: Int32, after seconds: Double) {
        Thread { [self] in
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if isStopped { return }
                usleep(50_000)
            }
            markActed()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while !isStopped { if read(fd, &buffer, buffer.count) <= 0 { usleep(10_000) } }
        }.start()
    }

    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }
    private func markActed() { lock.lock(); acted = true; lock.unlock() }

    /// Stops the guard; true if it had to drain the pipe.
    func stop() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        stopped = true
        return acted
    }
}

/// The built binary, with its standard streams set up by the test.
@Suite struct OutputProcessTests {
    private var binary: String { builtKioskPath }

    /// Runs the binary with stdout on `stdoutFD` (or the file `stdoutPath`) and stderr on
    /// `stderrFD`; returns its exit status (128 + N for signal N).
    private func run(_ arguments: [String], stdoutPath: String? = nil, stdoutFD: Int32 = -1, stderrFD: Int32) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let stdoutPath {
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY, 0)
        } else {
            posix_spawn_file_actions_adddup2(&actions, stdoutFD, 1)
        }
        posix_spawn_file_actions_adddup2(&actions, stderrFD, 2)
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, binary, &actions, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// `run` whose stdout and stderr reader is gone: it must end with its own status (here: no
    /// display, 69), not be killed by SIGPIPE (141) while reporting it.
    @Test func runOutlivesAReaderThatWentAway() throws {
        // Close-on-exec at once: a child another test spawns meanwhile must not keep the read end open,
        // or a write after close(read) finds a reader still there and no EPIPE comes.
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        close(fds[0])
        defer { close(fds[1]) }
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let reference = run(["run", "--device", "/nonexistent/card0"], stdoutFD: devNull, stderrFD: devNull)
        let status = run(["run", "--device", "/nonexistent/card0"], stdoutFD: fds[1], stderrFD: fds[1])
        #expect(reference != 128 + SIGPIPE)
        #expect(status == reference, "killed by signal \(status - 128)?")
    }

    /// `simulate > /dev/full` exited 0 with its output lost.
    @Test(.enabled(if: access("/dev/full", W_OK) == 0)) func simulateReportsAFullDisk() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let errPath = dir.path + "/err"
        let err = open(errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(err) }
        let script = repositoryRoot + "/examples/fling.jsonl"
        let status = run(["simulate", "--script", script], stdoutPath: "/dev/full", stderrFD: err)
        #expect(status == ExitStatus.ioError.rawValue)
        #expect(readFile(errPath) == "dialkiosk: Failed to write to standard output: No space left on device\n")
    }
}
