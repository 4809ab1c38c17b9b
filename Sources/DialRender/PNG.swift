import CPNG
import DialCore
import LinuxSystem

/// PNG files through libpng's simplified API (png_image_*), which reports errors through the
/// image's `message` instead of longjmp, so no C error handler has to unwind Swift frames.
public enum PNGWriter {
    /// `buffer` as the bytes of an 8-bit RGB PNG, made in memory (png_image_write_to_memory),
    /// for a caller that may have nowhere to write a file.
    public static func encode(_ buffer: PixelBuffer) throws -> [UInt8] {
        let rgb = rgbBytes(buffer)
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(buffer.width)
        image.height = UInt32(buffer.height)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR)
        defer { png_image_free(&image) }
        // An RGB PNG is never larger than its raw rows (a filter byte each) plus its zlib and
        // chunk overheads: one call with room for that is enough.
        var size = buffer.height * (buffer.width * 3 + 1) + buffer.height * 8 + 65536
        var out = [UInt8](repeating: 0, count: size)
        let ok = rgb.withUnsafeBytes { pixels in
            out.withUnsafeMutableBytes { target in
                png_image_write_to_memory(&image, target.baseAddress, &size, 0, pixels.baseAddress, Int32(buffer.width * 3), nil)
            }
        }
        guard ok != 0 else { throw RenderError(.outputFile, "encode PNG", message(of: &image)) }
        return Array(out[0..<size])
    }

    /// The pixels as packed 8-bit RGB rows.
    static func rgbBytes(_ buffer: PixelBuffer) -> [UInt8] {
        let w = buffer.width, h = buffer.height
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        buffer.withUnsafePixels { p in
            rgb.withUnsafeMutableBufferPointer { out in
                var o = 0
                for y in 0..<h {
                    let row = p + y * buffer.rowPitch
                    for x in 0..<w {
                        let px = row[x]
                        out[o] = UInt8(truncatingIfNeeded: px >> 16)
                        out[o + 1] = UInt8(truncatingIfNeeded: px >> 8)
                        out[o + 2] = UInt8(truncatingIfNeeded: px)
                        o += 3
                    }
                }
            }
        }
        return rgb
    }

    /// Writes `buffer` as an 8-bit RGB PNG at `path` (png_image_write_to_file).
    public static func write(_ buffer: PixelBuffer, to path: String) throws {
        let w = buffer.width, h = buffer.height
        let rgb = rgbBytes(buffer)
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(w)
        image.height = UInt32(h)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR)
        // A temporary file in the same directory, renamed over `path` when complete: a run killed
        // half-way leaves the old file (or none), never a truncated PNG under the final name.
        // A symbolic link is followed (the file it names is replaced, the link stays); a path
        // that is not a regular file (/dev/stdout, a FIFO) is written directly.
        let destination = resolvedDestination(path)
        let temporary = destination.map(temporaryName(for:))
        let opened = temporary.map { FileDescriptor.open($0, [.writeOnly, .create, .exclusive], mode: 0o666) }
            ?? FileDescriptor.open(path, [.writeOnly, .create, .truncate], mode: 0o666)
        func fail(_ reason: String) -> RenderError {
            if let temporary { FilePaths.unlink(temporary) }
            return RenderError(.outputFile, "write PNG \(path)", reason)
        }
        let stream: StdioStream
        switch opened {
        case .failure(let failure): throw RenderError(.outputFile, "write PNG \(path)", failure.description)
        case .success(let fd):
            switch StdioStream.open(fd, mode: "wb") {
            case .success(let made): stream = made
            case .failure(let failure): throw fail(failure.description)
            }
        }
        let ok = rgb.withUnsafeBytes { png_image_write_to_stdio(&image, stream.file, 0, $0.baseAddress, Int32(w * 3), nil) }
        let reason = ok == 0 ? message(of: &image) : ""
        png_image_free(&image)
        // fclose flushes: its failure (ENOSPC, EIO) is a failed write too.
        let closeFailure = stream.close()
        guard ok != 0, closeFailure == nil else { throw fail(ok == 0 ? reason : closeFailure!.description) }
        if let temporary, let destination, let failure = FilePaths.rename(temporary, to: destination) {
            throw fail(failure.description)
        }
    }

    /// The file a rename must replace for `path`: `path` itself when it does not exist or is a
    /// regular file, the file a symbolic link leads to; nil when it is something else.
    static func resolvedDestination(_ path: String) -> String? {
        guard case .success(let link) = FileStatus.of(path, followingLinks: false) else { return path }
        if link.kind == .regular { return path }
        guard link.kind == .symbolicLink, case .success(let target) = FileStatus.of(path), target.kind == .regular else { return nil }
        return FilePaths.resolved(path)
    }

    /// A name next to `path` (same directory, so rename(2) is atomic) no other writer uses.
    static func temporaryName(for path: String) -> String { FilePaths.temporaryName(beside: path) }

    static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// An 8-bit RGBA image with straight (not premultiplied) alpha, as read from a PNG.
public struct RGBAImage: Sendable, Equatable {
    /// Size in pixels.
    public var width: Int
    public var height: Int
    /// `width * height * 4` bytes, R G B A per pixel, rows top to bottom.
    public var bytes: [UInt8]

    /// An image of `width` x `height` pixels from RGBA bytes, rows top to bottom.
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(bytes.count == width * height * 4, "RGBA bytes do not match the size")
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}

/// Reads PNG files (icons, golden images) through libpng.
public enum PNGReader {
    /// Icons larger than this on a side are refused: the header alone decides how much memory
    /// the decoder takes (width x height x 4 bytes), and a 69-byte file can declare gigabytes.
    /// No icon is ever drawn larger than a frame, and 4096 covers a 4K panel.
    public static let maximumSide = 4096
    /// ... and larger than this in total (32 MiB of RGBA).
    public static let maximumPixels = 8 << 20

    /// The image at `path` converted to 8-bit RGBA (png_image_begin_read_from_stdio/finish_read).
    /// The file must be a regular file (a FIFO would block), and its declared size within
    /// `maximumSide` and `maximumPixels`, checked before any pixel memory is taken.
    public static func readRGBA(_ path: String) throws -> RGBAImage {
        let stream: StdioStream
        do {
            stream = try StdioStream.open(try RegularFile.open(path), mode: "rb").get()
        } catch let e as RegularFile.Failure {
            throw RenderError(.inputFile, "read PNG \(path)", e.reason)
        } catch {
            throw RenderError(.inputFile, "read PNG \(path)", "\(error)")
        }
        let file = stream.file
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_stdio(&image, file) != 0 else {
            let reason = PNGWriter.message(of: &image)
            png_image_free(&image)
            throw RenderError(.inputFile, "read PNG \(path)", reason)
        }
        let w = Int(image.width), h = Int(image.height)
        if let problem = sizeProblem(width: w, height: h) {
            png_image_free(&image)
            throw RenderError(.inputFile, "read PNG \(path)", problem)
        }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        let ok = bytes.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, Int32(w * 4), nil) }
        guard ok != 0 else {
            let reason = PNGWriter.message(of: &image)
            png_image_free(&image)
            throw RenderError(.inputFile, "read PNG \(path)", reason)
        }
        return RGBAImage(width: w, height: h, bytes: bytes)
    }

    /// The size the header of the PNG at `path` declares (png_image_begin_read_from_stdio reads
    /// the header only, no pixel); nil when it is not a readable PNG file.
    public static func declaredSize(_ path: String) -> (width: Int, height: Int)? {
        guard let fd = try? RegularFile.open(path), let stream = try? StdioStream.open(fd, mode: "rb").get() else {
            return nil
        }
        let file = stream.file
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_stdio(&image, file) != 0 else { return nil }
        return (Int(image.width), Int(image.height))
    }

    /// Why an image declared as `width` x `height` is refused, or nil.
    /// The message names the limit that was exceeded: a side, or the pixel count.
    static func sizeProblem(width: Int, height: Int) -> String? {
        if width > maximumSide || height > maximumSide {
            return "declared size \(width)x\(height) is larger than the limit of \(maximumSide)x\(maximumSide); "
                + "scale the image down"
        }
        guard width * height > maximumPixels else { return nil }
        return "declared size \(width)x\(height) has \(width * height) pixels, more than the limit of "
            + "\(maximumPixels >> 20) megapixels (\(maximumPixels) pixels); scale the image down"
    }

    /// The image at `path` as an opaque XRGB8888 buffer (alpha composited over black).
    public static func readPixels(_ path: String) throws -> PixelBuffer {
        let img = try readRGBA(path)
        var b = PixelBuffer(width: img.width, height: img.height)
        let pitch = b.rowPitch
        img.bytes.withUnsafeBufferPointer { src in
            b.withUnsafeMutablePixels { p in
                for y in 0..<img.height {
                    for x in 0..<img.width {
                        let i = (y * img.width + x) * 4
                        let a = UInt32(src[i + 3])
                        let px = UInt32(src[i]) << 16 | UInt32(src[i + 1]) << 8 | UInt32(src[i + 2])
                        p[y * pitch + x] = PixelMath.scale(px, a)
                    }
                }
            }
        }
        return b
    }
}
