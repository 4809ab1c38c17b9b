import Glibc

/// A read-only private mapping of a whole open file (mmap(2) PROT_READ, MAP_PRIVATE), unmapped
/// exactly once when its owner lets go. The mapping outlives the descriptor it was made from.
public final class MappedFile {
    /// The first byte of the mapping.
    public let base: UnsafeRawPointer
    public let count: Int

    private init(base: UnsafeRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), count) }

    /// Maps the first `count` bytes of `file` (its size when nil); `count` must be above 0.
    public static func map(_ file: FileDescriptor, count: Int? = nil) -> Result<MappedFile, Errno> {
        let bytes = count ?? file.size
        guard bytes > 0 else { return .failure(Errno(EINVAL)) }
        guard let map = mmap(nil, bytes, PROT_READ, MAP_PRIVATE, file.rawValue, 0), map != MAP_FAILED else {
            return .failure(.current)
        }
        return .success(MappedFile(base: UnsafeRawPointer(map), count: bytes))
    }
}
