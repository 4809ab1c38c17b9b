import Glibc
import LinuxSystem

/// syslog priorities as sd-daemon(3) prefixes them: `<3>` error ... `<7>` debug.
package enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case emergency = 0, alert, critical, error, warning, notice, info, debug

    package static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Formats log lines for stderr: with `<N>` priority prefixes when stderr is the journal (so
/// `journalctl -p err` works), plain when a person reads the terminal.
package struct LogFormat: Sendable, Equatable {
    package var journalPrefixes: Bool

    package init(journalPrefixes: Bool) {
        self.journalPrefixes = journalPrefixes
    }

    /// One output line per message: control characters are escaped, so a string from outside
    /// (a command's argv, a config value) can neither end the line early nor start a journald
    /// record of its own: journald ends a record at LF or NUL and reads a following `<N>` as that
    /// record's priority, which would let a label forge an emergency entry.
    package func format(_ level: LogLevel, _ message: String) -> String {
        (journalPrefixes ? "<\(level.rawValue)>" : "") + Self.escapingControls(message) + "\n"
    }

    /// `message` with C0 controls (NUL, CR, LF, ESC ...), DEL and C1 controls written as `\n`,
    /// `\r`, `\t` or `\xNN`; everything else unchanged.
    package static func escapingControls(_ message: String) -> String {
        guard message.unicodeScalars.contains(where: isControl) else { return message }
        var out = ""
        out.unicodeScalars.reserveCapacity(message.unicodeScalars.count + 8)
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x100 && isControl(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\x" + (hex.count < 2 ? "0" : "") + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// True when $JOURNAL_STREAM ("device:inode") names the file stderr is (systemd.exec(5)):
    /// a child whose stderr was redirected elsewhere must not prefix.
    package static func isJournalStream(_ value: String?, device: UInt64, inode: UInt64) -> Bool {
        guard let value else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let dev = UInt64(parts[0]), let ino = UInt64(parts[1]) else { return false }
        return dev == device && ino == inode
    }

    /// The format for this process's stderr.
    package static func forStandardError(environment: [String: String]) -> LogFormat {
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return LogFormat(journalPrefixes: false) }
        return LogFormat(journalPrefixes: isJournalStream(environment["JOURNAL_STREAM"],
                                                          device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }
}

/// The service's logger: levels at or above `minimumLevel` go to `sink` (stderr by default), or
/// to a non-blocking queue while the frame loop runs (`divert`).
package final class JournalLogger {
    package let format: LogFormat
    package var minimumLevel: LogLevel
    private let sink: (String) -> Void
    /// While set, lines go here instead of `sink`: the frame loop must never wait on stderr.
    package private(set) var queue: OutputQueue?

    package init(format: LogFormat, minimumLevel: LogLevel = .info, sink: @escaping (String) -> Void = JournalLogger.writeToStandardError) {
        self.format = format
        self.minimumLevel = minimumLevel
        self.sink = sink
    }

    /// A message's UTF-8 bytes at most; the rest is cut (and counted on the line): a line that
    /// quotes hostile input must never be the size of that input, nor outgrow the output queue.
    package static let messageLimit = 2048

    package func log(_ level: LogLevel, _ message: String) {
        guard level <= minimumLevel else { return }
        let text = format.format(level, Self.bounded(message))
        if let queue {
            queue.append(lines: text)
        } else {
            sink(text)
        }
    }

    /// Sends the lines to `queue` from now on (nil: back to `sink`). Lines the queue had to drop
    /// are counted in one warning once it has room again.
    package func divert(to queue: OutputQueue?) {
        queue?.report = { [unowned self] report in
            if case .dropped(let lines) = report {
                warning("log: dropped \(lines) log lines: the queue to standard error was full (its reader took them more slowly than they came)")
            }
        }
        self.queue = queue
    }

    /// `message`, or its first `messageLimit` bytes (cut at a character boundary) and how many
    /// bytes were cut.
    package static func bounded(_ message: String) -> String {
        let utf8 = message.utf8
        guard utf8.count > messageLimit else { return message }
        var end = utf8.index(utf8.startIndex, offsetBy: messageLimit)
        while end > utf8.startIndex, UTF8.isContinuation(utf8[end]) { end = utf8.index(before: end) }
        let kept = message[..<end]
        return kept + " [\(utf8.count - kept.utf8.count) more bytes cut]"
    }

    package func error(_ message: String) { log(.error, message) }
    package func warning(_ message: String) { log(.warning, message) }
    package func notice(_ message: String) { log(.notice, message) }
    package func info(_ message: String) { log(.info, message) }
    package func debug(_ message: String) { log(.debug, message) }

    /// One write(2) per message, so lines from this process and its children do not interleave
    /// mid-line.
    package static func writeToStandardError(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Errno.retryingInterrupts { write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset) }
                guard case .success(let n) = written, n > 0 else { return }
                offset += n
            }
        }
    }
}
