import ArgumentParser
import DialCore
import FleetConfig
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
                let terminal = try PINTerminal()
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

        static func groupID(_ name: String) -> UInt32? { Accounts.groupID(name) }
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
                    switch PINFile.read(pinFile, owner: Accounts.userID) {
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

/// The controlling terminal with echo off while a PIN is typed (`ControllingTerminal`).
/// Never standard input: a PIN must not come from a pipe or a history.
struct PINTerminal {
    let terminal: ControllingTerminal

    init() throws {
        do throws(ControllingTerminal.Failure) {
            terminal = try ControllingTerminal.open()
        } catch {
            throw CommandFailure("no terminal to read the PIN from (\(error.errno)); run set-pin on a terminal", status: .usage)
        }
    }

    /// One line typed after `prompt`, without its newline; past 64 bytes the rest is dropped
    /// (what is kept is too long a PIN already).
    func read(_ prompt: String) throws -> [UInt8] {
        do throws(ControllingTerminal.Failure) {
            return try terminal.readQuietly(prompt, keep: 65).line
        } catch .noTerminal(let errno) {
            throw CommandFailure("/dev/tty is no terminal (\(errno)); run set-pin on a terminal", status: .usage)
        } catch .noEchoControl(let errno) {
            throw CommandFailure("cannot turn the terminal's echo off: \(errno)", status: .usage)
        }
    }
}
