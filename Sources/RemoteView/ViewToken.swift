import CLinux
import Glibc
import KioskReporting
import LinuxSystem

/// The secret a WebSocket upgrade's path carries (`/websockify/TOKEN`): made per run for
/// `preview` from the kernel's random source, or read from `remote.token_file` on a kiosk.
package enum ViewToken {
    /// The shortest token accepted from a file: 16 symbols of 64 are 96 bits.
    static let minimumLength = 16
    static let maximumLength = 256

    /// 32 hex digits of 16 bytes from getrandom(2) (blocking only before the kernel's pool is
    /// first seeded, long past at any boot that reaches a kiosk).
    package static func random() throws -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        var got = 0
        while got < bytes.count {
            let n = bytes.withUnsafeMutableBytes { getrandom($0.baseAddress! + got, $0.count - got, 0) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemCallError("getrandom for the preview's token", errno: errno)
            }
            got += n
        }
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// The token in `path` (one line; a final newline is dropped): URL-safe symbols only, so
    /// it rides in a path unescaped, and at least `minimumLength` of them.
    static func read(_ path: String) throws -> [UInt8] {
        guard case .success(let fd) = FileDescriptor.open(path, flags: O_RDONLY | O_CLOEXEC) else {
            throw SystemCallError("read remote.token_file \(path)", errno: errno, status: .config)
        }
        defer { fd.close() }
        var buffer = [UInt8](repeating: 0, count: maximumLength + 2)
        var got = 0
        while got < buffer.count {
            let r = buffer.withUnsafeMutableBytes { fd.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[got...])) }
            guard case .success(let n) = r else { throw SystemCallError("read remote.token_file \(path)", errno: errno, status: .config) }
            if n == 0 { break }
            got += n
        }
        var token = Array(buffer[..<got])
        while let last = token.last, last == 10 || last == 13 { token.removeLast() }
        guard let problem = problem(token) else { return token }
        throw SystemCallError("remote.token_file \(path): \(problem)", errno: EINVAL, status: .config)
    }

    /// What is wrong with `token` as a path segment, or nil.
    static func problem(_ token: [UInt8]) -> String? {
        if token.count < minimumLength { return "a token of at least \(minimumLength) characters is needed, got \(token.count)" }
        if token.count > maximumLength { return "a token of at most \(maximumLength) characters is read" }
        let safe = token.allSatisfy { c in
            (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 45 || c == 46 || c == 95 || c == 126
        }
        return safe ? nil : "only letters, digits and - . _ ~ may be in a token (it rides in the URL's path)"
    }
}
