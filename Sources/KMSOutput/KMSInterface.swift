import CDRM
import KioskSeams

/// The calls one KMS API (atomic commits or the legacy SetCrtc/PageFlip/DPMS calls) makes for
/// an output. KMSDisplay holds one, chosen once when the card is opened
/// (`KMSDisplay.interface(for:)`), and keeps the buffers and the flip state itself; the two
/// implementations are AtomicKMS and LegacyKMS, as wlroots keeps iface_atomic and iface_legacy.
protocol KMSInterface: AnyObject {
    /// Which API this is.
    var api: KMSAPI { get }
    /// True when flips carry FB_DAMAGE_CLIPS (an atomic primary plane that has the property).
    var takesDamageClips: Bool { get }
    /// Shows `framebuffer` full screen with the route's mode, connector routed and the CRTC on.
    /// Blocking and without a flip event (drmModeSetCrtc has none): the caller flips next.
    func modeset(_ framebuffer: UInt32, on route: CRTCRoute) throws(DisplayError)
    /// Queues `framebuffer` for the next vblank, answered by one page-flip event carrying
    /// `userData`. `.ontoRunningMode` is the first frame over a CRTC another client left
    /// on with this connector and mode: no modeset, and the driver may refuse it (the caller then
    /// modesets).
    func flip(_ framebuffer: UInt32, on route: CRTCRoute, kind: FlipKind, userData: UnsafeMutableRawPointer) throws(DisplayError)
    /// Switches the output off (blank) or marks it on again; on atomic the next modeset
    /// carries ACTIVE=1.
    func setPower(on: Bool, route: CRTCRoute) throws(DisplayError)
    /// Puts `saved` back on the route's CRTC (exit), then lets go of what the interface
    /// created (mode blobs). Failures are ignored: this is teardown.
    func restore(_ saved: SavedCrtc?, on route: CRTCRoute)
}

/// What a flip is for.
enum FlipKind {
    /// The next frame; `damage` (scanout pixels, nil: all) for FB_DAMAGE_CLIPS where taken.
    case next(damage: [PixelRect]?)
    /// The first frame, onto a CRTC already showing this connector at this mode.
    case ontoRunningMode
}

/// The CRTC, connector and mode an output is shown on, as the interfaces need them.
struct CRTCRoute {
    var crtcID: UInt32
    var connector: ConnectorInfo
    var mode: ModeInfo
    var rawMode: drmModeModeInfo
}

/// The CRTC as it was before the first frame (the console's, usually), put back on exit.
struct SavedCrtc {
    var bufferID: UInt32
    var x: UInt32
    var y: UInt32
    var mode: drmModeModeInfo?
}

extension SavedCrtc {
    /// drmModeSetCrtc of the saved framebuffer and mode, or of nothing when the CRTC was off.
    /// Both interfaces restore this way: on an atomic driver the kernel runs it as one atomic
    /// commit that sets the same CRTC, mode, framebuffer, connector routing and full-screen
    /// primary plane that a commit of the saved properties would.
    func putBack(card: DRMCard, route: CRTCRoute) {
        var connector = route.connector.id
        if var mode, bufferID != 0 {
            _ = drmModeSetCrtc(card.fd, route.crtcID, bufferID, x, y, &connector, 1, &mode)
        } else {
            _ = drmModeSetCrtc(card.fd, route.crtcID, 0, 0, 0, nil, 0, nil)
        }
    }
}
