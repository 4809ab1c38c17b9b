import Glibc

/// The controlling terminal (/dev/tty, never standard input: a secret must not come from a
/// pipe or a shell history), for one line typed with echo off (termios ECHO cleared, ECHONL
/// kept so the newline shows; restored after, whatever happens).
public final class ControllingTerminal {
    /// Why a line could not be read.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// /dev/tty cannot be opened (no controlling terminal), or tcgetattr(3) says it is none.
        case noTerminal(Errno)
        /// tcsetattr(3) failed: the echo cannot be turned off.
        case noEchoControl(Errno)

        /// The errno of the call that failed.
        public var errno: Errno {
            switch self {
            case .noTerminal(let e), .noEchoControl(let e): e
            }
        }

        public var description: String {
            switch self {
            case .noTerminal(let e): "no terminal (\(e))"
            case .noEchoControl(let e): "the terminal's echo cannot be turned off (\(e))"
            }
        }
    }

    private let file: FileDescriptor

    private init(file: FileDescriptor) { self.file = file }

    /// open(2) of /dev/tty, read and write, O_NOCTTY.
    public static func open() throws(Failure) -> ControllingTerminal {
        switch FileDescriptor.open("/dev/tty", [.readWrite, .noControllingTerminal]) {
        case .success(let file): return ControllingTerminal(file: file)
        case .failure(let errno): throw .noTerminal(errno)
        }
    }

    /// `prompt`, then one line without its newline (nor a carriage return before it), echo
    /// off. At most `keep` bytes are kept; `overflowed` says whether more were typed. TCSANOW,
    /// not TCSAFLUSH: what was typed ahead is kept (it was not echoed either way once the
    /// first prompt turned echo off).
    public func readQuietly(_ prompt: String, keep: Int) throws(Failure) -> (line: [UInt8], overflowed: Bool) {
        var saved = termios()
        guard tcgetattr(file.rawValue, &saved) == 0 else { throw .noTerminal(.current) }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        guard tcsetattr(file.rawValue, TCSANOW, &quiet) == 0 else { throw .noEchoControl(.current) }
        defer { _ = tcsetattr(file.rawValue, TCSANOW, &saved) }
        _ = file.writeAll(Array(prompt.utf8))
        var line: [UInt8] = []
        var overflowed = false
        var byte: UInt8 = 0
        while case .success(1) = withUnsafeMutableBytes(of: &byte, { file.read(into: $0) }), byte != UInt8(ascii: "\n") {
            if line.count < keep { line.append(byte) } else { overflowed = true }
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return (line, overflowed)
    }
}
