#if canImport(Glibc)
import Glibc
#endif

/// Buffered lines to a file descriptor, written whole (never a torn line) on `flush` or when the
/// buffer grows past a page.
struct LineWriter {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    static var standardOutput: LineWriter { LineWriter(fd: 1) }

    mutating func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 4096 { flush() }
    }

    mutating func flush() {
        var offset = 0
        while offset < buffer.count {
            let n = buffer[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                break  // a closed pipe: the reader is gone, nothing left to tell
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
