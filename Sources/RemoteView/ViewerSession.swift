import DialRender
import KioskSeams

/// One viewer's side of RFB 3.3/3.7/3.8 (RFC 6143) as plain data: bytes in, what the viewer
/// asked for out, and the bytes to send queued in `output`. No socket: `RemoteViewServer` moves
/// the bytes, the tests feed them. Everything read is bounded before it is decoded; a message
/// this server does not know ends the session (the stream could not be followed past it).
final class ViewerSession {
    enum Phase: Equatable {
        case version, security, clientInit, normal
        case closed(String)
    }

    /// What a message asked for, for the server to act on.
    enum Happening: Equatable {
        /// The handshake is done: the viewer sees frames from now on.
        case ready
        case pointer(buttons: UInt8, x: Int, y: Int)
        case key(down: Bool, keysym: UInt32)
    }

    /// The longest message kept whole: SetEncodings with `maximumEncodings` entries.
    static let maximumEncodings = 64
    static let maximumBufferedInput = 4 + 4 * maximumEncodings
    /// More damage rectangles than this collapse into their bounding box.
    static let maximumDirtyRects = 32

    private(set) var phase = Phase.version
    private(set) var width: Int
    private(set) var height: Int
    private(set) var format = PixelFormat.native
    private(set) var encoding = Encoding.raw
    private(set) var followsResize = false
    /// The bytes still to send, from `sent` on.
    private(set) var output: [UInt8]
    private var sent = 0
    private var input: [UInt8] = []
    /// ClientCutText still to drop (its text is never kept).
    private var discarding = 0
    private var minor = 8
    /// Changed panel rectangles since the last update (the union of every frame's damage).
    private(set) var dirty: [PixelRect] = []
    /// An update request waits for something to send.
    private(set) var requested = false
    private var resized = false
    private(set) var lastUpdate = -Double.infinity
    private let encoder = RectangleEncoder()
    /// Bytes queued for this viewer in updates, for benchmarks.
    private(set) var updateBytes = 0
    private(set) var updates = 0
    /// The pieces of the update in progress still to encode, and the encoding and pixel format
    /// it started with: a SetEncodings or SetPixelFormat that arrives while it is encoded takes
    /// effect with the next update, so its header's rectangle count and every piece's bytes
    /// follow one encoding and one format (the viewer parses them with what it last asked for
    /// before the update began).
    private var plan: [PixelRect] = []
    private var planEncoding = Encoding.raw
    private var planFormat = PixelFormat.native

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        output = Array("RFB 003.008\n".utf8)
    }

    var pendingOutput: Int { output.count - sent }
    var isReady: Bool { phase == .normal }
    var isClosed: Bool { if case .closed = phase { return true } else { return false } }
    /// Room for more input this turn.
    var wantsInput: Bool { !isClosed && input.count < Self.maximumBufferedInput }

    /// The unsent bytes (the server writes what the socket takes and calls `consumed`).
    func withPendingOutput<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        output.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[sent...])) }
    }

    func consumed(_ n: Int) {
        sent += n
        if sent == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 1 << 20)
            sent = 0
        }
    }

    func close(_ why: String) {
        if !isClosed { phase = .closed(why) }
    }

    /// Takes bytes the viewer sent (at most `maximumBufferedInput` at a time is sensible) and
    /// returns what its complete messages asked for.
    func receive(_ bytes: ArraySlice<UInt8>) -> [Happening] {
        guard !isClosed else { return [] }
        var bytes = bytes
        if discarding > 0 {
            let n = min(discarding, bytes.count)
            discarding -= n
            bytes = bytes.dropFirst(n)
        }
        input.append(contentsOf: bytes)
        var happened: [Happening] = []
        while !isClosed, let used = step(&happened), used > 0 {
            input.removeFirst(used)
            if discarding > 0 {
                let n = min(discarding, input.count)
                discarding -= n
                input.removeFirst(n)
            }
        }
        if input.count > Self.maximumBufferedInput { close("a message longer than \(Self.maximumBufferedInput) bytes") }
        return happened
    }

    /// One message from the front of `input`: bytes used (nil: incomplete).
    private func step(_ happened: inout [Happening]) -> Int? {
        switch phase {
        case .closed:
            return nil
        case .version:
            guard input.count >= 12 else { return nil }
            let text = String(decoding: input[0..<12], as: UTF8.self)
            guard text.hasPrefix("RFB 003."), text.hasSuffix("\n"), let m = Int(text.dropFirst(8).prefix(3)) else {
                close("not an RFB protocol version")
                return nil
            }
            minor = m >= 8 ? 8 : (m == 7 ? 7 : 3)
            if minor == 3 {
                appendU32(1, to: &output)  // security type None, chosen by the server in 3.3
                phase = .clientInit
            } else {
                output += [1, 1]  // one security type: None
                phase = .security
            }
            return 12
        case .security:
            guard input.count >= 1 else { return nil }
            guard input[0] == 1 else {
                if minor == 8 {
                    appendU32(1, to: &output)
                    let reason = Array("only security type None is offered".utf8)
                    appendU32(UInt32(reason.count), to: &output)
                    output += reason
                }
                close("asked for security type \(input[0])")
                return nil
            }
            if minor == 8 { appendU32(0, to: &output) }
            phase = .clientInit
            return 1
        case .clientInit:
            guard input.count >= 1 else { return nil }
            appendU16(width, to: &output)
            appendU16(height, to: &output)
            output += PixelFormat.native.bytes
            let name = Array("dialkiosk".utf8)
            appendU32(UInt32(name.count), to: &output)
            output += name
            phase = .normal
            happened.append(.ready)
            return 1
        case .normal:
            return message(&happened)
        }
    }

    private func u16(_ i: Int) -> Int { Int(input[i]) << 8 | Int(input[i + 1]) }
    private func u32(_ i: Int) -> UInt32 {
        UInt32(input[i]) << 24 | UInt32(input[i + 1]) << 16 | UInt32(input[i + 2]) << 8 | UInt32(input[i + 3])
    }

    private func message(_ happened: inout [Happening]) -> Int? {
        guard let type = input.first else { return nil }
        switch type {
        case 0:  // SetPixelFormat
            guard input.count >= 20 else { return nil }
            guard let f = PixelFormat(wire: input[4..<20]) else {
                close("a pixel format this server does not send (colour map or odd size)")
                return nil
            }
            format = f
            dirty = [PixelRect(x0: 0, y0: 0, x1: width, y1: height)]
            return 20
        case 2:  // SetEncodings
            guard input.count >= 4 else { return nil }
            let n = u16(2)
            guard n <= Self.maximumEncodings else {
                close("\(n) encodings (at most \(Self.maximumEncodings) are read)")
                return nil
            }
            guard input.count >= 4 + 4 * n else { return nil }
            let wanted = (0..<n).map { Int32(bitPattern: u32(4 + 4 * $0)) }
            followsResize = wanted.contains(Encoding.desktopSize.rawValue)
            encoding = wanted.lazy.compactMap { Encoding(rawValue: $0) }.first { $0 != .desktopSize } ?? .raw
            return 4 + 4 * n
        case 3:  // FramebufferUpdateRequest
            guard input.count >= 10 else { return nil }
            if input[1] == 0 {
                let r = PixelRect(x0: u16(2), y0: u16(4), x1: u16(2) + u16(6), y1: u16(4) + u16(8)).clipped(width: width, height: height)
                if !r.isEmpty { addDirty([r]) }
            }
            requested = true
            return 10
        case 4:  // KeyEvent
            guard input.count >= 8 else { return nil }
            happened.append(.key(down: input[1] != 0, keysym: u32(4)))
            return 8
        case 5:  // PointerEvent
            guard input.count >= 6 else { return nil }
            happened.append(.pointer(buttons: input[1], x: u16(2), y: u16(4)))
            return 6
        case 6:  // ClientCutText: the length is read, the text dropped as it arrives
            guard input.count >= 8 else { return nil }
            discarding = Int(u32(4))
            return 8
        default:
            close("message type \(type), which this server does not know")
            return nil
        }
    }

    /// Damage of the frame just presented, in panel pixels (nil: all of it).
    func damaged(_ rects: [PixelRect]?) {
        addDirty(rects ?? [PixelRect(x0: 0, y0: 0, x1: width, y1: height)])
    }

    private func addDirty(_ rects: [PixelRect]) {
        dirty += rects.map { $0.clipped(width: width, height: height) }.filter { !$0.isEmpty }
        if dirty.count > Self.maximumDirtyRects {
            var box = dirty[0]
            for r in dirty.dropFirst() {
                box = PixelRect(x0: min(box.x0, r.x0), y0: min(box.y0, r.y0), x1: max(box.x1, r.x1), y1: max(box.y1, r.y1))
            }
            dirty = [box]
        }
    }

    /// The frame has a new size: a viewer that follows a resize gets it with the next update,
    /// any other is closed (it would draw outside its framebuffer).
    func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
        dirty = [PixelRect(x0: 0, y0: 0, x1: width, y1: height)]
        if isReady && !followsResize { close("the frame size changed and this viewer does not follow a resize") }
        // An update in progress was planned for the old size: its stream cannot be finished.
        if !plan.isEmpty { close("the frame size changed during an update") }
        resized = true
    }

    /// An update is being encoded over several turns (`updateIfDue`'s budget).
    var isEncoding: Bool { !plan.isEmpty }

    /// When the next update may go out (nil: nothing to send, or no request waits). An update
    /// is only ever sent for a request and for something that changed: an idle dial sends nothing.
    func nextUpdate(minimumInterval: Double) -> Double? {
        guard isReady, requested, !dirty.isEmpty || resized else { return nil }
        return lastUpdate + minimumInterval
    }

    /// Encodes at most `budget` pixels of the update in progress, or starts one when it is due
    /// at `now` and the last one has left (a slow viewer's damage keeps adding up; it skips
    /// frames, never queues them). An update's rectangles are fixed when it starts; those
    /// encoded in a later turn show that turn's frame, and whatever changed meanwhile is in the
    /// next update's damage, so the viewer ends on the frame the dial rests on.
    @discardableResult
    func updateIfDue(_ frame: PixelBuffer, now: Double, minimumInterval: Double, budget: Int = .max) -> Int {
        guard frame.width == width, frame.height == height else { return 0 }
        if plan.isEmpty {
            guard pendingOutput == 0, let due = nextUpdate(minimumInterval: minimumInterval), due <= now else { return 0 }
            start(now: now)
        }
        var left = budget
        var body: [UInt8] = []
        while left > 0, let piece = plan.first {
            plan.removeFirst()
            left -= max(1, piece.area)
            let n = encoder.encode(piece, of: frame, format: planFormat, encoding: planEncoding, into: &body)
            assert(n == 1, "a planned piece is one rectangle")
        }
        guard encoder.healthy else {
            close("zlib failed")
            return budget - left
        }
        output += body
        updateBytes += body.count
        return budget - left
    }

    /// The update's header and the pieces it will hold, each one rectangle of its encoding.
    private func start(now: Double) {
        planEncoding = encoding
        planFormat = format
        var pieces: [PixelRect] = []
        for r in Damage.union(dirty, width: width, height: height) {
            // Tight's pieces are at most 256x256 (its limits); ZRLE's and raw's bands of 64
            // rows keep each turn's share small.
            let (tw, th) = planEncoding == .tight ? (256, 256) : (r.x1 - r.x0, 64)
            var y = r.y0
            while y < r.y1 {
                var x = r.x0
                while x < r.x1 {
                    pieces.append(PixelRect(x0: x, y0: y, x1: min(r.x1, x + tw), y1: min(r.y1, y + th)))
                    x += tw
                }
                y += th
            }
        }
        let announceSize = resized && followsResize
        output += [0, 0]
        appendU16(pieces.count + (announceSize ? 1 : 0), to: &output)
        updateBytes += 4
        if announceSize {
            encoder.header(PixelRect(x0: 0, y0: 0, x1: width, y1: height), encoding: .desktopSize, into: &output)
            updateBytes += 12
        }
        resized = false
        plan = pieces
        updates += 1
        dirty.removeAll(keepingCapacity: true)
        requested = false
        lastUpdate = now
    }
}
