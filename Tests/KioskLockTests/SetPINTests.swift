import DialCore
import Glibc
import KioskTestSupport
import Testing
@testable import KioskLock

/// `dialkiosk lock set-pin` on a real terminal: util-linux's `script` gives the built binary a
/// pseudo-terminal as its controlling terminal, and the test types into it only once each
/// prompt is there (what was typed before echo went off would be echoed by the terminal itself).
@Suite(.serialized, .enabled(if: getuid() == 0, "set-pin chowns the file to root")) struct SetPINTests {
    /// Runs set-pin under `script` and types `lines`, one per prompt; its status and what the
    /// terminal showed.
    static func setPIN(_ lines: [String], arguments: [String], in dir: String) -> (status: Int32, output: String) {
        let output = dir + "/terminal.out"
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let command = ([builtKioskPath, "lock", "set-pin"] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let argv = ["/usr/bin/script", "-q", "-e", "-c", command, "/dev/null"]
        let cArgv = argv.map { strdup($0) } + [nil]
        defer { cArgv.forEach { free($0) } }
        var pid = pid_t()
        precondition(posix_spawn(&pid, argv[0], &actions, nil, cArgv, environ) == 0)
        close(fds[0])
        for (i, line) in lines.enumerated() {
            // The (i+1)th prompt: both end in ": ".
            for _ in 0..<500 {
                let shown = readFile(output) ?? ""
                if shown.split(separator: ":", omittingEmptySubsequences: false).count > i + 1 || shown.contains("dialkiosk:") { break }
                usleep(10_000)
            }
            _ = (line + "\n").withCString { write(fds[1], $0, strlen($0)) }
        }
        usleep(200_000)
        close(fds[1])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return ((status >> 8) & 0xFF, readFile(output) ?? "")
    }

    @Test func aPINTypedTwiceIsStoredAsItsHashRootOwned0640AndNeverEchoed() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pin = dir.path + "/pin"
        let run = Self.setPIN(["80551", "80551"], arguments: ["--pin-file", pin, "--group", "\(getgid())"], in: dir.path)
        #expect(run.status == 0, "\(run.output)")
        #expect(!run.output.contains("80551"), "echoed: \(run.output)")
        #expect(run.output.contains("PIN of 5 digits set"))
        #expect(fileMode(pin)! & 0o7777 == 0o640)
        let file = try PINFile.read(pin, owner: 0, groups: [getgid()]).get()
        #expect(file.digits == 5)
        #expect(!(readFile(pin) ?? "").contains("80551"))
        #expect(PINCheck.check(PINEntry(ascii: Array("80551".utf8))!, against: file) == .right)
        #expect(PINCheck.check(PINEntry(ascii: Array("80552".utf8))!, against: file) == .wrong)
    }

    @Test(arguments: [
        (["", ""], "the PIN is empty"),
        (["12a4", "12a4"], "a PIN is digits 0-9 only"),
        (["123", "123"], "a PIN has at least 4 digits"),
        ([String(repeating: "7", count: 40), String(repeating: "7", count: 40)], "a PIN has at most 12 digits"),
        (["1234", "1235"], "the two PINs differ"),
    ])
    func refusedPINsChangeNothing(lines: [String], message: String) {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pin = dir.path + "/pin"
        let run = Self.setPIN(lines, arguments: ["--pin-file", pin, "--group", "\(getgid())"], in: dir.path)
        #expect(run.status == 65, "\(run.output)")
        #expect(run.output.contains("dialkiosk: \(message); nothing was changed"), "\(run.output)")
        #expect(fileMode(pin) == nil, "no file written")
    }

    @Test func anUnknownGroupOrNoTerminal() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let group = Self.setPIN([], arguments: ["--pin-file", dir.path + "/pin", "--group", "no-such-group-here"], in: dir.path)
        #expect(group.status == 64, "\(group.output)")
        #expect(group.output.contains("no group 'no-such-group-here'"))
        // setsid: no controlling terminal at all, as under a service manager.
        let none = runToCompletion(["/usr/bin/setsid", "-w", builtKioskPath, "lock", "set-pin", "--pin-file", dir.path + "/pin",
                                    "--group", "\(getgid())"], outputFile: dir.path + "/none.out")
        #expect(none.status == 64, "\(none.output)")
        #expect(none.output.contains("no terminal to read the PIN from"), "\(none.output)")
    }
}
