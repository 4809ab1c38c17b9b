import Glibc
import LinuxSystem
import Testing

@Suite struct StdioStreamTests {
    private static func temporaryPath() -> String {
        var template = Array("/tmp/dialkiosk-stdio-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        if fd >= 0 { _ = close(fd) }
        return String(cString: template)
    }

    @Test func theStreamTakesTheDescriptorAndClosesItOnce() throws {
        let path = Self.temporaryPath()
        defer { unlink(path) }
        let descriptor = try FileDescriptor.open(path, flags: O_WRONLY | O_CLOEXEC).get()
        let stream = try StdioStream.open(descriptor, mode: "wb").get()
        // The stream owns it now: its former owner holds -1 and closes nothing.
        #expect(descriptor.rawValue == -1)
        let file = try #require(stream.file)
        #expect(fputs("abc", file) >= 0)
        #expect(stream.close() == nil)
        #expect(stream.file == nil)
        #expect(stream.close() == nil)
        let reread = try FileDescriptor.open(path, flags: O_RDONLY | O_CLOEXEC).get()
        #expect(reread.size == 3)
    }

    @Test func aRefusedModeLeavesTheDescriptorWithItsOwner() throws {
        let path = Self.temporaryPath()
        defer { unlink(path) }
        let descriptor = try FileDescriptor.open(path, flags: O_RDONLY | O_CLOEXEC).get()
        // glibc's fdopen refuses a mode the descriptor's access mode does not allow (EINVAL).
        guard case .failure(let failure) = StdioStream.open(descriptor, mode: "wb") else {
            Issue.record("fdopen accepted a write mode on a read-only descriptor")
            return
        }
        #expect(failure == Errno(EINVAL))
        #expect(descriptor.isOpen)
    }

    @Test func writeAllWritesEveryByte() throws {
        let path = Self.temporaryPath()
        defer { unlink(path) }
        let descriptor = try FileDescriptor.open(path, flags: O_WRONLY | O_CLOEXEC).get()
        let bytes = [UInt8](repeating: 7, count: 300_000)
        #expect(throws: Never.self) { try descriptor.writeAll(bytes).get() }
        descriptor.close()
        let reread = try FileDescriptor.open(path, flags: O_RDONLY).get()
        #expect(reread.size == bytes.count)
        guard case .failure(let failure) = descriptor.writeAll([1]) else {
            Issue.record("wrote to a closed descriptor")
            return
        }
        #expect(failure == Errno(EBADF))
    }
}
