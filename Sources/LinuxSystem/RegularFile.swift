import Glibc

/// Opening a named input file (configuration, icon, font, record) that must be a regular file.
/// A FIFO blocks open(2) until a writer appears and read(2) until it writes; a character device
/// such as /dev/zero never ends; a directory fails only at read(2). So the path is checked with
/// stat(2) before it is opened, opened with O_NONBLOCK (a FIFO swapped in after the check then
/// cannot block the open), and the opened descriptor is checked again with fstat(2).
public enum RegularFile {
    /// Why a path cannot be read as a regular file.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// The path does not exist (ENOENT/ENOTDIR), as opposed to existing as the wrong thing.
        public var missing: Bool
        /// The errno text ("No such file or directory"), "is a directory" or "is not a regular
        /// file (a FIFO)".
        public var reason: String
        public var description: String { reason }

        public init(missing: Bool, reason: String) {
            self.missing = missing
            self.reason = reason
        }
    }

    /// A read-only descriptor (O_CLOEXEC) for the regular file at `path`, closed by its owner.
    public static func open(_ path: String) throws -> FileDescriptor {
        var st = stat()
        if stat(path, &st) != 0 { throw failure(errno) }
        if let reason = problem(mode: st.st_mode) { throw Failure(missing: false, reason: reason) }
        let file: FileDescriptor
        switch FileDescriptor.open(path, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK) {
        case .success(let opened): file = opened
        case .failure(let failure): throw Self.failure(failure.rawValue)
        }
        // On a throw below, `file` closes the descriptor as it goes out of scope.
        guard fstat(file.rawValue, &st) == 0 else { throw failure(errno) }
        if let reason = problem(mode: st.st_mode) { throw Failure(missing: false, reason: reason) }
        // Regular files ignore O_NONBLOCK; clear it anyway so the descriptor is an ordinary one.
        _ = fcntl(file.rawValue, F_SETFL, fcntl(file.rawValue, F_GETFL) & ~O_NONBLOCK)
        return file
    }

    /// Nil when the path is a regular file now; otherwise why not. Does not open the file.
    public static func check(_ path: String) -> Failure? {
        var st = stat()
        if stat(path, &st) != 0 { return failure(errno) }
        return problem(mode: st.st_mode).map { Failure(missing: false, reason: $0) }
    }

    private static func failure(_ code: Int32) -> Failure {
        Failure(missing: code == ENOENT || code == ENOTDIR, reason: Errno(code).description)
    }

    /// Nil for a regular file's `st_mode`; otherwise what the file is instead, in words.
    public static func problem(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "is a directory"
        case S_IFIFO: return "is not a regular file (a FIFO)"
        case S_IFCHR: return "is not a regular file (a character device)"
        case S_IFBLK: return "is not a regular file (a block device)"
        case S_IFSOCK: return "is not a regular file (a socket)"
        default: return "is not a regular file"
        }
    }
}
