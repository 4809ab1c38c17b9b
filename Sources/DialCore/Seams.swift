/// The two seams between the pure core and the kernel-facing modules, one protocol per direction
/// (the shape of LVGL's flush/read callbacks and Slint's Presenter). Tests and fault injection
/// plug in here; KMSOutput and TouchInput provide the real ones.

/// Where finished frames go. A presenter owns its buffers; `paint` is handed a buffer that is
/// neither on screen nor pending, so the caller may write every pixel of it.
public protocol FramePresenter: AnyObject {
    /// Width and height, in pixels, of the frame the dial is painted in (before output rotation).
    var frameSize: (width: Int, height: Int) { get }
    /// Queue one frame: `paint` fills it, then it is shown at the next vblank.
    /// Throws when the frame cannot be queued (the error says which call failed and why).
    func present(paint: (inout FrameTarget) throws -> Void) throws
}

/// Memory a painter may write into: XRGB8888, `stride` bytes per row.
public struct FrameTarget {
    public var base: UnsafeMutableRawPointer
    public var width: Int
    public var height: Int
    public var stride: Int

    public init(base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) {
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
    }
}

/// Where input comes from: a pollable descriptor and a way to drain what is ready.
public protocol InputSource: AnyObject {
    /// The descriptor to poll for readability.
    var pollDescriptor: Int32 { get }
    /// Read everything that is ready without blocking, already translated.
    func drain() throws -> [InputEvent]
}
