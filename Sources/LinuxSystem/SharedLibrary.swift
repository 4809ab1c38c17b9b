/// The C loaders of the libraries the kiosk opens on first use instead of linking (CEspeakNG,
/// CALSA, CMosquitto: `int load(const char *soname, char *error, size_t size)`, which dlopens
/// the library and resolves every function the kiosk calls).
public enum SharedLibrary {
    /// A C loader: 0, or nonzero with dlerror's text written into the buffer.
    public typealias Loader = (UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, Int) -> Int32

    /// Runs `loader` on `soname`: nil when the library is loaded, else dlerror's words
    /// ("libx.so.1: cannot open shared object file: No such file or directory").
    public static func load(_ soname: String, with loader: Loader) -> String? {
        var error = [CChar](repeating: 0, count: 512)
        let result = error.withUnsafeMutableBufferPointer { buffer in loader(soname, buffer.baseAddress, buffer.count) }
        guard result != 0 else { return nil }
        let text = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "it could not be opened" : text
    }
}
