import Glibc

/// What stat(2), lstat(2) or fstat(2) says of a file: its kind, identity, size, owner, mode and
/// modification time. The modules above the kernel read files' metadata through this, never
/// through `struct stat`.
public struct FileStatus: Sendable, Equatable {
    /// The file's type (st_mode & S_IFMT).
    public enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, other
    }

    public var kind: Kind
    /// st_dev and st_ino: together, which file this is.
    public var device: UInt64
    public var inode: UInt64
    /// st_size in bytes.
    public var size: Int64
    /// The permission bits (st_mode & 0o7777).
    public var permissions: UInt32
    public var owner: UInt32
    public var group: UInt32
    /// st_mtim: seconds and nanoseconds.
    public var modifiedSeconds: Int64
    public var modifiedNanoseconds: Int64
    /// st_ctim: when the inode last changed (a write, a chmod, a rename onto it).
    public var changedSeconds: Int64
    public var changedNanoseconds: Int64

    init(_ st: stat) {
        switch st.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        permissions = UInt32(st.st_mode & 0o7777)
        owner = UInt32(st.st_uid)
        group = UInt32(st.st_gid)
        modifiedSeconds = Int64(st.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(st.st_mtim.tv_nsec)
        changedSeconds = Int64(st.st_ctim.tv_sec)
        changedNanoseconds = Int64(st.st_ctim.tv_nsec)
    }

    /// stat(2) (`followingLinks`, the default) or lstat(2) of `path`.
    public static func of(_ path: String, followingLinks: Bool = true) -> Result<FileStatus, Errno> {
        var st = stat()
        let result = followingLinks ? stat(path, &st) : lstat(path, &st)
        return result == 0 ? .success(FileStatus(st)) : .failure(.current)
    }

    /// fstat(2) of an open descriptor.
    public static func of(_ file: FileDescriptor) -> Result<FileStatus, Errno> {
        of(descriptor: file.rawValue)
    }

    /// fstat(2) of a descriptor this caller does not own (standard error, say).
    public static func of(descriptor: Int32) -> Result<FileStatus, Errno> {
        var st = stat()
        return fstat(descriptor, &st) == 0 ? .success(FileStatus(st)) : .failure(.current)
    }

    /// What the file is, in words, when it is not a regular file; nil for one.
    public var notRegular: String? {
        switch kind {
        case .regular: return nil
        case .directory: return "is a directory"
        case .fifo: return "is not a regular file (a FIFO)"
        case .characterDevice: return "is not a regular file (a character device)"
        case .blockDevice: return "is not a regular file (a block device)"
        case .socket: return "is not a regular file (a socket)"
        case .symbolicLink, .other: return "is not a regular file"
        }
    }
}
