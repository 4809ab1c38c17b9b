/// What the screen shows once the program lets go of it (`display.on_exit`).
public enum ExitScreen: String, Sendable, CaseIterable {
    /// The CRTC as it was before the first frame (the console, a splash) goes back.
    case restore
    /// The last frame stays: it is copied into the console's framebuffer (fbdev emulation)
    /// before the restore, so the restore, and the kernel's own when the card's last user
    /// closes it, show the dial. The console must stay in graphics mode for it to last.
    case keep
}
