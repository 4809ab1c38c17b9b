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

/// Where finished frames go (frames out). A presenter owns its buffers.
public protocol FramePresenter: AnyObject {
    /// Width and height, in pixels, of the scanout buffer (after output rotation).
    var frameSize: (width: Int, height: Int) { get }
    /// Queue one frame: `paint` fills a buffer that is neither on screen nor pending, then it is
    /// shown at the next vblank. The buffer keeps what was last painted into it, `target.age`
    /// frames ago (nil: unknown, write every pixel). `paint` returns the rectangles, in scanout
    /// pixels, that differ from the previous frame (nil: all of it), for the kernel's damage
    /// clips. The first call after the buffers were made may call `paint` once more for each
    /// other buffer (`BufferAges.prime`): the same picture, every pixel written (age nil).
    /// Every successful call is answered by exactly one `DisplayEvent.frameShown` later.
    /// Throws when the frame cannot be queued (the error names the call that failed and why).
    func present(paint: (FrameTarget) throws -> [PixelRect]?) throws
    /// True from a successful `present` until its `.frameShown` is drained (or the output is
    /// lost or switched off, which drops that answer): the one holder of "a flip is pending",
    /// which `FrameSchedule` asks. A present while it is true is refused (EBUSY).
    var isFlipPending: Bool { get }
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
