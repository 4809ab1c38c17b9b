import Glibc
import Testing
import KioskTestSupport

/// postinst's "is tty1 in use" decision, run as the package's own shell code
/// (the block between `# BEGIN tty1 check` and `# END tty1 check`) on a fake /proc and a fake
/// `loginctl` that prints what logind would.
@Suite struct PostinstTests {
    /// A session as `loginctl show-session ID -p VTNr -p TTY -p State` prints it.
    struct Session {
        var id: String
        var vt: Int
        var tty: String
        var state: String
    }

    /// Runs `tty1_in_use START_PID` against `processes` (pid: (parent, tty_nr)) and `sessions`;
    /// true when the block says tty1 is in use. `loginctl: false` leaves no loginctl on PATH.
    private func inUse(processes: [Int: (parent: Int, tty: Int)], start: Int, sessions: [Session],
                       loginctl: Bool = true) throws -> Bool {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let postinst = try #require(readFile(repositoryRoot + "/packaging/debian/postinst"))
        let lines = postinst.split(separator: "\n", omittingEmptySubsequences: false)
        let begin = try #require(lines.firstIndex { $0.hasPrefix("# BEGIN tty1 check") })
        let end = try #require(lines.firstIndex { $0.hasPrefix("# END tty1 check") })
        writeFile(dir.path + "/check.sh", lines[begin...end].joined(separator: "\n") + "\n")

        for (pid, process) in processes {
            _ = mkdir(dir.path + "/proc", 0o755)
            _ = mkdir(dir.path + "/proc/\(pid)", 0o755)
            // pid (comm) state ppid pgrp session tty_nr ...; a name with spaces and a ")".
            writeFile(dir.path + "/proc/\(pid)/stat", "\(pid) (a b) c) S \(process.parent) \(pid) \(pid) \(process.tty) -1 4194560 0\n")
        }
        _ = mkdir(dir.path + "/bin", 0o755)
        // The commands the block needs, and loginctl only when asked for.
        for tool in ["sed", "cut", "awk", "grep"] {
            let candidates: [String] = ["/usr/bin/\(tool)", "/bin/\(tool)"]
            let path = try #require(candidates.first { access($0, X_OK) == 0 })
            symlink(path, dir.path + "/bin/\(tool)")
        }
        if loginctl {
            var script = "#!/bin/sh\ncase \"$1\" in\nlist-sessions)\n"
            for session in sessions { script += "echo ' \(session.id) 1000 admin seat0 \(session.tty)'\n" }
            script += ";;\nshow-session)\ncase \"$2\" in\n"
            for session in sessions {
                script += "\(session.id)) printf 'VTNr=%s\\nTTY=%s\\nState=%s\\n' \(session.vt) '\(session.tty)' \(session.state) ;;\n"
            }
            script += "*) exit 1 ;;\nesac ;;\nesac\n"
            writeFile(dir.path + "/bin/loginctl", script, mode: 0o755)
        }
        let result = runToCompletion(["/bin/sh", "-c", ". \(dir.path)/check.sh; tty1_in_use \(start) && echo in-use || echo free"],
                                     environment: ["dk_proc": dir.path + "/proc", "PATH": dir.path + "/bin"],
                                     outputFile: dir.path + "/log")
        #expect(result.output.hasSuffix("in-use\n") || result.output.hasSuffix("free\n"), "\(result.output)")
        return result.output.hasSuffix("in-use\n")
    }

    /// apt -> dpkg -> postinst on a pty of apt's own; the shell that ran apt has `tty`.
    private func chain(shellTTY: Int) -> [Int: (parent: Int, tty: Int)] {
        [300: (200, 34816), 200: (100, 34816), 100: (50, shellTTY), 50: (1, 0)]
    }

    static let tty1 = 1025, pts = 34817

    @Test func aptTypedOnTty1IsFoundThroughTheAncestors() throws {
        #expect(try inUse(processes: chain(shellTTY: Self.tty1), start: 300, sessions: [], loginctl: false))
    }

    /// tmux or screen on tty1 (the shell has a pty) and setsid (no terminal at all): only logind
    /// knows the login session on VT 1 they belong to.
    @Test func tmuxScreenOrSetsidInATty1LoginAreFoundThroughLogind() throws {
        let login = Session(id: "3", vt: 1, tty: "tty1", state: "active")
        #expect(try inUse(processes: chain(shellTTY: Self.pts), start: 300, sessions: [login]))
        #expect(try inUse(processes: chain(shellTTY: 0), start: 300, sessions: [login]))
        // Logged in on tty1 but showing tty2: tty1 still holds the administrator's shell.
        #expect(try inUse(processes: chain(shellTTY: 0), start: 300, sessions: [Session(id: "3", vt: 1, tty: "tty1", state: "online")]))
        // Only one of the two properties set (a session made by a display manager has no TTY).
        #expect(try inUse(processes: chain(shellTTY: 0), start: 300, sessions: [Session(id: "c1", vt: 1, tty: "", state: "active")]))
    }

    @Test func otherwiseTty1IsFree() throws {
        // Over ssh: a session with a pty and no VT.
        let ssh = Session(id: "5", vt: 0, tty: "pts/0", state: "active")
        #expect(try !inUse(processes: chain(shellTTY: Self.pts), start: 300, sessions: [ssh]))
        // Logged in on tty2 only.
        #expect(try !inUse(processes: chain(shellTTY: 0), start: 300, sessions: [ssh, Session(id: "6", vt: 2, tty: "tty2", state: "active")]))
        // The tty1 login has ended; a detached tmux keeps the session in State=closing.
        #expect(try !inUse(processes: chain(shellTTY: Self.pts), start: 300, sessions: [Session(id: "3", vt: 1, tty: "tty1", state: "closing")]))
        // No logind at all (no loginctl): only the ancestors count.
        #expect(try !inUse(processes: chain(shellTTY: 0), start: 300, sessions: [], loginctl: false))
        // tty_nr of tty11 (1035) is not tty1's.
        #expect(try !inUse(processes: chain(shellTTY: 1035), start: 300, sessions: []))
    }
}
