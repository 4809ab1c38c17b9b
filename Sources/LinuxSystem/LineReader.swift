import Glibc

/// Reads text line by line from a file descriptor (or from bytes in memory), holding at most
/// one line and one read's worth of bytes: memory stays flat in the length of the input, and a
/// line longer than `maximumLineBytes` (`/dev/zero`, a binary file) is an error as soon as that
/// many bytes arrived. Lines end at `\n`; a `\r` before it (CRLF files) is dropped.
public struct LineReader {
    /// One line without its end, and its 1-based number.
    public struct Line {
        public var bytes: ArraySlice<UInt8>
        public var number: Int
        /// The line as text (invalid UTF-8 becomes U+FFFD).
        public var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    public enum Failure: Error, Equatable {
        /// open(2) failed.
        case open(errno: Errno)
        /// The path names a directory, a FIFO or a device, where a regular file is needed;
        /// `reason` says which (RegularFile's words: "is a directory", "is not a regular file (a FIFO)").
        case notRegularFile(reason: String)
        /// Line `line` has more than `limit` bytes.
        case tooLong(line: Int, limit: Int)
        /// read(2) failed while reading line `line`.
        case read(line: Int, errno: Errno)
    }

    /// Enough for any line of a touch script or a `libinput record` file (a HID descriptor line
    /// is a few kilobytes).
    public static let defaultMaximumLineBytes = 1 << 16
    private static let chunk = 1 << 16

    public let maximumLineBytes: Int
    private let fd: Int32
    /// Closes a descriptor this reader opened when the last copy of the reader is gone.
    private let owner: FileDescriptor?
    private var buffer: [UInt8]
    private var start = 0
    private var end: Int
    private var atEnd: Bool
    private var number = 0

    /// Lines read from `fd` (not closed here), from its current offset.
    public init(fd: Int32, maximumLineBytes: Int = LineReader.defaultMaximumLineBytes) {
        self.init(fd: fd, owner: nil, maximumLineBytes: maximumLineBytes)
    }

    private init(fd: Int32, owner: FileDescriptor?, maximumLineBytes: Int) {
        self.fd = fd
        self.owner = owner
        self.maximumLineBytes = maximumLineBytes
        buffer = []
        end = 0
        atEnd = false
    }

    /// Lines of the file at `path`, which must be a regular file when `regularFileOnly` (a
    /// FIFO would block, and a reader that reads a file twice cannot read a pipe twice).
    public init(path: String, regularFileOnly: Bool, maximumLineBytes: Int = LineReader.defaultMaximumLineBytes) throws {
        // Where only a regular file will do, O_NONBLOCK keeps open(2) of a FIFO from waiting
        // for a writer that may never come; fstat then refuses it.
        let owner: FileDescriptor
        switch FileDescriptor.open(path, flags: O_RDONLY | O_CLOEXEC | (regularFileOnly ? O_NONBLOCK : 0)) {
        case .success(let opened): owner = opened
        case .failure(let failure): throw Failure.open(errno: failure)
        }
        let fd = owner.rawValue
        var status = stat()
        if fstat(fd, &status) != 0 { throw Failure.open(errno: .current) }
        if regularFileOnly {
            if let reason = RegularFile.problem(mode: status.st_mode) { throw Failure.notRegularFile(reason: reason) }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        }
        self.init(fd: fd, owner: owner, maximumLineBytes: maximumLineBytes)
    }

    /// Lines of `bytes`.
    public init(bytes: [UInt8], maximumLineBytes: Int = LineReader.defaultMaximumLineBytes) {
        fd = -1  // no descriptor: `atEnd` is set, so nothing reads it
        owner = nil
        self.maximumLineBytes = maximumLineBytes
        buffer = bytes
        end = bytes.count
        atEnd = true
    }

    /// The next line, or nil at the end of the input (a last line without `\n` counts).
    public mutating func next() throws -> Line? {
        var searched = start
        while true {
            if let newline = buffer[searched..<end].firstIndex(of: UInt8(ascii: "\n")) {
                return try take(upTo: newline, skipping: 1)
            }
            if atEnd {
                return start < end ? try take(upTo: end, skipping: 0) : nil
            }
            guard end - start <= maximumLineBytes else {
                throw Failure.tooLong(line: number + 1, limit: maximumLineBytes)
            }
            searched = end
            try refill(&searched)
        }
    }

    private mutating func take(upTo lineEnd: Int, skipping: Int) throws -> Line {
        number += 1
        var last = lineEnd
        if last > start, buffer[last - 1] == UInt8(ascii: "\r") { last -= 1 }
        guard last - start <= maximumLineBytes else { throw Failure.tooLong(line: number, limit: maximumLineBytes) }
        let line = Line(bytes: buffer[start..<last], number: number)
        start = lineEnd + skipping
        return line
    }

    /// Whether this reader reads a regular file (one that could be read again).
    public var isRegularFile: Bool { fd >= 0 && Self.isRegularFile(fd) }

    /// Whether `fd` is a regular file (which can be read again from an offset).
    public static func isRegularFile(_ fd: Int32) -> Bool {
        var status = stat()
        return fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Moves the unread bytes to the front and reads one more chunk after them.
    private mutating func refill(_ searched: inout Int) throws {
        if start > 0 {
            let unread = end - start
            if unread > 0 {
                buffer.withUnsafeMutableBytes { b in _ = memmove(b.baseAddress!, b.baseAddress! + start, unread) }
            }
            searched -= start
            end = unread
            start = 0
        }
        if buffer.count < end + Self.chunk { buffer.append(contentsOf: repeatElement(0, count: end + Self.chunk - buffer.count)) }
        let end = self.end
        let result = buffer.withUnsafeMutableBytes { b in Errno.retryingInterrupts { read(fd, b.baseAddress! + end, Self.chunk) } }
        switch result {
        case .success(0): atEnd = true
        case .success(let n): self.end += n
        case .failure(let failure): throw Failure.read(line: number + 1, errno: failure)
        }
    }
}
