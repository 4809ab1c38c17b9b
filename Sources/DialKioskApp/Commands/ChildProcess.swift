import Glibc
import KioskReporting
import LinuxSystem

/// A child run to its end for what it writes to standard error (`bench` reads the memory
/// figures its `simulate` child prints there); its standard output goes to /dev/null.
enum ChildProcess {
    /// posix_spawn(3) of `path` with `arguments`, then its standard error read to the end and
    /// waitpid: the exit status (128 + N when signal N ended it) and the text.
    static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, standardError: String) {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            throw CommandFailure("pipe: \(Errno.current)", status: .failure)
        }
        // Only the child's standard error may hold the write end (else the read never ends).
        _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw CommandFailure("posix_spawn \(path): \(Errno(spawned))", status: .failure)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if n > 0 { bytes += chunk[0..<n] } else if n < 0, errno == EINTR { continue } else { break }
        }
        close(pipeEnds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7F
        return (signal == 0 ? (status >> 8) & 0xFF : 128 + signal, String(decoding: bytes, as: UTF8.self))
    }
}
