import Glibc
import LinuxSystem

/// Buffered lines to a file descriptor, written whole (never a torn line) on `flush` or when the
/// buffer grows past a page. For batch commands (`simulate`): a write may wait for the reader,
/// and a failed one is an error (status 74), not lost output. `run` uses `OutputQueue`.
package struct LineWriter {
    package let fd: Int32
    private var buffer: [UInt8] = []

    package init(fd: Int32) { self.fd = fd }

    package static var standardOutput: LineWriter { LineWriter(fd: 1) }

    package mutating func write(_ line: String) throws {
        buffer.append(contentsOf: line.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 4096 { try flush() }
    }

    /// Writes the buffer; a full disk, a closed reader (with SIGPIPE ignored) or any other
    /// failure throws, naming the stream and errno.
    package mutating func flush() throws {
        defer { buffer.removeAll(keepingCapacity: true) }
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { bytes in
                Errno.retryingInterrupts { Glibc.write(fd, bytes.baseAddress, bytes.count) }
            }
            guard case .success(let n) = written, n > 0 else {
                let name = fd == 1 ? "standard output" : fd == 2 ? "standard error" : "descriptor \(fd)"
                var code = EIO  // a write of 0 bytes
                if case .failure(let failure) = written { code = failure.rawValue }
                throw SystemCallError("write to \(name)", errno: code, status: .ioError)
            }
            offset += n
        }
    }
}

/// Flushes what `print` buffered for standard output, before a raw write(2) or an exit.
/// fflush(NULL) flushes every stdio output stream: Glibc's `stdout` is a mutable global,
/// which Swift 6 mode does not let code name.
package func flushStandardOutput() { fflush(nil) }
