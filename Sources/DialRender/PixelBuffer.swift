import DialCore
import KioskSeams

/// An XRGB8888 image in ordinary memory: the painter's shadow buffer, sprites' backdrop and the
/// source of the rotated copy into the scanout buffer. Pixels are `UInt32` 0x00RRGGBB (the byte
/// order DRM calls XRGB8888 on a little-endian machine); `stride` is in bytes and may exceed
/// `width * 4` so that every row starts on a 64-byte boundary.
///
/// The memory is owned by the buffer and shared copy-on-write between copies of the value.
public struct PixelBuffer {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from the start of one row to the start of the next.
    public let stride: Int

    @usableFromInline final class Storage {
        @usableFromInline let base: UnsafeMutableRawPointer
        let byteCount: Int
        init(byteCount: Int) {
            self.byteCount = byteCount
            // 64-byte alignment lets row loops and memcpy work on whole cache lines.
            base = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 64), alignment: 64)
        }
        func copy() -> Storage {
            let s = Storage(byteCount: byteCount)
            s.base.copyMemory(from: base, byteCount: byteCount)
            return s
        }
        deinit { base.deallocate() }
    }

    @usableFromInline var storage: Storage

    /// A `width` x `height` buffer filled with `fill`. Without `stride`, rows are padded to 64 bytes.
    public init(width: Int, height: Int, stride: Int? = nil, fill: UInt32 = 0) {
        precondition(width >= 0 && height >= 0, "negative buffer size")
        let minimum = width * 4
        let s = stride ?? ((minimum + 63) / 64 * 64)
        precondition(s >= minimum && s % 4 == 0, "stride must hold a row and be a multiple of 4")
        self.width = width
        self.height = height
        self.stride = s
        storage = Storage(byteCount: s * height)
        let words = s / 4 * height
        storage.base.bindMemory(to: UInt32.self, capacity: words).initialize(repeating: fill, count: words)
    }

    /// Pixels per row including padding (`stride / 4`).
    @inlinable public var rowPitch: Int { stride / 4 }

    /// The pixel at column `x`, row `y` (bounds are checked in debug builds).
    public subscript(x: Int, y: Int) -> UInt32 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside the buffer")
            return storage.base.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside the buffer")
            makeUnique()
            storage.base.storeBytes(of: newValue, toByteOffset: y * stride + x * 4, as: UInt32.self)
        }
    }

    @usableFromInline mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Read access to the first pixel; rows are `rowPitch` pixels apart.
    @inlinable
    public func withUnsafePixels<R>(_ body: (UnsafePointer<UInt32>) throws -> R) rethrows -> R {
        try body(UnsafePointer(storage.base.assumingMemoryBound(to: UInt32.self)))
    }

    /// Write access to the first pixel; rows are `rowPitch` pixels apart.
    @inlinable
    public mutating func withUnsafeMutablePixels<R>(_ body: (UnsafeMutablePointer<UInt32>) throws -> R) rethrows -> R {
        makeUnique()
        return try body(storage.base.assumingMemoryBound(to: UInt32.self))
    }

    /// Lends the buffer as a `FrameTarget` (for code written against the presenter seam).
    public mutating func withFrameTarget<R>(_ body: (FrameTarget) throws -> R) rethrows -> R {
        makeUnique()
        return try body(FrameTarget(base: storage.base, width: width, height: height, stride: stride))
    }

    /// Sets every pixel (padding included) to `color`.
    public mutating func fill(_ color: UInt32) {
        let words = rowPitch * height
        withUnsafeMutablePixels { $0.update(repeating: color, count: words) }
    }

    /// True when both buffers have the same size and the same visible pixels (padding ignored).
    public func samePixels(as other: PixelBuffer) -> Bool {
        guard width == other.width, height == other.height else { return false }
        return withUnsafePixels { a in
            other.withUnsafePixels { b in
                for y in 0..<height {
                    let ra = a + y * rowPitch, rb = b + y * other.rowPitch
                    for x in 0..<width where ra[x] != rb[x] { return false }
                }
                return true
            }
        }
    }
}
