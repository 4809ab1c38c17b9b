import Glibc
import LinuxSystem
import Testing

/// A pipe's two ends, as raw descriptors the test then hands out.
private func makePipe() throws -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    try #require(pipe(&fds) == 0)
    for fd in fds { _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
    return (fds[0], fds[1])
}

private func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) >= 0 }

@Suite struct FileDescriptorTests {
    @Test func closeClosesOnceAndASecondCloseLeavesTheNumberAlone() throws {
        let ends = try makePipe()
        defer { _ = close(ends.write) }
        let owner = FileDescriptor(adopting: ends.read)
        owner.close()
        #expect(!isOpen(ends.read))
        #expect(owner.rawValue == -1)
        // The kernel hands the lowest free number out again: a second close must not close it.
        // (Tests run in parallel, so another one may have taken the number first.)
        let reused = try makePipe()
        defer { _ = close(reused.read); _ = close(reused.write) }
        owner.close()
        if reused.read == ends.read { #expect(isOpen(reused.read)) }
    }

    @Test func lettingGoOfTheOwnerClosesTheDescriptor() throws {
        let ends = try makePipe()
        defer { _ = close(ends.write) }
        do {
            let owner = FileDescriptor(adopting: ends.read)
            #expect(owner.isOpen)
        }
        #expect(!isOpen(ends.read))
    }

    @Test func openNamesTheErrno() {
        guard case .failure(let errno) = FileDescriptor.open("/nonexistent/card9", flags: O_RDONLY) else {
            Issue.record("opened a path that does not exist")
            return
        }
        #expect(errno == Errno(ENOENT))
    }

    @Test func recordsAreReadWholeOrNotAtAll() throws {
        let ends = try makePipe()
        let reader = FileDescriptor(adopting: ends.read)
        let writer = FileDescriptor(adopting: ends.write)
        var value: UInt64 = 0
        #expect(!reader.readRecord(into: &value), "nothing queued: EAGAIN")
        var sent: UInt64 = 42
        _ = withUnsafeBytes(of: &sent) { write(writer.rawValue, $0.baseAddress, $0.count) }
        #expect(reader.readRecord(into: &value))
        #expect(value == 42)
        reader.close()
        #expect(!reader.readRecord(into: &value))
        #expect(throws: Errno(EBADF)) { try reader.read(into: UnsafeMutableRawBufferPointer(start: nil, count: 0)).get() }
    }

    @Test func pollReportsReadyDescriptors() throws {
        let ends = try makePipe()
        let reader = FileDescriptor(adopting: ends.read)
        let writer = FileDescriptor(adopting: ends.write)
        var fds = [pollfd(fd: reader.rawValue, events: Int16(POLLIN), revents: 0)]
        #expect(try pollDescriptors(&fds, timeoutMS: 0).get() == 0)
        var byte: UInt8 = 1
        _ = write(writer.rawValue, &byte, 1)
        #expect(try pollDescriptors(&fds, timeoutMS: 0).get() == 1)
        #expect(fds[0].revents & Int16(POLLIN) != 0)
    }
}
