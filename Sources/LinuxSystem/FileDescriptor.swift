import Glibc

/// lseek(2) on a descriptor this caller does not own (standard input): its offset now
/// (`to` nil), or moved to `to`; nil when the descriptor cannot seek.
public func seekOffset(of fd: Int32, to offset: Int64? = nil) -> Int64? {
    let result = offset.map { lseek(fd, off_t($0), SEEK_SET) } ?? lseek(fd, 0, SEEK_CUR)
    return result < 0 ? nil : Int64(result)
}

/// A file descriptor with one owner, closed exactly once: by `close()` (safe to call again) or
/// when the owner lets go of it.
public final class FileDescriptor {
    /// The descriptor, or -1 once closed (poll(2) skips a negative descriptor).
    public private(set) var rawValue: Int32

    /// Takes ownership of `rawValue`, which the caller must not close.
    public init(adopting rawValue: Int32) {
        self.rawValue = rawValue
    }

    deinit { close() }

    /// open(2), retried when interrupted; `mode` for a file that O_CREAT makes.
    public static func open(_ path: String, flags: Int32, mode: mode_t = 0) -> Result<FileDescriptor, Errno> {
        Errno.retryingInterrupts { Glibc.open(path, flags, mode) }.map(FileDescriptor.init(adopting:))
    }

    /// open(2) with named flags (O_CLOEXEC always), retried when interrupted.
    public static func open(_ path: String, _ flags: OpenFlags, mode: UInt32 = 0) -> Result<FileDescriptor, Errno> {
        open(path, flags: flags.rawValue | O_CLOEXEC, mode: mode_t(mode))
    }

    /// The open(2) flags the modules above the kernel use, by name.
    public struct OpenFlags: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// O_RDONLY is 0: the absence of the two below.
        public static let readOnly = OpenFlags([])
        public static let writeOnly = OpenFlags(rawValue: O_WRONLY)
        public static let readWrite = OpenFlags(rawValue: O_RDWR)
        public static let create = OpenFlags(rawValue: O_CREAT)
        public static let exclusive = OpenFlags(rawValue: O_EXCL)
        public static let truncate = OpenFlags(rawValue: O_TRUNC)
        public static let append = OpenFlags(rawValue: O_APPEND)
        public static let nonBlocking = OpenFlags(rawValue: O_NONBLOCK)
        public static let noFollow = OpenFlags(rawValue: O_NOFOLLOW)
        public static let directory = OpenFlags(rawValue: O_DIRECTORY)
        public static let noControllingTerminal = OpenFlags(rawValue: O_NOCTTY)
    }

    /// fsync(2), retried when interrupted. Nil, or the errno.
    public func sync() -> Errno? {
        guard rawValue >= 0 else { return Errno(EBADF) }
        if case .failure(let failure) = Errno.retryingInterrupts({ fsync(rawValue) }) { return failure }
        return nil
    }

    /// fchown(2), retried when interrupted. Nil, or the errno.
    public func changeOwner(user: UInt32, group: UInt32) -> Errno? {
        guard rawValue >= 0 else { return Errno(EBADF) }
        if case .failure(let failure) = Errno.retryingInterrupts({ fchown(rawValue, uid_t(user), gid_t(group)) }) { return failure }
        return nil
    }

    /// fchmod(2) to `mode` (the permission bits), retried when interrupted. Nil, or the errno.
    public func changeMode(_ mode: UInt32) -> Errno? {
        guard rawValue >= 0 else { return Errno(EBADF) }
        if case .failure(let failure) = Errno.retryingInterrupts({ fchmod(rawValue, mode_t(mode)) }) { return failure }
        return nil
    }

    public var isOpen: Bool { rawValue >= 0 }

    /// Gives the descriptor up without closing it, for a C call that takes ownership (fdopen(3));
    /// this owner then holds -1.
    public func release() -> Int32 {
        defer { rawValue = -1 }
        return rawValue
    }

    /// fstat(2)'s st_size: the size in bytes of an open regular file, 0 when fstat fails.
    public var size: Int {
        var st = stat()
        return fstat(rawValue, &st) == 0 ? Int(st.st_size) : 0
    }

    /// close(2) once; later calls do nothing. Not retried on EINTR: Linux has released the
    /// descriptor by then, and a retry could close one another thread just opened.
    public func close() {
        guard rawValue >= 0 else { return }
        _ = Glibc.close(rawValue)
        rawValue = -1
    }

    /// read(2) into `buffer`, retried when interrupted: the byte count, or the errno (EAGAIN when
    /// a non-blocking descriptor has nothing queued, EBADF once closed).
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        guard rawValue >= 0 else { return .failure(Errno(EBADF)) }
        return Errno.retryingInterrupts { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// write(2) of `bytes`, retried when interrupted: the byte count written, or the errno.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        guard rawValue >= 0 else { return .failure(Errno(EBADF)) }
        return Errno.retryingInterrupts { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// write(2) until all of `bytes` is written (a short write continues where it stopped).
    public func writeAll(_ bytes: [UInt8]) -> Result<Void, Errno> {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[done...])) }
            switch written {
            case .success(let n): done += n
            case .failure(let failure): return .failure(failure)
            }
        }
        return .success(())
    }

    /// Reads one fixed-size record (a signalfd_siginfo, a timerfd's expiration count) into
    /// `value`; true only when a whole record arrived.
    public func readRecord<T>(into value: inout T) -> Bool {
        let size = MemoryLayout<T>.size
        let result = withUnsafeMutableBytes(of: &value) { read(into: $0) }
        return (try? result.get()) == size
    }
}
