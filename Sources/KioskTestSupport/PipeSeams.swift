import Glibc
import DialCore
import KMSOutput
import KioskSeams

/// A display behind the seams for loop tests: frames land in RAM, "flip events" are bytes in a
/// pipe the loop polls like the DRM fd, and each errno queued in `failures` makes one `present`
/// throw the DisplayError a page flip with that errno gives (fault injection).
package final class PipeDisplay: FramePresenter, DisplayEventSource {
    package let width: Int
    package let height: Int
    package var frameSize: (width: Int, height: Int) { (width, height) }
    package var failures: [Int32] = []
    /// Calls of `present`, and those that queued a frame.
    package var attempts = 0
    package var presents = 0
    package var pixels: [UInt32]
    /// One buffer that keeps its frame: each paint may copy only the damage (buffer age 1).
    private var ages = BufferAges(count: 1)
    private var pending: [DisplayEvent] = []
    /// A queued frame's "flip" is pending until a reported `.frameShown` is drained (or a
    /// `.suspended` drops it), as on a KMS display; a `.frameShown` with none pending is stale
    /// and dropped, as KMSDisplay drops one.
    package private(set) var isFlipPending = false
    private var fds: [Int32] = [-1, -1]

    package init(width: Int = 64, height: Int = 48, fill: UInt32 = 0) {
        self.width = width
        self.height = height
        pixels = [UInt32](repeating: fill, count: width * height)
        _ = pipe(&fds)
    }

    deinit { close(fds[0]); close(fds[1]) }

    package func present(paint: (FrameTarget) throws -> [PixelRect]?) throws {
        attempts += 1
        if !failures.isEmpty {
            throw DisplayError(.pageFlip(crtc: 42), code: failures.removeFirst())
        }
        let (w, h) = (width, height)
        try pixels.withUnsafeMutableBytes { raw in
            _ = try paint(ages.next(FrameTarget(base: raw.baseAddress!, width: w, height: h, stride: w * 4), buffer: 0))
        }
        ages.painted(buffer: 0)
        presents += 1
        isFlipPending = true
    }

    /// The kernel reports `event`: queue it and make the descriptor readable.
    package func report(_ event: DisplayEvent) {
        pending.append(event)
        var b: UInt8 = 1
        _ = write(fds[1], &b, 1)
    }

    package var pollDescriptor: Int32 { fds[0] }

    package func drainDisplayEvents() throws -> [DisplayEvent] {
        var b = [UInt8](repeating: 0, count: 64)
        _ = read(fds[0], &b, 64)
        defer { pending.removeAll() }
        return pending.filter { event in
            switch event {
            case .frameShown:
                guard isFlipPending else { return false }
                isFlipPending = false
            case .suspended, .resized:
                isFlipPending = false
            case .resumed:
                break
            }
            return true
        }
    }
}

/// A pipe-backed input source.
package final class PipeInput: InputSource {
    private var fds: [Int32] = [-1, -1]
    private var pending: [InputEvent] = []

    package init() { _ = pipe(&fds) }
    deinit { close(fds[0]); close(fds[1]) }

    package var pollDescriptor: Int32 { fds[0] }

    package func send(_ events: [InputEvent]) {
        pending += events
        var b: UInt8 = 1
        _ = write(fds[1], &b, 1)
    }

    package func drain() throws -> [InputEvent] {
        var b = [UInt8](repeating: 0, count: 64)
        _ = read(fds[0], &b, 64)
        defer { pending.removeAll() }
        return pending
    }
}

/// Everything written to a non-blocking pipe so far, as text.
package func drainText(_ fd: Int32) -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while case let n = read(fd, &buffer, buffer.count), n > 0 { bytes += buffer[0..<n] }
    return String(decoding: bytes, as: UTF8.self)
}

extension DatagramReceiver {
    /// Every notification received so far (READY=1, WATCHDOG=1, ...).
    package func drainMessages() -> [String] {
        var out: [String] = []
        while let message = receive() { out.append(message) }
        return out
    }
}
