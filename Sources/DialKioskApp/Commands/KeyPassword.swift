import FleetConfig
import Glibc
import KioskReporting
import LinuxSystem

/// The password of a minisign secret key: the first line of `--password-file` (for scripts),
/// else typed on the controlling terminal with echo off. Never read from standard input, which
/// carries data in `config sign` pipelines.
enum KeyPassword {
    /// minisign's bound (PASSWORDMAXBYTES).
    static let maxBytes = 1024

    /// The password, from `file` or the terminal (`confirm`: typed twice, for a new key).
    static func read(file: String?, prompt: String, confirm: Bool = false) throws -> [UInt8] {
        if let file {
            let bytes: [UInt8]
            do {
                guard let read = try FleetStore.readFile(file, limit: maxBytes + 2) else {
                    throw CommandFailure("\(file): no such file", status: .noInput)
                }
                bytes = read
            } catch let error as FleetError {
                throw CommandFailure("\(error) (a password file holds one line)", status: .noInput)
            }
            var line = Array(bytes.prefix { $0 != UInt8(ascii: "\n") })
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            guard !line.isEmpty, line.count <= maxBytes else {
                throw CommandFailure("\(file): the password (its first line) is empty or longer than \(maxBytes) bytes", status: .dataError)
            }
            return line
        }
        let first = try fromTerminal(prompt)
        if confirm, try fromTerminal("Password (again): ") != first {
            throw CommandFailure("the two passwords differ", status: .dataError)
        }
        return first
    }

    /// One line typed on /dev/tty with echo off (restored after, whatever happens).
    private static func fromTerminal(_ prompt: String) throws -> [UInt8] {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            throw CommandFailure("no terminal to read the key's password from (\(Errno.current)); give --password-file", status: .usage)
        }
        defer { close(fd) }
        var saved = termios()
        let hasTermios = tcgetattr(fd, &saved) == 0
        if hasTermios {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        defer { if hasTermios { _ = tcsetattr(fd, TCSAFLUSH, &saved) } }
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(fd, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            line.append(byte)
            guard line.count <= maxBytes else { throw CommandFailure("the password is longer than \(maxBytes) bytes", status: .dataError) }
        }
        _ = write(fd, "\n", 1)
        guard !line.isEmpty else { throw CommandFailure("an empty password; give one, or make the key with --without-password", status: .dataError) }
        return line
    }
}
