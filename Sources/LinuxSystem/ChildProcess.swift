import Glibc

/// A child run to its end for what it writes to standard error (`bench` reads the memory
/// figures its `simulate` child prints there); its standard output goes to /dev/null.
public enum ChildProcess {
    /// Why the child could not be run: the call and its errno.
    public struct Failure: Error, CustomStringConvertible {
        public var call: String
        public var errno: Errno
        public var description: String { "\(call): \(errno)" }
    }

    /// posix_spawn(3) of `path` with `arguments` (this process's environment), then its
    /// standard error read to the end and waitpid: the exit status (128 + N when signal N ended
    /// it) and the text.
    public static func run(_ path: String, _ arguments: [String]) throws(Failure) -> (status: Int32, standardError: String) {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw Failure(call: "pipe", errno: .current) }
        let reading = FileDescriptor(adopting: pipeEnds[0])
        let writing = FileDescriptor(adopting: pipeEnds[1])
        // Both ends close on exec: only the child's standard error (dup2'd, which clears the
        // flag) holds the write end, else the read below would never end.
        _ = fcntl(reading.rawValue, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writing.rawValue, F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writing.rawValue, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        writing.close()
        guard spawned == 0 else { throw Failure(call: "posix_spawn \(path)", errno: Errno(spawned)) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while case .success(let n) = chunk.withUnsafeMutableBytes({ reading.read(into: $0) }), n > 0 {
            bytes += chunk[0..<n]
        }
        reading.close()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7F
        return (signal == 0 ? (status >> 8) & 0xFF : 128 + signal, String(decoding: bytes, as: UTF8.self))
    }
}
