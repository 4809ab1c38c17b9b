import CPNG
import DialCore

/// PNG files through libpng's simplified API (png_image_*), which reports errors through the
/// image's `message` instead of longjmp, so no C error handler has to unwind Swift frames.
public enum PNGWriter {
    /// Writes `buffer` as an 8-bit RGB PNG at `path` (png_image_write_to_file).
    public static func write(_ buffer: PixelBuffer, to path: String) throws {
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
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(w)
        image.height = UInt32(h)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR)
        let ok = rgb.withUnsafeBytes { png_image_write_to_file(&image, path, 0, $0.baseAddress, Int32(w * 3), nil) }
        if ok == 0 {
            let reason = message(of: &image)
            png_image_free(&image)
            throw RenderError(.outputFile, "write PNG \(path)", reason)
        }
    }

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
    /// The image at `path` converted to 8-bit RGBA (png_image_begin_read_from_file/finish_read).
    public static func readRGBA(_ path: String) throws -> RGBAImage {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            let reason = PNGWriter.message(of: &image)
            png_image_free(&image)
            throw RenderError(.inputFile, "read PNG \(path)", reason)
        }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        let w = Int(image.width), h = Int(image.height)
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        let ok = bytes.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, Int32(w * 4), nil) }
        guard ok != 0 else {
            let reason = PNGWriter.message(of: &image)
            png_image_free(&image)
            throw RenderError(.inputFile, "read PNG \(path)", reason)
        }
        return RGBAImage(width: w, height: h, bytes: bytes)
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
