import Glibc
import LinuxSystem
import DialCore
import KioskReporting

/// Runs items' commands without a shell and without ever blocking the render loop: posix_spawn
/// into a process group of their own, then `reap(now:)` with waitpid(WNOHANG) on every loop
/// turn (SIGCHLD wakes the loop through its signalfd). A command still running after its
/// timeout gets SIGTERM on its group, SIGKILL `grace` seconds later; a command that exits and
/// leaves processes in its group (it daemonised something) has them terminated the same way.
/// The loop wakes only at these deadlines (`nextDeadline`). A process that calls setsid(2)
/// leaves the group and escapes this; systemd still ends it at stop (KillMode=control-group).
package final class CommandRunner {
    /// What `run` did.
    package enum Launch: Equatable {
        case started(pid: Int32)
        /// The item has no `command`.
        case noCommand
        /// The item's previous run has not finished; a double tap must not order twice.
        case alreadyRunning(pid: Int32)
        case failed(SystemCallError)
    }

    /// How a child ended.
    package enum Outcome: Equatable {
        case exited(status: Int32)
        case killed(signal: Int32)

        package var succeeded: Bool { self == .exited(status: 0) }
    }

    /// A reaped child.
    package struct Finished: Equatable {
        /// The item's path, `drinks/coffee` (on the top ring its id).
        package var itemPath: String
        package var pid: Int32
        package var outcome: Outcome
    }

    private struct Running {
        var pid: Int32
        /// The item's path: ids repeat across rings, paths do not.
        var itemPath: String
        var program: String
        var timeout: Double
        /// When its group gets SIGTERM (started + timeout).
        var deadline: Double
        /// After SIGTERM went out: when the group gets SIGKILL.
        var killAt: Double?
        /// SIGKILL went out; the SIGCHLD that follows reaps it.
        var killed = false
    }

    /// The group of a command that exited and left processes behind: SIGTERM went out, SIGKILL
    /// follows at `killAt`. The group id stays reserved while any member lives (a pid is not
    /// handed out again while a process group uses it), so the SIGKILL can only reach another
    /// group if every member died and pids wrapped round to this one within `grace` seconds.
    private struct Leftovers {
        var pgid: Int32
        var itemPath: String
        var killAt: Double
    }

    /// Seconds between SIGTERM and SIGKILL.
    package let grace: Double

    /// Variables the service got from systemd that a child must not see (it would otherwise
    /// be able to notify or claim sockets on the service's behalf).
    package static let withheldVariables: Set<String> = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID",
                                                 "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"]

    private let environment: [String: String]
    private let logger: JournalLogger?
    private var running: [Running] = []
    private var leftovers: [Leftovers] = []

    /// `environment` is the base every child gets (usually `ProcessEnvironment.current()`).
    package init(environment: [String: String], logger: JournalLogger?, grace: Double = 5) {
        self.environment = environment
        self.logger = logger
        self.grace = grace
    }

    /// The next time `reap(now:)` has something to do besides collecting exited children (which
    /// SIGCHLD announces): a timeout or a SIGKILL. Nil when nothing is pending.
    package var nextDeadline: Double? {
        (running.filter { !$0.killed }.map { $0.killAt ?? $0.deadline } + leftovers.map(\.killAt)).min()
    }

    /// Children started and not yet reaped.
    package var runningCount: Int { running.count }

    /// The environment of `item`'s command: ours without systemd's variables, plus the item's
    /// id, label and path (`drinks/coffee/large`; the id on the top ring). Sorted, so it is
    /// reproducible.
    package static func childEnvironment(base: [String: String], item: MenuItem, path: MenuPath,
                                        extra: [String: String] = [:]) -> [String] {
        var env = base.filter { !withheldVariables.contains($0.key) }.merging(extra) { $1 }
        env["DIALKIOSK_ITEM_ID"] = item.id
        env["DIALKIOSK_ITEM_LABEL"] = item.label
        env["DIALKIOSK_ITEM_PATH"] = path.description
        return env.map { "\($0.key)=\($0.value)" }.sorted()
    }

    /// Starts the command of `item` at `path` (nil: the top ring's item of that id) at `now`,
    /// if it has one and it is not still running; after `timeout` seconds its process group is
    /// terminated. Failures are logged and returned; nothing here waits.
    @discardableResult
    package func run(_ item: MenuItem, path: MenuPath? = nil, now: Double, timeout: Double = 30,
                    extra: [String: String] = [:]) -> Launch {
        guard let argv = item.command, let program = argv.first else { return .noCommand }
        let path = path ?? MenuPath([item.id])
        let name = path.description
        if let previous = running.first(where: { $0.itemPath == name }) {
            logger?.warning("item '\(name)': \(program) is still running (pid \(previous.pid)); not started again")
            return .alreadyRunning(pid: previous.pid)
        }
        switch spawn(argv: argv, environment: Self.childEnvironment(base: environment, item: item, path: path, extra: extra)) {
        case .success(let pid):
            running.append(Running(pid: pid, itemPath: name, program: program, timeout: timeout, deadline: now + timeout))
            logger?.info("item '\(name)': started \(program) (pid \(pid))")
            return .started(pid: pid)
        case .failure(let failure):
            let error = SystemCallError("run the command of item '\(name)' (\(program))", errno: failure.rawValue)
            logger?.error(error.description)
            return .failed(error)
        }
    }

    /// Collects every child that has ended, without waiting, and logs the ones that failed;
    /// terminates the groups whose time is up, and what an ended command left in its group.
    @discardableResult
    package func reap(now: Double) -> [Finished] {
        var finished: [Finished] = []
        running.removeAll { child in
            var status: Int32 = 0
            // Only our own pids: a blanket waitpid(-1) would steal other children's statuses.
            let pid = waitpid(child.pid, &status, WNOHANG)
            if pid == 0 { return false }
            if pid < 0 {
                // ECHILD: someone else reaped it; nothing more will come.
                return errno == ECHILD
            }
            let outcome = Self.outcome(status)
            finished.append(Finished(itemPath: child.itemPath, pid: pid, outcome: outcome))
            switch outcome {
            case .exited(0):
                logger?.info("item '\(child.itemPath)': \(child.program) (pid \(pid)) finished")
            case .exited(let code):
                logger?.error("item '\(child.itemPath)': \(child.program) (pid \(pid)) exited with status \(code)")
            case .killed(let signal):
                logger?.error("item '\(child.itemPath)': \(child.program) (pid \(pid)) killed by signal \(signal)")
            }
            // Its group may live on (something it started in the background): end that too.
            if kill(-pid, SIGTERM) == 0 {
                logger?.warning("item '\(child.itemPath)': \(child.program) (pid \(pid)) left processes in its group; sent them SIGTERM")
                leftovers.append(Leftovers(pgid: pid, itemPath: child.itemPath, killAt: now + grace))
            }
            return true
        }
        for i in running.indices {
            let child = running[i]
            guard !child.killed else { continue }
            if let killAt = child.killAt {
                guard now >= killAt else { continue }
                kill(-child.pid, SIGKILL)
                running[i].killed = true
                logger?.error("item '\(child.itemPath)': \(child.program) (pid \(child.pid)) outlived SIGTERM by \(Self.seconds(grace)) s; sent SIGKILL")
            } else if now >= child.deadline {
                kill(-child.pid, SIGTERM)
                running[i].killAt = now + grace
                logger?.error("item '\(child.itemPath)': \(child.program) (pid \(child.pid)) still running after "
                              + "\(Self.seconds(child.timeout)) s; sent SIGTERM to its process group")
            }
        }
        leftovers.removeAll { group in
            guard now >= group.killAt else { return false }
            if kill(-group.pgid, SIGKILL) == 0 {
                logger?.error("item '\(group.itemPath)': processes left in group \(group.pgid) outlived SIGTERM; sent SIGKILL")
            }
            return true
        }
        return finished
    }

    private static func seconds(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Decodes a wait status (the WIFEXITED/WEXITSTATUS macros, which Swift does not import).
    package static func outcome(_ status: Int32) -> Outcome {
        let signal = status & 0x7F
        return signal == 0 ? .exited(status: (status >> 8) & 0xFF) : .killed(signal: signal)
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// glibc 2.34's posix_spawn_file_actions_addclosefrom_np; the Glibc module does not export
    /// it (it is a GNU extension), so it is looked up at run time.
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// posix_spawnp with the child's standard streams and signal state made safe for a service.
    private func spawn(argv: [String], environment: [String]) -> Result<Int32, Errno> {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        // stdin from /dev/null: the service owns tty1 and the child must not read it.
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        // stdout is the service's JSON event stream; the child's output goes to stderr (the journal).
        posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        // The DRM master fd and the input fds must never leak, even if one lacks O_CLOEXEC.
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }

        // The main loop blocks signals for its signalfd and ignores SIGPIPE; both would be
        // inherited across exec, so the child gets an empty mask and default dispositions.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGTERM, SIGCHLD, SIGPIPE, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Its own process group, so a terminal's Ctrl-C during development reaches only us.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup($0) } + [nil]
        defer {
            cArgv.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var pid = pid_t()
        let rc = posix_spawnp(&pid, argv[0], &actions, &attributes, cArgv, cEnv)
        // posix_spawnp returns the errno instead of setting it.
        return rc == 0 ? .success(pid) : .failure(Errno(rc))
    }
}
