import FleetConfig
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
        let typed: (line: [UInt8], overflowed: Bool)
        do throws(ControllingTerminal.Failure) {
            typed = try ControllingTerminal.open().readQuietly(prompt, keep: maxBytes)
        } catch {
            throw CommandFailure("no terminal to read the key's password from (\(error.errno)); give --password-file", status: .usage)
        }
        guard !typed.overflowed else { throw CommandFailure("the password is longer than \(maxBytes) bytes", status: .dataError) }
        guard !typed.line.isEmpty else { throw CommandFailure("an empty password; give one, or make the key with --without-password", status: .dataError) }
        return typed.line
    }
}
