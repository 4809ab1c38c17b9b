import ArgumentParser
import DialCore
import FleetConfig
import Glibc
import KioskLock
import KioskReporting
import LinuxSystem

/// `dialkiosk lock ...`: the PIN behind the admin menu (docs/lockdown.md).
struct LockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Set the PIN that opens the admin menu of a locked kiosk.",
        subcommands: [SetPIN.self, Drill.self]
    )

    struct SetPIN: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-pin",
            abstract: "Store a new PIN (4 to 12 digits, typed twice on the terminal) as an Argon2id hash.",
            discussion: "The PIN is read from the controlling terminal with echo off, never from arguments or standard input. "
                + "The file is written whole (a temporary file, fsync, rename, fsync of its folder), owned by root and the "
                + "kiosk's group, mode 0640: the kiosk reads it and cannot change it. Run as root. Exit status 65: the PIN "
                + "was refused (empty, not digits, too short or too long, or the two differ); 64: no terminal or an unknown "
                + "group; 74: the file could not be written.")

        @Option(name: .customLong("pin-file"), help: ArgumentHelp("The PIN file to write (lock.pin_file in the configuration).",
                                                                 valueName: "file"))
        var pinFile = "/etc/dialkiosk/pin"

        @Option(help: ArgumentHelp("The group that may read the file: the one the kiosk runs as (the package's user and group are dialkiosk).",
                                   valueName: "group"))
        var group = "dialkiosk"

        func run() throws {
            try reportingErrors {
                guard let gid = Self.groupID(group) else {
                    throw CommandFailure("no group '\(group)' on this machine (the package makes dialkiosk; give --group)", status: .usage)
                }
                let terminal = try PINTerminal.open()
                let first = try terminal.read("New PIN (4 to 12 digits): ")
                if let problem = PINRules.problem(first) { throw CommandFailure("\(problem); nothing was changed", status: .dataError) }
                let again = try terminal.read("The same PIN again: ")
                guard again == first else { throw CommandFailure("the two PINs differ; nothing was changed", status: .dataError) }
                guard let entry = PINEntry(ascii: first) else { throw CommandFailure("not a PIN; nothing was changed", status: .dataError) }
                let file = try fleet { () throws(FleetError) in try PINCheck.make(entry) }
                do {
                    try file.write(to: pinFile, uid: 0, gid: gid)
                } catch {
                    throw CommandFailure("\(error); the PIN was not changed", status: .ioError)
                }
                print("\(pinFile): PIN of \(entry.count) digits set (root:\(group), mode 0640)")
            }
        }

        static func groupID(_ name: String) -> gid_t? {
            if let number = gid_t(name) { return number }
            guard let entry = getgrnam(name) else { return nil }
            return entry.pointee.gr_gid
        }
    }

    /// For the fault-injection test: wrong PINs against the lock's state, each verdict printed
    /// only after the state is on the disk, as the kiosk shows it. Time is virtual (the drill
    /// waits out each refusal by moving its clock), so 30 tries with their back-offs take
    /// seconds; a restarted drill goes on from the state it finds.
    struct Drill: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enter wrong PINs against a lock state folder (a test of the state at rest).",
            shouldDisplay: false)

        @Option(name: .customLong("state-dir"), help: ArgumentHelp("The folder of the lock state file.", valueName: "dir"))
        var stateDir: String

        @Option(help: ArgumentHelp("Stop once the state counts this many failures.", valueName: "n"))
        var failures = 30

        @Option(help: ArgumentHelp("The virtual clock's start (wall-clock seconds).", valueName: "seconds"))
        var start = 1_000_000.0

        @Option(name: .customLong("pin-file"), help: ArgumentHelp("Check each wrong PIN against this file's hash, as the kiosk would.",
                                                                 valueName: "file"))
        var pinFile: String?

        func run() throws {
            try reportingErrors {
                let crash = LockCrashPoint.from(environment: ProcessEnvironment.current())
                let ledger = LockLedger(store: LockStateStore(directory: stateDir, crash: crash), now: start)
                if let problem = ledger.problem { print("problem \(problem)") }
                let pin: PINFile?
                if let pinFile {
                    switch PINFile.read(pinFile, owner: getuid()) {
                    case .success(let file): pin = file
                    case .failure(let problem): throw problem
                    }
                } else {
                    pin = nil
                }
                var now = max(start, ledger.state.lastFailure ?? start)
                let wrong = PINEntry(digits: [0, 0, 0, 0])
                while ledger.state.failures < failures {
                    now += 1
                    let verdict: LockBackoff.Verdict
                    do { verdict = try ledger.begin(at: now) } catch { throw CommandFailure("\(error)", status: .ioError) }
                    if case .refused(let until) = verdict {
                        print("refused failures=\(ledger.state.failures) t=\(LockFigures.text(now)) until=\(LockFigures.text(until))")
                        flushStandardOutput()
                        now = until
                        continue
                    }
                    if let pin, PINCheck.check(wrong, against: pin) == .right { throw CommandFailure("the drill's PIN matched", status: .failure) }
                    print("failed failures=\(ledger.state.failures) t=\(LockFigures.text(now))")
                    flushStandardOutput()
                }
            }
        }
    }
}

/// Seconds as the drill prints them (three decimals, as the state file keeps them).
enum LockFigures {
    static func text(_ seconds: Double) -> String {
        let millis = Int64((seconds * 1000).rounded(.up))
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

/// The controlling terminal with echo off while a PIN is typed (termios; restored after,
/// whatever happens). Never standard input: a PIN must not come from a pipe or a history.
struct PINTerminal {
    let fd: Int32

    static func open() throws -> PINTerminal {
        let fd = Glibc.open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            throw CommandFailure("no terminal to read the PIN from (\(Errno.current)); run set-pin on a terminal", status: .usage)
        }
        return PINTerminal(fd: fd)
    }

    /// One line typed after `prompt`, without its newline; past 64 bytes the rest is dropped
    /// (what is kept is too long a PIN already).
    func read(_ prompt: String) throws -> [UInt8] {
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else {
            throw CommandFailure("/dev/tty is no terminal (\(Errno.current)); run set-pin on a terminal", status: .usage)
        }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        // TCSANOW, not TCSAFLUSH: what was typed ahead is kept (it was not echoed either way
        // once the first prompt turned echo off).
        guard tcsetattr(fd, TCSANOW, &quiet) == 0 else { throw CommandFailure("cannot turn the terminal's echo off: \(Errno.current)", status: .usage) }
        defer { _ = tcsetattr(fd, TCSANOW, &saved) }
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = Glibc.read(fd, &byte, 1)
            if n < 0, errno == EINTR { continue }
            guard n == 1, byte != UInt8(ascii: "\n") else { break }
            if line.count <= 64 { line.append(byte) }
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line
    }
}
