#if canImport(Glibc)
import Glibc
#endif

/// syslog priorities as sd-daemon(3) prefixes them: `<3>` error ... `<7>` debug.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case emergency = 0, alert, critical, error, warning, notice, info, debug

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Formats log lines for stderr: with `<N>` priority prefixes when stderr is the journal (so
/// `journalctl -p err` works), plain when a person reads the terminal.
public struct LogFormat: Sendable, Equatable {
    public var journalPrefixes: Bool

    public init(journalPrefixes: Bool) {
        self.journalPrefixes = journalPrefixes
    }

    /// One output line per message line; every line carries the prefix, because journald reads
    /// the priority per line.
    public func format(_ level: LogLevel, _ message: String) -> String {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        let prefix = journalPrefixes ? "<\(level.rawValue)>" : ""
        return lines.map { prefix + $0 + "\n" }.joined()
    }

    /// True when $JOURNAL_STREAM ("device:inode") names the file stderr is (systemd.exec(5)):
    /// a child whose stderr was redirected elsewhere must not prefix.
    public static func isJournalStream(_ value: String?, device: UInt64, inode: UInt64) -> Bool {
        guard let value else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let dev = UInt64(parts[0]), let ino = UInt64(parts[1]) else { return false }
        return dev == device && ino == inode
    }

    /// The format for this process's stderr.
    public static func forStandardError(environment: [String: String]) -> LogFormat {
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return LogFormat(journalPrefixes: false) }
        return LogFormat(journalPrefixes: isJournalStream(environment["JOURNAL_STREAM"],
                                                          device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }
}

/// The service's logger: levels at or above `minimumLevel` go to `sink` (stderr by default).
public final class JournalLogger {
    public let format: LogFormat
    public var minimumLevel: LogLevel
    private let sink: (String) -> Void

    public init(format: LogFormat, minimumLevel: LogLevel = .info, sink: @escaping (String) -> Void = JournalLogger.writeToStandardError) {
        self.format = format
        self.minimumLevel = minimumLevel
        self.sink = sink
    }

    public func log(_ level: LogLevel, _ message: String) {
        guard level <= minimumLevel else { return }
        sink(format.format(level, message))
    }

    public func error(_ message: String) { log(.error, message) }
    public func warning(_ message: String) { log(.warning, message) }
    public func notice(_ message: String) { log(.notice, message) }
    public func info(_ message: String) { log(.info, message) }
    public func debug(_ message: String) { log(.debug, message) }

    /// One write(2) per message, so lines from this process and its children do not interleave
    /// mid-line.
    public static func writeToStandardError(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
