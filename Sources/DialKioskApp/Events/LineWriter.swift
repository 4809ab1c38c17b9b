#if canImport(Glibc)
import Glibc
#endif

/// Buffered lines to a file descriptor, written whole (never a torn line) on `flush` or when the
/// buffer grows past a page. For batch commands (`simulate`): a write may wait for the reader,
/// and a failed one is an error (status 74), not lost output. `run` uses `OutputQueue`.
struct LineWriter {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    static var standardOutput: LineWriter { LineWriter(fd: 1) }

    mutating func write(_ line: String) throws {
        buffer.append(contentsOf: line.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 4096 { try flush() }
    }

    /// Writes the buffer; a full disk, a closed reader (with SIGPIPE ignored) or any other
    /// failure throws, naming the stream and errno.
    mutating func flush() throws {
        defer { buffer.removeAll(keepingCapacity: true) }
        var offset = 0
        while offset < buffer.count {
            let n = buffer[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let name = fd == 1 ? "standard output" : fd == 2 ? "standard error" : "descriptor \(fd)"
                throw SystemCallError("write to \(name)", errno: n < 0 ? errno : EIO, status: .ioError)
            }
            offset += n
        }
    }
}
