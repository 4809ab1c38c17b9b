import CDRM
import KioskSeams
import Glibc
import LinuxSystem

/// One XRGB8888 dumb buffer with its framebuffer and CPU mapping. Created in the order
/// create -> AddFB2 -> map and released in reverse; `destroy()` is safe to call twice.
final class DumbBuffer {
    /// DRM_FORMAT_XRGB8888 = fourcc('X', 'R', '2', '4'); the macro is not visible to Swift.
    static let xrgb8888: UInt32 = 0x3432_5258

    let width: Int
    let height: Int
    private(set) var stride: Int = 0
    private(set) var framebufferID: UInt32 = 0
    private var handle: UInt32 = 0
    private var size: Int = 0
    private var mapping: UnsafeMutableRawPointer?
    /// The card's descriptor owner, borrowed: once it is closed the calls below fail with EBADF
    /// instead of reaching whatever a reused descriptor number names.
    private let card: DRMCard

    /// drmModeCreateDumbBuffer, drmModeAddFB2, drmModeMapDumbBuffer + mmap.
    init(card: DRMCard, width: Int, height: Int) throws(DisplayError) {
        self.card = card
        let fd = card.fd
        self.width = width
        self.height = height
        var pitch: UInt32 = 0
        var size: UInt64 = 0
        try DisplayError.check(.createDumbBuffer(width: width, height: height),
                               drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size))
        stride = Int(pitch)
        self.size = Int(size)
        var complete = false
        // Whatever was made before a failure is released in reverse.
        defer { if !complete { destroy() } }
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        let added = withUnsafeMutablePointer(to: &handles) { h in
            withUnsafeMutablePointer(to: &pitches) { p in
                withUnsafeMutablePointer(to: &offsets) { o in
                    drmModeAddFB2(fd, UInt32(width), UInt32(height), DumbBuffer.xrgb8888,
                                  UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self),
                                  &framebufferID, 0)
                }
            }
        }
        try DisplayError.check(.addFramebuffer, added)
        var offset: UInt64 = 0
        try DisplayError.check(.mapDumbBuffer, drmModeMapDumbBuffer(fd, handle, &offset))
        // MAP_POPULATE: the pages are mapped now, at set-up, not by faults in the first frame
        // written to this buffer (one per 4 KiB page, which made the first frame of a spin the
        // slow one: docs/measurements.md). Drivers whose dumb buffers are page frames (vkms,
        // VM_PFNMAP) ignore it; those are mapped at the fault anyway.
        let p = mmap(nil, self.size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, off_t(offset))
        guard let p, p != MAP_FAILED else { throw DisplayError(.mapDumbBuffer, errno: .current) }
        mapping = p
        complete = true
    }

    deinit { destroy() }

    /// Where a painter writes this buffer's pixels.
    var target: FrameTarget? {
        mapping.map { FrameTarget(base: $0, width: width, height: height, stride: stride) }
    }

    /// munmap, drmModeRmFB, drmModeDestroyDumbBuffer: the reverse of creation. The caller makes
    /// sure the buffer is neither on screen nor pending.
    func destroy() {
        if let m = mapping { munmap(m, size) }
        mapping = nil
        if framebufferID != 0 { _ = drmModeRmFB(card.fd, framebufferID) }
        framebufferID = 0
        if handle != 0 { _ = drmModeDestroyDumbBuffer(card.fd, handle) }
        handle = 0
    }
}
