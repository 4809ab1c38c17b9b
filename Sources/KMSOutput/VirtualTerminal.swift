import CLinux
import LinuxSystem

/// The Linux console the program runs on, when it runs on one: graphics mode while running
/// (the kernel stops drawing text and the cursor), and process-controlled VT switching so the
/// program gives DRM master up before another VT takes the screen. `restore()` is safe twice.
public final class VirtualTerminal {
    /// The console descriptor (not owned: usually stdin, given by systemd's TTYPath=).
    public let fd: Int32
    private var changed = false

    /// nil when `fd` is not a VT (a pipe, a pty over ssh, a serial console): KDGETMODE fails.
    public init?(fd: Int32) {
        var mode: Int32 = 0
        guard clinux_ioctl_pointer(fd, UInt(KDGETMODE), &mode) == 0 else { return nil }
        self.fd = fd
    }

    /// KDSETMODE KD_GRAPHICS, then VT_SETMODE VT_PROCESS with the two signals the kernel sends
    /// when another VT wants the screen (`release`) and when it comes back (`acquire`).
    public func enterGraphics(releaseSignal: Int32, acquireSignal: Int32) throws(DisplayError) {
        _ = try DisplayError.retrying(.console("set KD_GRAPHICS")) {
            clinux_ioctl_value(fd, UInt(KDSETMODE), UInt(KD_GRAPHICS))
        }
        changed = true
        var mode = vt_mode()
        mode.mode = CChar(VT_PROCESS)
        mode.relsig = Int16(releaseSignal)
        mode.acqsig = Int16(acquireSignal)
        _ = try DisplayError.retrying(.console("set VT_PROCESS switching")) {
            clinux_ioctl_pointer(fd, UInt(VT_SETMODE), &mode)
        }
    }

    /// VT_RELDISP 1: the switch away may proceed (call after dropping master).
    public func allowRelease() throws(DisplayError) {
        _ = try DisplayError.retrying(.console("release the VT")) { clinux_ioctl_value(fd, UInt(VT_RELDISP), UInt(1)) }
    }

    /// VT_RELDISP VT_ACKACQ: the VT is ours again.
    public func acknowledgeAcquire() throws(DisplayError) {
        _ = try DisplayError.retrying(.console("acquire the VT")) { clinux_ioctl_value(fd, UInt(VT_RELDISP), UInt(VT_ACKACQ)) }
    }

    /// VT_SETMODE VT_AUTO and KDSETMODE KD_TEXT (unless `keepingGraphics`), so the console is
    /// usable after exit.
    public func restore(keepingGraphics: Bool = false) {
        guard changed else { return }
        var mode = vt_mode()
        mode.mode = CChar(VT_AUTO)
        _ = clinux_ioctl_pointer(fd, UInt(VT_SETMODE), &mode)
        // KD_TEXT makes the console redraw its text over the framebuffer on screen: left out
        // when that framebuffer holds the dial's last frame (`display.on_exit: keep`).
        if !keepingGraphics { _ = clinux_ioctl_value(fd, UInt(KDSETMODE), UInt(KD_TEXT)) }
        changed = false
    }

    deinit { restore() }
}
