import Glibc
import KioskReporting
import KioskTestSupport
import Testing
@testable import KioskLock

/// The state at rest under kill -9: a `dialkiosk lock drill` child enters 30 wrong PINs against
/// a state folder (each verdict printed only once it is on the disk) and is killed at random
/// moments, and at each of the write's points (`DIALKIOSK_LOCK_CRASH_AT`), then started again.
/// After every kill the file must be readable, its count must not have gone back nor be below
/// any verdict the child printed, and the times of the failures printed must be at least the
/// rule's back-offs apart.
@Suite(.serialized) struct LockCrashTests {
    /// Starts the drill with stdout appended to `output`; returns its pid.
    static func spawnDrill(_ state: String, output: String, environment: [String: String] = [:]) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, output + ".err", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let argv = [builtKioskPath, "lock", "drill", "--state-dir", state, "--failures", "30"]
        var env = ProcessEnvironment.current()
        env.merge(environment) { $1 }
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnv = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cArgv.forEach { free($0) }; cEnv.forEach { free($0) } }
        var pid = pid_t()
        precondition(posix_spawn(&pid, argv[0], &actions, nil, cArgv, cEnv) == 0, "spawn failed")
        return pid
    }

    /// Waits for `pid`; true when it ended by SIGKILL.
    @discardableResult
    static func reap(_ pid: pid_t) -> (killed: Bool, status: Int32) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return ((status & 0x7F) == SIGKILL, (status >> 8) & 0xFF)
    }

    /// Kills `pid` `after` microseconds past the moment `output` shows `count` failures, or
    /// reaps it if it ends first.
    static func killOnceShown(_ pid: pid_t, output: String, count: Int, after: UInt32) -> (killed: Bool, status: Int32) {
        var status: Int32 = 0
        while printed(output).count < count {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { return ((status & 0x7F) == SIGKILL, (status >> 8) & 0xFF) }
            usleep(200)
        }
        usleep(after)
        kill(pid, SIGKILL)
        return reap(pid)
    }

    /// The failures printed so far: count and time.
    static func printed(_ output: String) -> [(count: Int, time: Double)] {
        (readFile(output) ?? "").split(separator: "\n").compactMap { line -> (Int, Double)? in
            guard line.hasPrefix("failed ") else { return nil }
            var count: Int?, time: Double?
            for field in line.split(separator: " ") {
                if field.hasPrefix("failures=") { count = Int(field.dropFirst(9)) }
                if field.hasPrefix("t=") { time = Double(field.dropFirst(2)) }
            }
            guard let count, let time else { return nil }
            return (count, time)
        }
    }

    /// What must hold after each kill; `previous` is the count the file held before.
    static func check(_ dir: String, output: String, previous: inout Int) {
        let loaded = LockStateStore(directory: dir).load(now: 0)
        #expect(loaded.problem == nil, "the file after a kill: \(String(describing: loaded.problem))")
        let stored = loaded.state.failures
        #expect(stored >= previous, "the count went back from \(previous) to \(stored)")
        previous = stored
        let shown = printed(output)
        #expect(stored >= (shown.map(\.count).max() ?? 0), "a verdict was shown before its failure was on the disk")
        // The rule between every two failures printed: the later waited out each back-off in between.
        let sorted = shown.sorted { $0.count < $1.count }
        for (a, b) in zip(sorted, sorted.dropFirst()) where b.count > a.count {
            let wait = (a.count..<b.count).map { LockBackoff.refusal(after: $0) }.reduce(0, +)
            #expect(b.time - a.time >= wait - 0.001, "failure \(b.count) came \(b.time - a.time) s after \(a.count), the rule says \(wait)")
        }
        if let last = sorted.last, let stamp = loaded.state.lastFailure {
            #expect(stamp >= last.time - 0.001, "the stored last failure is older than one shown")
        }
    }

    /// Rounds of 30 wrong entries, each in a fresh state folder, the child killed after a
    /// random time in every run until the state counts 30.
    @Test func killedAtRandomPointsOfThirtyWrongEntries() throws {
        var rng = SystemRandomNumberGenerator()
        var kills = 0, runs = 0, printed = 0
        // At least four rounds, and more until twenty kills have landed: a kill that lands
        // after the last write proves nothing.
        var rounds = 0
        while (rounds < 4 || kills < 20) && rounds < 60 {
            rounds += 1
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let output = dir.path + "/drill.out"
            var previous = 0
            var roundRuns = 0
            while LockStateStore(directory: dir.path).load(now: 0).state.failures < 30 && roundRuns < 200 {
                roundRuns += 1
                let before = Self.printed(output).count
                let pid = Self.spawnDrill(dir.path, output: output)
                let ended: (killed: Bool, status: Int32)
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    // A moment after the start: often before the first write, when the state
                    // file may not even exist yet.
                    usleep(UInt32.random(in: 0...100_000, using: &rng))
                    kill(pid, SIGKILL)
                    ended = Self.reap(pid)
                } else {
                    // Inside the run, whatever the machine's speed: once the child has shown a
                    // random number of verdicts (one at least, so that a round's last one gets
                    // done), and then within the next write or two (a run on a fast disk writes
                    // all 30 in a few milliseconds, so a kill timed from the start alone would
                    // mostly land after the child had ended).
                    let wanted = before + Int.random(in: 1...max(1, 30 - previous), using: &rng)
                    ended = Self.killOnceShown(pid, output: output, count: wanted,
                                               after: UInt32.random(in: 0...1_500, using: &rng))
                }
                if ended.killed { kills += 1 }
                Self.check(dir.path, output: output, previous: &previous)
            }
            #expect(LockStateStore(directory: dir.path).load(now: 0).state.failures == 30, "\(roundRuns) runs")
            runs += roundRuns
            printed += Self.printed(output).count
        }
        #expect(kills >= 20, "the kills must land: \(kills) of \(runs)")
        print("lock drill: \(runs) runs, \(kills) killed, \(printed) verdicts printed")
    }

    @Test(arguments: LockCrashPoint.Point.allCases)
    func killedAtEachPointOfTheWrite(point: LockCrashPoint.Point) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let output = dir.path + "/drill.out"
        var previous = 0
        var runs = 0
        // Each run is killed at `point` of its third write, then the next run goes on.
        while LockStateStore(directory: dir.path).load(now: 0).state.failures < 30 && runs < 60 {
            runs += 1
            let pid = Self.spawnDrill(dir.path, output: output, environment: ["DIALKIOSK_LOCK_CRASH_AT": "\(point.rawValue)@3"])
            let ended = Self.reap(pid)
            let left = 30 - LockStateStore(directory: dir.path).load(now: 0).state.failures
            #expect(ended.killed || left == 0, "run \(runs) was not killed at \(point.rawValue) (status \(ended.status))")
            Self.check(dir.path, output: output, previous: &previous)
        }
        #expect(LockStateStore(directory: dir.path).load(now: 0).state.failures == 30)
    }
}
