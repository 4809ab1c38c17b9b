import Glibc
@testable import LinuxSystem
import Testing

/// A fresh directory under /tmp for one test's socket files.
private func scratchDirectory() -> String {
    var template = Array("/tmp/dk-listener-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
}

private func removeTree(_ dir: String) {
    if let entries = opendir(dir) {
        while let entry = readdir(entries) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { unlink(dir + "/" + name) }
        }
        closedir(entries)
    }
    rmdir(dir)
}

/// A socket file bound at `path` and closed at once, as a process that crashed leaves it.
private func leaveStaleSocket(_ path: String) {
    var address = UnixListener.address(path)!
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    close(fd)
}

private func fileMode(_ path: String) -> (mode: UInt32, gid: UInt32, isSocket: Bool)? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return (info.st_mode & 0o777, info.st_gid, info.st_mode & S_IFMT == S_IFSOCK)
}

@Suite struct UnixListenerTests {
    @Test func aStaleSocketIsReplacedAndTheModeIsSetBeforeAnyoneConnects() throws {
        let dir = scratchDirectory()
        defer { removeTree(dir) }
        let path = dir + "/s.sock"
        leaveStaleSocket(path)
        #expect(!UnixListener.answers(path))
        let listener = try UnixListener(path: path, mode: 0o600)
        #expect(fileMode(path)?.mode == 0o600 && fileMode(path)?.isSocket == true)
        #expect(listener.group == getegid())
        #expect(UnixListener.answers(path))
        listener.close()
        #expect(fileMode(path) == nil, "closing removes the file")
        listener.close()
    }

    @Test func aLiveSocketIsNeverTakenOver() throws {
        let dir = scratchDirectory()
        defer { removeTree(dir) }
        let path = dir + "/s.sock"
        let first = try UnixListener(path: path, mode: 0o660)
        #expect(throws: UnixListenerError(.live(path: path), code: EADDRINUSE)) {
            _ = try UnixListener(path: path, mode: 0o660)
        }
        // The first one still has its file and answers.
        #expect(UnixListener.answers(path))
        #expect(fileMode(path)?.mode == 0o660)
        first.close()
    }

    @Test func aFileThatIsNotASocketIsLeftAlone() throws {
        let dir = scratchDirectory()
        defer { removeTree(dir) }
        let path = dir + "/plain"
        let fd = open(path, O_CREAT | O_WRONLY, 0o644)
        _ = write(fd, "kept", 4)
        close(fd)
        #expect(throws: UnixListenerError(.notASocket(path: path), code: EEXIST)) {
            _ = try UnixListener(path: path, mode: 0o600)
        }
        #expect(fileMode(path)?.isSocket == false && fileMode(path)?.mode == 0o644)
    }

    @Test func theGroupIsGivenAndAFailedStepLeavesNoFile() throws {
        let dir = scratchDirectory()
        defer { removeTree(dir) }
        let path = dir + "/g.sock"
        let listener = try UnixListener(path: path, mode: 0o660, group: getegid())
        #expect(fileMode(path)?.gid == getegid() && listener.group == getegid())
        listener.close()
        // A group this process may not give (not root: any group it is not in) fails at chown,
        // and the bound file is removed again.
        if geteuid() != 0 {
            #expect(throws: UnixListenerError.self) { _ = try UnixListener(path: path, mode: 0o660, group: 0) }
            #expect(fileMode(path) == nil)
        }
    }

    @Test func aPathThatDoesNotFitIsRefusedWithItsStep() {
        let long = "/tmp/" + String(repeating: "x", count: 200)
        #expect(throws: UnixListenerError(.address(path: long), code: ENAMETOOLONG)) {
            _ = try UnixListener(path: long, mode: 0o600)
        }
        #expect(UnixListenerError(.live(path: "/run/x.sock"), code: EADDRINUSE).description
                == "Failed to listen on /run/x.sock (another process is listening on it): Address already in use")
    }
}
