import DialRender
import Glibc
import KioskLoop
import LinuxSystem
import SodiumLink

/// A screenshot taken: the file it went to, its size in pixels, its bytes and their SHA-256.
package struct Screenshot: Sendable, Equatable {
    package var path: String
    /// Why the file could not be written (nil: it was); the bytes are made in memory either way,
    /// so MQTT still gets them (`run` by hand has no runtime directory).
    package var fileProblem: String?
    package var width: Int
    package var height: Int
    package var sha256: String
    /// The PNG file's bytes (what MQTT publishes).
    package var png: [UInt8]
}

/// Takes screenshots of what the panel shows without holding the frame loop: the loop copies
/// the panel once (one memcpy of the frame) and a thread of its own encodes the PNG in memory,
/// hashes it and writes it (temporary file, then rename: a reader never sees half a file). The thread's
/// pipe hangs up when it is done (`ThreadJob`), which wakes the loop's poll; then `onDone` gets
/// the result in the loop's turn.
///
/// One at a time: asking while one is being taken joins it (the next asks after it get a new
/// one), so a flood of requests costs one encode at a time and one frame copy at most.
package final class ScreenshotWorker: PollSource {
    /// The file every screenshot replaces (one file: a flood never fills the runtime directory).
    package let path: String
    /// Told of each finished screenshot, on the loop, with the loop's time.
    package var onDone: (Result<Screenshot, ScreenshotError>, Double) -> Void = { _, _ in }
    private var inFlight: ThreadJob<Result<Screenshot, ScreenshotError>>?

    /// `directory`: where the file goes (the runtime directory).
    package init(directory: String) {
        path = (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/screenshot.png"
    }

    /// `$RUNTIME_DIRECTORY` (its first entry: systemd joins several with ':'), else /run/dialkiosk.
    package static func directory(environment: [String: String]) -> String {
        let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first.map(String.init)
        return runtime.flatMap { $0.isEmpty ? nil : $0 } ?? "/run/dialkiosk"
    }

    /// A screenshot is being taken.
    package var isBusy: Bool { inFlight != nil }

    /// Starts encoding `panel` (copied here, in the caller's turn); false when one is already
    /// being taken (its result answers this request too).
    @discardableResult
    package func start(_ panel: PixelBuffer) throws -> Bool {
        guard inFlight == nil else { return false }
        guard panel.width > 0, panel.height > 0 else { throw ScreenshotError("nothing has been shown yet") }
        let frame = FrameCopy(panel), path = path
        do {
            inFlight = try ThreadJob.start("screenshot") { ScreenshotTask.encode(frame.buffer, path: path) }
        } catch {
            throw ScreenshotError("\(error)")
        }
        return true
    }

    package var pollDescriptors: [pollfd] {
        inFlight.map { [$0.pollDescriptor] } ?? []
    }

    package func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        guard let result = inFlight?.finished(in: polled) else { return [] }
        inFlight = nil
        onDone(result, now)
        return []
    }
}

package struct ScreenshotError: Error, Equatable, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// A frame handed to the screenshot thread: a copy of its own, which the loop never touches
/// (hence unchecked).
struct FrameCopy: @unchecked Sendable {
    let buffer: PixelBuffer

    init(_ panel: PixelBuffer) {
        var copy = PixelBuffer(width: panel.width, height: panel.height, stride: panel.stride)
        copy.withUnsafeMutablePixels { target in
            panel.withUnsafePixels { UnsafeMutableRawPointer(target).copyMemory(from: $0, byteCount: panel.stride * panel.height) }
        }
        buffer = copy
    }
}

/// One screenshot's encoding, on the screenshot thread.
enum ScreenshotTask {
    static func encode(_ frame: PixelBuffer, path: String) -> Result<Screenshot, ScreenshotError> {
        let png: [UInt8], sha256: String
        do {
            png = try PNGWriter.encode(frame)
            sha256 = try SHA256.hex(png)
        } catch {
            return .failure(ScreenshotError("\(error)"))
        }
        return .success(Screenshot(path: path, fileProblem: write(png, to: path), width: frame.width, height: frame.height,
                                   sha256: sha256, png: png))
    }

    /// Writes `bytes` at `path` through a temporary file beside it and rename(2); nil when
    /// written, else why not.
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        let temporary = path + ".\(getpid()).tmp"
        let file: FileDescriptor
        switch FileDescriptor.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o644) {
        case .success(let opened): file = opened
        case .failure(let failure): return "cannot write \(path): \(failure)"
        }
        let written = file.writeAll(bytes)
        file.close()
        if case .failure(let failure) = written {
            unlink(temporary)
            return "cannot write \(path): \(failure)"
        }
        guard rename(temporary, path) == 0 else {
            let failure = Errno.current
            unlink(temporary)
            return "cannot write \(path): \(failure)"
        }
        return nil
    }
}
