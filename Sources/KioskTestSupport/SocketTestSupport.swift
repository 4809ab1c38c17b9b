import Glibc
import KioskFeatures

/// A fresh directory under /tmp, removed (with what is in it) by `remove()`.
package struct TemporaryDirectory {
    package let path: String

    package init() {
        var template = Array("/tmp/dialkiosk-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(cString: made!)
    }

    package func remove() {
        var status: Int32 = 0
        var pid = pid_t()
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/rm"), strdup("-rf"), strdup(path), nil]
        defer { argv.forEach { free($0) } }
        if posix_spawn(&pid, "/bin/rm", nil, nil, argv, environ) == 0 { waitpid(pid, &status, 0) }
    }
}

/// A datagram socket bound to `path` (or an abstract `@name`) that receives what the notifier sends.
package final class DatagramReceiver {
    package let fd: Int32

    package init(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        precondition(fd >= 0)
        var (address, length) = UnixAddress.make(path)!
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        precondition(rc == 0, "bind \(path): \(errno)")
    }

    deinit { close(fd) }

    /// The next datagram already queued, or nil when none is (never waits).
    package func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        guard n >= 0 else { return nil }
        return String(decoding: buffer[0..<n], as: UTF8.self)
    }
}

/// Connects a stream client to a Unix socket path; returns the fd or -1 with errno set.
package func connectStream(_ path: String) -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return -1 }
    var (address, length) = UnixAddress.make(path)!
    let rc = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
    }
    if rc != 0 {
        let saved = errno
        close(fd)
        errno = saved
        return -1
    }
    return fd
}

/// Everything readable on `fd` right now (non-blocking), as text.
package func readAvailable(_ fd: Int32) -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

package func writeAll(_ fd: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    precondition(n == bytes.count)
}
