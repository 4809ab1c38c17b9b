import LinuxSystem
import Synchronization

/// Icons decoded once per distinct file and scaled to the painter's largest icon box, shared by
/// every item that names the same file (a 512-item menu with one 8-megapixel icon used to
/// decode it 512 times: 20 s here). Keyed by file identity (device, inode, size, mtime), so
/// two spellings of one file are one decode and a replaced file is decoded again at a reload.
///
/// Thread-safe: the kiosk's reload decodes on a worker thread (`warm`) while the loop keeps
/// painting the old menu, then builds the new painter on the loop from the filled cache.
/// Failures are kept too, so a broken icon is not decoded a second time for the error.
public final class IconCache: Sendable {
    /// The decoded pixels (width x height of the source images) one menu may cost, counting
    /// each distinct file once: 32 megapixels, four icons at the 8-megapixel limit or 256 of
    /// 362x362: the worst accepted menu is checked in a few seconds on a Raspberry Pi 4 by
    /// estimate, where twice the pixels came too close to 10 s (docs/measurements.md). The configuration refuses more (check-config, start, reload).
    public static let pixelBudget = 32 << 20

    /// What identifies one icon file's content: its inode and change marks, or its path when it
    /// cannot be examined (the decode then reports why).
    public enum FileKey: Hashable, Sendable {
        case file(device: UInt64, inode: UInt64, size: Int64, modified: Int64, modifiedNanoseconds: Int64)
        case path(String)
    }

    private struct Key: Hashable, Sendable {
        let file: FileKey
        let box: Int
    }

    private struct Entries: Sendable {
        var sprites: [Key: Result<IconSprite, RenderError>] = [:]
        var decodes = 0
    }

    private let entries = Mutex(Entries())
    /// The decoder: PNGReader.readRGBA; tests count calls or hold a decode.
    private let decode: @Sendable (String) throws -> RGBAImage

    public init(decode: @escaping @Sendable (String) throws -> RGBAImage = { try PNGReader.readRGBA($0) }) {
        self.decode = decode
    }

    /// How many files were decoded so far (for tests and the log).
    public var decodeCount: Int { entries.withLock { $0.decodes } }

    /// The key of the file at `path`: fstat of the file itself (links followed).
    public static func fileKey(_ path: String) -> FileKey {
        guard case .success(let st) = FileStatus.of(path), st.kind == .regular else { return .path(path) }
        return .file(device: st.device, inode: st.inode, size: st.size,
                     modified: st.modifiedSeconds, modifiedNanoseconds: st.modifiedNanoseconds)
    }

    /// The icon at `path` fitted to `box` (at most its own size), decoded unless a build already
    /// did; a decode failure is a RenderError from PNGReader (the caller names the item).
    func sprite(_ path: String, box: Int) throws -> IconSprite {
        let key = Key(file: IconCache.fileKey(path), box: box)
        if let known = entries.withLock({ $0.sprites[key] }) { return try known.get() }
        // Decoded outside the lock: a reload's worker and the loop never wait on each other's decode.
        let result: Result<IconSprite, RenderError>
        do {
            let image = try decode(path)
            result = .success(IconSprite(image, box: min(box, max(image.width, image.height))))
        } catch let error as RenderError {
            result = .failure(error)
        } catch {
            result = .failure(RenderError(.inputFile, "read PNG \(path)", "\(error)"))
        }
        entries.withLock {
            $0.sprites[key] = result
            $0.decodes += 1
        }
        return try result.get()
    }

    /// Decodes every icon of `paths` at `box` that is not cached yet (the reload's worker, ahead
    /// of the painter); failures are cached for the painter to report.
    public func warm(paths: [String], box: Int) {
        for path in paths { _ = try? sprite(path, box: box) }
    }

    /// Forgets every entry not named by `paths` at `box`: after a reload the old menu's icons go
    /// (the painter keeps its own reference to the ones it draws).
    public func keepOnly(paths: [String], box: Int) {
        let keep = Set(paths.map { Key(file: IconCache.fileKey($0), box: box) })
        entries.withLock { $0.sprites = $0.sprites.filter { keep.contains($0.key) } }
    }

    /// The decoded pixels `paths` cost, each distinct file once, from the PNG headers (no pixel
    /// is decoded).
    public static func declaredPixels(_ paths: [String]) -> Int {
        var seen = Set<FileKey>()
        return paths.reduce(0) { total, path in seen.insert(fileKey(path)).inserted ? total + decodedPixels(path) : total }
    }

    /// The pixels decoding the PNG at `path` costs, from its header; 0 for a file whose header
    /// cannot be read or whose size PNGReader refuses (its decode reports why, naming the item).
    public static func decodedPixels(_ path: String) -> Int {
        guard let size = PNGReader.declaredSize(path),
              PNGReader.sizeProblem(width: size.width, height: size.height) == nil else { return 0 }
        return size.width * size.height
    }
}
