/// The seams between the pure core and the kernel-facing modules, one protocol per direction
/// (the shape of LVGL's flush/read callbacks and Slint's Presenter). Tests and fault injection
/// plug in here; KMSOutput and TouchInput provide the real ones.

/// Memory a painter may write into: XRGB8888, `stride` bytes per row.
public struct FrameTarget {
    public var base: UnsafeMutableRawPointer
    public var width: Int
    public var height: Int
    public var stride: Int
    /// The presenter's number of the frame painted into this target (it counts every call of
    /// `paint`); nil for memory that is not a presenter's buffer.
    public var frameNumber: Int?
    /// Frames since this memory was last painted (1: it holds the previous frame, 2: the one
    /// before, as EGL_EXT_buffer_age counts); nil when its contents are unknown (new, or a paint
    /// into it failed), so every pixel must be written.
    public var age: Int?

    public init(base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
                frameNumber: Int? = nil, age: Int? = nil) {
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
        self.frameNumber = frameNumber
        self.age = age
    }
}

/// A rectangle of pixels [x0, x1) x [y0, y1): damage, dirty areas, sprite bounds.
public struct PixelRect: Sendable, Equatable {
    /// Left, top (inclusive), right, bottom (exclusive), in pixels.
    public var x0: Int, y0: Int, x1: Int, y1: Int
    /// The rectangle [x0, x1) x [y0, y1).
    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
    }
    /// True when it holds no pixel.
    public var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
    /// Pixels inside (0 when empty).
    public var area: Int { isEmpty ? 0 : (x1 - x0) * (y1 - y0) }
    /// The part inside a `width` x `height` frame.
    public func clipped(width: Int, height: Int) -> PixelRect {
        PixelRect(x0: max(0, x0), y0: max(0, y0), x1: min(width, x1), y1: min(height, y1))
    }
}

/// Where finished frames go (frames out). A presenter owns its buffers.
public protocol FramePresenter: AnyObject {
    /// Width and height, in pixels, of the scanout buffer (after output rotation).
    var frameSize: (width: Int, height: Int) { get }
    /// Queue one frame: `paint` fills a buffer that is neither on screen nor pending, then it is
    /// shown at the next vblank. The buffer keeps what was last painted into it, `target.age`
    /// frames ago (nil: unknown, write every pixel). `paint` returns the rectangles, in scanout
    /// pixels, that differ from the previous frame (nil: all of it), for the kernel's damage
    /// clips. Every successful call is answered by exactly one `DisplayEvent.frameShown` later.
    /// Throws when the frame cannot be queued (the error names the call that failed and why).
    func present(paint: (FrameTarget) throws -> [PixelRect]?) throws
}

/// What the display reports back (events in): the frame clock and changes of the output.
public enum DisplayEvent: Sendable, Equatable {
    /// The frame queued last is on screen since `time` (CLOCK_MONOTONIC seconds, from the page
    /// flip event): the frame clock.
    case frameShown(time: Double)
    /// The output went away (unplugged, VT switched away, master dropped): stop presenting.
    case suspended
    /// The output is back (replugged, VT acquired): present a fresh frame.
    case resumed
    /// The output was set to a new mode of `width` x `height` (scanout pixels, before rotation)
    /// after a hotplug: rebuild what is painted for that size. A `.resumed` follows when the
    /// output can be presented to.
    case resized(width: Int, height: Int)
}

/// The display's side of the poll loop.
public protocol DisplayEventSource: AnyObject {
    /// Descriptor to poll for readability (the DRM fd, or a test's pipe).
    var pollDescriptor: Int32 { get }
    /// Read what is ready without blocking.
    func drainDisplayEvents() throws -> [DisplayEvent]
}

/// Where input comes from: a pollable descriptor and a way to drain what is ready.
public protocol InputSource: AnyObject {
    /// The descriptor to poll for readability.
    var pollDescriptor: Int32 { get }
    /// Read everything that is ready without blocking, already translated.
    func drain() throws -> [InputEvent]
}

/// Buffer age bookkeeping for a presenter with several buffers: numbers the frames as they are
/// painted and remembers which frame each buffer holds, so `FrameTarget.age` can say how old a
/// buffer's contents are.
public struct BufferAges: Sendable {
    /// Frames painted so far (the number of the last one).
    public private(set) var framesPainted = 0
    private var held: [Int?]

    /// `count` buffers of unknown contents.
    public init(count: Int) {
        held = Array(repeating: nil, count: count)
    }

    /// Numbers the next frame and gives `target` (buffer `index`) its age. Until `painted` is
    /// called the buffer's contents are unknown (a paint that throws may leave them half written).
    public mutating func next(_ target: FrameTarget, buffer index: Int) -> FrameTarget {
        framesPainted += 1
        var t = target
        t.frameNumber = framesPainted
        t.age = held[index].map { framesPainted - $0 }
        held[index] = nil
        return t
    }

    /// Buffer `index` now holds the frame numbered last.
    public mutating func painted(buffer index: Int) {
        held[index] = framesPainted
    }
}
