import Glibc
import DialCore
import Foundation
import Testing
@testable import KioskReporting
@testable import KioskFeatures
import KioskTestSupport

/// Real children. Each test waits for its child with waitid(WNOWAIT), which leaves the zombie for
/// `reap(now:)` to collect: no sleeps, and `reap(now:)` itself never blocks.
@Suite struct CommandRunnerTests {
    private func item(_ id: String, _ command: [String]?) -> MenuItem {
        MenuItem(id: id, label: "Label of \(id)", color: RGBColor(hex: 0), command: command)
    }

    private func waitUntilExited(_ pid: Int32) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
    }

    private func contents(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        while case let c = fgetc(file), c != EOF { bytes.append(UInt8(c)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The first line written into the FIFO at `path` (a guard of a minute against a child that
    /// never writes: a hang is not a verdict on speed).
    private func awaitLine(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while !bytes.contains(UInt8(ascii: "\n")) {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 60_000) == 1 else { return nil }
            let n = read(fd, &buffer, buffer.count)
            if n > 0 { bytes += buffer[0..<n] } else if n == 0 { usleep(1000) }
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// True once `pid` (not our child) is gone or a zombie; checked up to a minute.
    private func awaitDeath(_ pid: Int32) -> Bool {
        for _ in 0..<60_000 {
            guard let stat = contents("/proc/\(pid)/stat"),
                  let state = stat.split(separator: ")").last?.split(separator: " ").first else { return true }
            if state == "Z" || state == "X" { return true }
            usleep(1000)
        }
        return false
    }

    @Test func environmentCarriesTheItemAndWithholdsSystemd() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let out = dir.path + "/env"
        var logs: [String] = []
        let logger = JournalLogger(format: LogFormat(journalPrefixes: true)) { logs.append($0) }
        let runner = CommandRunner(environment: ["PATH": "/usr/bin:/bin", "NOTIFY_SOCKET": "/run/x", "KEEP": "1"],
                                   logger: logger)
        // The test's own probe uses a shell to print what it received; the runner used none.
        let probe = ["sh", "-c",
                     "printf '%s|%s|%s|%s' \"$DIALKIOSK_ITEM_ID\" \"$DIALKIOSK_ITEM_LABEL\" \"${NOTIFY_SOCKET-unset}\" \"$KEEP\" > \"$0\"",
                     out]
        guard case .started(let pid) = runner.run(item("tea", probe), now: 0) else {
            Issue.record("not started")
            return
        }
        #expect(runner.runningCount == 1)
        waitUntilExited(pid)
        #expect(runner.reap(now: 0) == [.init(itemPath: "tea", pid: pid, outcome: .exited(status: 0))])
        #expect(runner.runningCount == 0)
        #expect(contents(out) == "tea|Label of tea|unset|1")
        #expect(logs == ["<6>item 'tea': started sh (pid \(pid))\n", "<6>item 'tea': sh (pid \(pid)) finished\n"])
    }

    /// A command learns where its item is (`DIALKIOSK_ITEM_PATH`), and since ids
    /// repeat across rings, "still running" is decided by path: `small/large` running does
    /// not keep `big/large` from starting, a second tap on `small/large` does.
    @Test func commandsKnowTheirItemsPathAndRunOncePerPath() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var logs: [String] = []
        let logger = JournalLogger(format: LogFormat(journalPrefixes: false)) { logs.append($0) }
        let runner = CommandRunner(environment: ["PATH": "/usr/bin:/bin"], logger: logger)
        func large(_ out: String) -> MenuItem {
            item("large", ["sh", "-c", "printf '%s|%s' \"$DIALKIOSK_ITEM_PATH\" \"$DIALKIOSK_ITEM_ID\" > \"$0\"", out])
        }
        guard case .started(let first) = runner.run(large(dir.path + "/small"), path: ["coffee", "small", "large"], now: 0),
              case .started(let second) = runner.run(large(dir.path + "/big"), path: ["coffee", "big", "large"], now: 0) else {
            Issue.record("not started: \(logs)")
            return
        }
        #expect(runner.run(large(dir.path + "/again"), path: ["coffee", "small", "large"], now: 0) == .alreadyRunning(pid: first))
        waitUntilExited(first)
        waitUntilExited(second)
        #expect(Set(runner.reap(now: 0).map(\.itemPath)) == ["coffee/small/large", "coffee/big/large"])
        #expect(contents(dir.path + "/small") == "coffee/small/large|large")
        #expect(contents(dir.path + "/big") == "coffee/big/large|large")
        #expect(logs.first == "item 'coffee/small/large': started sh (pid \(first))\n")
        // Without a path (a flat menu's caller) the path is the id.
        #expect(CommandRunner.childEnvironment(base: [:], item: item("tea", ["x"]), path: ["tea"])
                == ["DIALKIOSK_ITEM_ID=tea", "DIALKIOSK_ITEM_LABEL=Label of tea", "DIALKIOSK_ITEM_PATH=tea"])
    }

    @Test func argumentsAreNeverInterpretedByAShell() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let literal = dir.path + "/a b;c $HOME `id`"
        let runner = CommandRunner(environment: ["PATH": "/usr/bin:/bin"], logger: nil)
        guard case .started(let pid) = runner.run(item("x", ["touch", literal]), now: 0) else {
            Issue.record("not started")
            return
        }
        waitUntilExited(pid)
        #expect(runner.reap(now: 0).first?.outcome == .exited(status: 0))
        #expect(access(literal, F_OK) == 0)
    }

    @Test func nonZeroExitAndSignalsAreLogged() {
        var logs: [String] = []
        let runner = CommandRunner(environment: ["PATH": "/usr/bin:/bin"],
                                   logger: JournalLogger(format: LogFormat(journalPrefixes: true)) { logs.append($0) })
        guard case .started(let failing) = runner.run(item("f", ["/bin/false"]), now: 0),
              case .started(let killed) = runner.run(item("k", ["sh", "-c", "kill -9 $$"]), now: 0) else {
            Issue.record("not started")
            return
        }
        waitUntilExited(failing)
        waitUntilExited(killed)
        let finished = runner.reap(now: 0)
        #expect(Set(finished.map(\.pid)) == [failing, killed])
        #expect(finished.first { $0.pid == failing }?.outcome == .exited(status: 1))
        #expect(finished.first { $0.pid == killed }?.outcome == .killed(signal: SIGKILL))
        #expect(logs.contains("<3>item 'f': /bin/false (pid \(failing)) exited with status 1\n"))
        #expect(logs.contains("<3>item 'k': sh (pid \(killed)) killed by signal 9\n"))
    }

    @Test func spawnFailureIsReportedAndLogged() {
        var logs: [String] = []
        let runner = CommandRunner(environment: [:],
                                   logger: JournalLogger(format: LogFormat(journalPrefixes: false)) { logs.append($0) })
        let launch = runner.run(item("gone", ["/nonexistent/program", "x"]), now: 0)
        #expect(launch == .failed(SystemCallError("run the command of item 'gone' (/nonexistent/program)", errno: ENOENT)))
        #expect(logs == ["Failed to run the command of item 'gone' (/nonexistent/program): No such file or directory\n"])
        #expect(runner.runningCount == 0)
    }

    @Test func noCommandAndNoDoubleStart() {
        let runner = CommandRunner(environment: ["PATH": "/usr/bin:/bin"], logger: nil)
        #expect(runner.run(item("plain", nil), now: 0) == .noCommand)
        // `cat` with stdin from /dev/null ends at once; the second tap comes before it is reaped.
        guard case .started(let pid) = runner.run(item("c", ["cat"]), now: 0) else {
            Issue.record("not started")
            return
        }
        #expect(runner.run(item("c", ["cat"]), now: 0) == .alreadyRunning(pid: pid))
        waitUntilExited(pid)
        #expect(runner.reap(now: 0).map(\.outcome) == [.exited(status: 0)])
        #expect(runner.reap(now: 0).isEmpty)
    }

    @Test func childStartsWithNoBlockedOrIgnoredSignals() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let out = dir.path + "/status"
        // Block SIGUSR1 and SIGHUP on this thread as the main loop does for its signalfd, and
        // ignore SIGPIPE as a socket server does.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGUSR1)
        sigaddset(&blocked, SIGHUP)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let previousPipe = signal(SIGPIPE, SIG_IGN)
        defer {
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            signal(SIGPIPE, previousPipe)
        }
        // cp copies its own /proc status (dash would clear its mask itself and hide the result).
        let runner = CommandRunner(environment: ["PATH": "/usr/bin:/bin"], logger: nil)
        guard case .started(let pid) = runner.run(item("m", ["cp", "/proc/self/status", out]), now: 0) else {
            Issue.record("not started")
            return
        }
        waitUntilExited(pid)
        runner.reap(now: 0)
        let status = contents(out) ?? ""
        let lines = status.split(separator: "\n")
        #expect(lines.contains("SigBlk:\t0000000000000000"))
        let ignored = lines.first { $0.hasPrefix("SigIgn:") }.flatMap { UInt64($0.dropFirst(8), radix: 16) }
        #expect(ignored.map { $0 & (1 << (UInt64(SIGPIPE) - 1)) } == 0)
    }

    /// A command that never exits disabled its item until a restart. Its
    /// group now gets SIGTERM at the timeout and SIGKILL `grace` later, and the loop needs to
    /// wake only at those two times.
    @Test func aCommandThatNeverExitsIsTerminatedThenKilled() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fifo = dir.path + "/ready"
        #expect(mkfifo(fifo, 0o600) == 0)
        var logs: [String] = []
        let runner = CommandRunner(environment: ["PATH": "/usr/bin:/bin"],
                                   logger: JournalLogger(format: LogFormat(journalPrefixes: true)) { logs.append($0) }, grace: 5)
        // It ignores SIGTERM (the ignored disposition survives exec) and says so when it does.
        let stubborn = item("s", ["sh", "-c", "trap '' TERM; echo ready > \"$0\"; exec sleep 1000", fifo])
        guard case .started(let pid) = runner.run(stubborn, now: 100, timeout: 10) else {
            Issue.record("not started")
            return
        }
        #expect(awaitLine(fifo) == "ready")
        #expect(getpgid(pid) == pid, "a process group of its own")
        #expect(runner.nextDeadline == 110)
        #expect(runner.reap(now: 109).isEmpty)
        #expect(runner.run(stubborn, now: 109) == .alreadyRunning(pid: pid))
        #expect(runner.reap(now: 110).isEmpty)
        #expect(logs.last == "<3>item 's': sh (pid \(pid)) still running after 10 s; sent SIGTERM to its process group\n")
        #expect(runner.nextDeadline == 115)
        #expect(runner.reap(now: 115).isEmpty)
        #expect(logs.last == "<3>item 's': sh (pid \(pid)) outlived SIGTERM by 5 s; sent SIGKILL\n")
        #expect(runner.nextDeadline == nil, "nothing left to time; SIGCHLD announces the exit")
        waitUntilExited(pid)
        #expect(runner.reap(now: 115.1) == [.init(itemPath: "s", pid: pid, outcome: .killed(signal: SIGKILL))])
        #expect(runner.runningCount == 0)
        guard case .started(let again) = runner.run(item("s", ["true"]), now: 116) else {
            Issue.record("the item is usable again")
            return
        }
        waitUntilExited(again)
        runner.reap(now: 116)
    }

    /// A command that starts something in the background and exits used to leave it running,
    /// one more per tap. Its process group is terminated once the command itself has ended.
    @Test func whatAnEndedCommandLeftInItsGroupIsTerminated() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pidFile = dir.path + "/pid"
        var logs: [String] = []
        let runner = CommandRunner(environment: ["PATH": "/usr/bin:/bin"],
                                   logger: JournalLogger(format: LogFormat(journalPrefixes: true)) { logs.append($0) })
        guard case .started(let pid) = runner.run(item("d", ["sh", "-c", "sleep 1000 & echo $! > \"$0\"", pidFile]), now: 0) else {
            Issue.record("not started")
            return
        }
        waitUntilExited(pid)
        let straggler = try #require(contents(pidFile).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        #expect(getpgid(straggler) == pid, "the background process is in the command's group")
        #expect(runner.reap(now: 3).map(\.outcome) == [.exited(status: 0)])
        #expect(logs.contains("<4>item 'd': sh (pid \(pid)) left processes in its group; sent them SIGTERM\n"))
        #expect(runner.nextDeadline == 3 + runner.grace)
        #expect(awaitDeath(straggler), "sleep ended by SIGTERM")
        runner.reap(now: 3 + runner.grace)
        #expect(runner.nextDeadline == nil)
    }

    @Test func waitStatusDecoding() {
        #expect(CommandRunner.outcome(0) == .exited(status: 0))
        #expect(CommandRunner.outcome(3 << 8) == .exited(status: 3))
        #expect(CommandRunner.outcome(15) == .killed(signal: 15))
    }
}
