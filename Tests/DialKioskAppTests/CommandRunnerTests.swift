#if canImport(Glibc)
import Glibc
#endif
import DialCore
import Testing
@testable import DialKioskApp

/// Real children. Each test waits for its child with waitid(WNOWAIT), which leaves the zombie for
/// `reap()` to collect: no sleeps, and `reap()` itself never blocks.
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
        guard case .started(let pid) = runner.run(item("tea", probe)) else {
            Issue.record("not started")
            return
        }
        #expect(runner.runningCount == 1)
        waitUntilExited(pid)
        #expect(runner.reap() == [.init(itemID: "tea", pid: pid, outcome: .exited(status: 0))])
        #expect(runner.runningCount == 0)
        #expect(contents(out) == "tea|Label of tea|unset|1")
        #expect(logs == ["<6>item 'tea': started sh (pid \(pid))\n", "<6>item 'tea': sh (pid \(pid)) finished\n"])
    }

    @Test func argumentsAreNeverInterpretedByAShell() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let literal = dir.path + "/a b;c $HOME `id`"
        let runner = CommandRunner(environment: ["PATH": "/usr/bin:/bin"], logger: nil)
        guard case .started(let pid) = runner.run(item("x", ["touch", literal])) else {
            Issue.record("not started")
            return
        }
        waitUntilExited(pid)
        #expect(runner.reap().first?.outcome == .exited(status: 0))
        #expect(access(literal, F_OK) == 0)
    }

    @Test func nonZeroExitAndSignalsAreLogged() {
        var logs: [String] = []
        let runner = CommandRunner(environment: ["PATH": "/usr/bin:/bin"],
                                   logger: JournalLogger(format: LogFormat(journalPrefixes: true)) { logs.append($0) })
        guard case .started(let failing) = runner.run(item("f", ["/bin/false"])),
              case .started(let killed) = runner.run(item("k", ["sh", "-c", "kill -9 $$"])) else {
            Issue.record("not started")
            return
        }
        waitUntilExited(failing)
        waitUntilExited(killed)
        let finished = runner.reap()
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
        let launch = runner.run(item("gone", ["/nonexistent/program", "x"]))
        #expect(launch == .failed(SystemCallError("run the command of item 'gone' (/nonexistent/program)", errno: ENOENT)))
        #expect(logs == ["Failed to run the command of item 'gone' (/nonexistent/program): No such file or directory\n"])
        #expect(runner.runningCount == 0)
    }

    @Test func noCommandAndNoDoubleStart() {
        let runner = CommandRunner(environment: ["PATH": "/usr/bin:/bin"], logger: nil)
        #expect(runner.run(item("plain", nil)) == .noCommand)
        // `cat` with stdin from /dev/null ends at once; the second tap comes before it is reaped.
        guard case .started(let pid) = runner.run(item("c", ["cat"])) else {
            Issue.record("not started")
            return
        }
        #expect(runner.run(item("c", ["cat"])) == .alreadyRunning(pid: pid))
        waitUntilExited(pid)
        #expect(runner.reap().map(\.outcome) == [.exited(status: 0)])
        #expect(runner.reap().isEmpty)
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
        guard case .started(let pid) = runner.run(item("m", ["cp", "/proc/self/status", out])) else {
            Issue.record("not started")
            return
        }
        waitUntilExited(pid)
        runner.reap()
        let status = contents(out) ?? ""
        let lines = status.split(separator: "\n")
        #expect(lines.contains("SigBlk:\t0000000000000000"))
        let ignored = lines.first { $0.hasPrefix("SigIgn:") }.flatMap { UInt64($0.dropFirst(8), radix: 16) }
        #expect(ignored.map { $0 & (1 << (UInt64(SIGPIPE) - 1)) } == 0)
    }

    @Test func waitStatusDecoding() {
        #expect(CommandRunner.outcome(0) == .exited(status: 0))
        #expect(CommandRunner.outcome(3 << 8) == .exited(status: 3))
        #expect(CommandRunner.outcome(15) == .killed(signal: 15))
    }
}
