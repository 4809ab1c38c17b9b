import Glibc

/// A stdio stream (FILE *) with one owner, for C libraries that read or write through stdio
/// (libpng's png_image_*_stdio). It owns the descriptor it was made from; closed exactly once.
public final class StdioStream {
    /// The stream, or nil once closed.
    public private(set) var file: UnsafeMutablePointer<FILE>?

    /// fdopen(3) over `descriptor`, which the stream owns from then on; on failure the descriptor
    /// stays with `descriptor` (closed by its owner) and the errno is returned.
    public static func open(_ descriptor: FileDescriptor, mode: String) -> Result<StdioStream, Errno> {
        guard let file = fdopen(descriptor.rawValue, mode) else { return .failure(Errno.current) }
        _ = descriptor.release()
        return .success(StdioStream(file: file))
    }

    private init(file: UnsafeMutablePointer<FILE>) {
        self.file = file
    }

    deinit { _ = close() }

    /// fclose(3) once, which flushes what is buffered: nil, or the errno of a failed flush
    /// (ENOSPC, EIO), which is a failed write. Later calls do nothing.
    public func close() -> Errno? {
        guard let file else { return nil }
        self.file = nil
        return fclose(file) == 0 ? nil : Errno.current
    }
}
