import Glibc
import LinuxSystem

/// Whole lines to a descriptor the frame loop must never wait on (events on stdout, log lines
/// on stderr): a stopped reader or a stalled journald would otherwise freeze frames, input and
/// the watchdog. Lines wait in a bounded queue; what does not fit is counted and reported once
/// when room comes back; the loop polls `pollDescriptor` (POLLOUT, only while lines wait) and
/// calls `flush` when it is writable, so nothing spins.
package final class OutputQueue {
    /// What the owner is told: lines were dropped and there is room again, or the descriptor
    /// failed for good (a reader that went away: EPIPE) and nothing more will be written.
    package enum Report: Equatable {
        case dropped(lines: Int)
        case closed(errno: Errno)
    }

    /// Bytes waiting at most; a line that would pass it is dropped (never cut).
    package let capacity: Int
    package var report: (Report) -> Void = { _ in }
    private let writer: NonBlockingWriter
    private var pending: [UInt8] = []
    /// Bytes at the front of `pending` already written (compacted now and then, not per write).
    private var head = 0
    package private(set) var droppedLines = 0
    package private(set) var isClosed = false

    package init(fd: Int32, capacity: Int = 64 * 1024) {
        self.capacity = capacity
        writer = NonBlockingWriter(fd: fd)
    }

    deinit { writer.close() }

    /// Bytes waiting to be written.
    package var pendingBytes: Int { pending.count - head }

    /// How the descriptor is written (for tests and for the log).
    package var mode: NonBlockingWriter.Mode { writer.mode }

    /// Queues `line` (a newline is added) and writes what the descriptor takes now.
    package func append(line: String) {
        guard !isClosed else { return }
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        append(bytes)
    }

    /// Queues text that is already whole lines (each ending in a newline), as one unit.
    package func append(lines text: String) {
        guard !isClosed, !text.isEmpty else { return }
        append(Array(text.utf8))
    }

    private func append(_ bytes: [UInt8]) {
        guard pendingBytes + bytes.count <= capacity else {
            droppedLines += max(1, bytes.lazy.filter { $0 == UInt8(ascii: "\n") }.count)
            return
        }
        pending += bytes
        flush()
    }

    /// POLLOUT on the descriptor while lines wait; nil when there is nothing to write.
    package var pollDescriptor: pollfd? {
        guard !isClosed, pendingBytes > 0 else { return nil }
        return pollfd(fd: writer.fd, events: Int16(POLLOUT), revents: 0)
    }

    /// Writes as much as the descriptor takes without waiting, in whole lines of at most
    /// PIPE_BUF bytes per write (a pipe takes such a write whole or not at all, so a reader
    /// never sees a torn line even with other writers on the same pipe). Reports the drop count
    /// once at least half the queue is free again.
    package func flush() {
        writing: while !isClosed, pendingBytes > 0 {
            let written = pending.withUnsafeBytes { raw in
                let chunk = Self.chunkLength(raw[head...])
                return Errno.retryingInterrupts { writer.write(UnsafeRawBufferPointer(rebasing: raw[head..<(head + chunk)])) }
            }
            switch written {
            case .success(let n) where n > 0: head += n
            case .success, .failure(.wouldBlock): break writing  // the reader is full for now
            case .failure(let failure):
                close(reporting: failure)
                return
            }
        }
        if head == pending.count {
            pending.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= capacity / 2 {
            pending.removeFirst(head)
            head = 0
        }
        if droppedLines > 0 && pendingBytes <= capacity / 2 {
            let lines = droppedLines
            droppedLines = 0
            report(.dropped(lines: lines))
        }
    }

    /// At exit: keeps writing for up to `seconds` while the descriptor takes it, then gives up
    /// (a reader that stopped must not hold the shutdown past systemd's stop timeout).
    package func drain(within seconds: Double) {
        let deadline = monotonicNow() + seconds
        flush()
        while let descriptor = pollDescriptor {
            let left = deadline - monotonicNow()
            guard left > 0 else { return }
            var pfd = [descriptor]
            guard case .success = LinuxSystem.pollDescriptors(&pfd, timeoutMS: Int32(min(left * 1000, 1000).rounded(.up))) else { return }
            flush()
        }
    }

    /// The length of the next write from `bytes`: whole lines up to PIPE_BUF, or the first line
    /// alone when it is longer (or what is left of a line a socket took in part).
    package static func chunkLength(_ bytes: Slice<UnsafeRawBufferPointer>) -> Int {
        let newline = UInt8(ascii: "\n")
        let start = bytes.startIndex
        let scanEnd = min(bytes.endIndex, start + Int(PIPE_BUF))
        if let last = bytes[start..<scanEnd].lastIndex(of: newline) { return last + 1 - start }
        let end = bytes[scanEnd...].firstIndex(of: newline).map { $0 + 1 } ?? bytes.endIndex
        return end - start
    }

    private func close(reporting code: Errno) {
        isClosed = true
        pending.removeAll()
        head = 0
        report(.closed(errno: code))
    }
}

/// One descriptor written without ever waiting, and without changing the descriptor for anyone
/// else. O_NONBLOCK on fd 1 or 2 itself would be a flag of the open file description they share
/// with the shell's terminal, the other writers of a pipeline and the item commands (whose
/// stdout and stderr are our stderr): those would start failing with EAGAIN. So:
/// - a socket (journald's stream under systemd): send(2) with MSG_DONTWAIT, per call;
/// - a pipe, FIFO or terminal: /proc/self/fd/N opened again with O_NONBLOCK, a description of
///   the same pipe or tty whose flags are ours alone;
/// - a regular file (or /dev/null): write(2); it never waits for a reader;
/// - where /proc cannot be opened: poll(2) with timeout 0 for POLLOUT, then at most PIPE_BUF
///   bytes (a pipe that polls writable has room for that much; only another writer filling it
///   between the two calls could make the write wait).
package final class NonBlockingWriter {
    package enum Mode: Equatable {
        case socket, reopened, plain, pollFirst
    }

    package let mode: Mode
    /// The descriptor written (the reopened one in `.reopened` mode).
    package let fd: Int32
    /// The owner of the reopened descriptor; the original ones belong to the process.
    private let reopened: FileDescriptor?

    package init(fd original: Int32) {
        var info = stat()
        let type = fstat(original, &info) == 0 ? info.st_mode & S_IFMT : 0
        reopened = type == S_IFSOCK || type == S_IFREG || type == S_IFBLK ? nil
            : try? FileDescriptor.open("/proc/self/fd/\(original)", flags: O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC).get()
        if type == S_IFSOCK {
            (mode, fd) = (.socket, original)
        } else if type == S_IFREG || type == S_IFBLK {
            (mode, fd) = (.plain, original)
        } else if let reopened {
            (mode, fd) = (.reopened, reopened.rawValue)
        } else {
            (mode, fd) = (.pollFirst, original)
        }
    }

    /// One write that does not wait: the bytes written, or -1 with errno (EAGAIN: try later).
    package func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        switch mode {
        case .socket:
            return send(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
        case .reopened, .plain:
            return Glibc.write(fd, bytes.baseAddress, bytes.count)
        case .pollFirst:
            var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&pfd, 1, 0)
            if ready < 0 { return -1 }
            if pfd.revents & Int16(POLLNVAL) != 0 {
                errno = EBADF  // not open at all: give up rather than poll it for ever
                return -1
            }
            if ready == 0 || pfd.revents & Int16(POLLOUT | POLLERR | POLLHUP) == 0 {
                errno = EAGAIN
                return -1
            }
            return Glibc.write(fd, bytes.baseAddress, min(bytes.count, Int(PIPE_BUF)))
        }
    }

    /// Closes the reopened descriptor (the original ones belong to the process).
    package func close() { reopened?.close() }
}
