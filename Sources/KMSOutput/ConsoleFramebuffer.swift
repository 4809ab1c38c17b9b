import CLinux
import KioskSeams
import Glibc
import LinuxSystem

/// The card's fbdev emulation (/dev/fbN): the console's framebuffer, which the CRTC shows
/// before the dial starts and again when the card's last user closes it (the kernel's own
/// restore). `display.on_exit: keep` copies the last dial frame into it, so both restores show
/// the dial instead of the console.
enum ConsoleFramebuffer {
    /// Copies `frame` (XRGB8888, the dumb buffer on screen) into the first /dev/fbN whose
    /// FBIOGET_FSCREENINFO id names `driver` (drm_fb_helper's "<driver>drmfb", cut to 15 bytes)
    /// and whose visible area is the frame's size at 32 bits per pixel, red at bit 16. Returns
    /// that device, or why none took the frame.
    static func copy(_ frame: FrameTarget, driver: String) -> Result<String, KMSDisplay.KeptFrameFailure> {
        var why = "no /dev/fbN of driver \(driver)"
        for n in 0..<8 {
            let path = "/dev/fb\(n)"
            guard let file = try? FileDescriptor.open(path, flags: O_RDWR | O_CLOEXEC).get() else { continue }
            defer { file.close() }
            var fix = fb_fix_screeninfo()
            var info = fb_var_screeninfo()
            guard clinux_ioctl_pointer(file.rawValue, UInt(FBIOGET_FSCREENINFO), &fix) == 0,
                  clinux_ioctl_pointer(file.rawValue, UInt(FBIOGET_VSCREENINFO), &info) == 0 else { continue }
            let id = withUnsafeBytes(of: &fix.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !id.isEmpty, (driver + "drmfb").hasPrefix(id) else { continue }
            guard Int(info.xres) == frame.width, Int(info.yres) == frame.height, info.bits_per_pixel == 32,
                  info.red.offset == 16, info.green.offset == 8, info.blue.offset == 0 else {
                why = "\(path) (\(id)) is \(info.xres)x\(info.yres) at \(info.bits_per_pixel) bpp, not the frame's \(frame.width)x\(frame.height) XRGB8888"
                continue
            }
            let line = Int(fix.line_length)
            let offset = Int(info.yoffset) * line + Int(info.xoffset) * 4
            let length = Int(fix.smem_len)
            guard line >= frame.width * 4, offset + (frame.height - 1) * line + frame.width * 4 <= length else { continue }
            let map = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, file.rawValue, 0)
            guard let map, map != MAP_FAILED else {
                why = "\(path): mmap: \(Errno.current)"
                continue
            }
            defer { munmap(map, length) }
            for y in 0..<frame.height {
                memcpy(map + offset + y * line, frame.base + y * frame.stride, frame.width * 4)
            }
            return .success(path)
        }
        return .failure(KMSDisplay.KeptFrameFailure(description: why))
    }
}
