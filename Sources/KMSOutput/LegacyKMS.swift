import CDRM
import Glibc

/// The legacy KMS interface: drmModeSetCrtc for the modeset, drmModePageFlip for flips, the
/// connector's DPMS property for blanking. Every driver still offers these.
final class LegacyKMS: KMSInterface {
    /// DRM_MODE_DPMS_ON and DRM_MODE_DPMS_OFF, the values of the connector's DPMS enum.
    static let dpmsOn: UInt64 = 0
    static let dpmsOff: UInt64 = 3

    private let card: DRMCard
    /// The connector's DPMS property id, looked up by name at the first blank.
    private var dpmsProperty: UInt32?

    init(card: DRMCard) {
        self.card = card
    }

    var api: KMSAPI { .legacy }

    func modeset(_ framebuffer: UInt32, on route: CRTCRoute) throws(DisplayError) {
        var connector = route.connector.id
        var mode = route.rawMode
        try DisplayError.check(.setCrtc(route.crtcID),
                               drmModeSetCrtc(card.fd, route.crtcID, framebuffer, 0, 0, &connector, 1, &mode))
    }

    /// drmModePageFlip with DRM_MODE_PAGE_FLIP_EVENT, for the next frame and onto the running
    /// mode alike: a flip changes only the framebuffer, and the kernel refuses one whose size or
    /// format does not fit the CRTC (EINVAL) or a CRTC without a framebuffer (EBUSY).
    func flip(_ framebuffer: UInt32, on route: CRTCRoute, kind: FlipKind,
              userData: UnsafeMutableRawPointer) throws(DisplayError) {
        try DisplayError.check(.pageFlip(crtc: route.crtcID),
                               drmModePageFlip(card.fd, route.crtcID, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), userData))
    }

    /// DPMS Off, or On (SetCrtc alone leaves the connector's DPMS state Off).
    func setPower(on: Bool, route: CRTCRoute) throws(DisplayError) {
        let call = DisplayCall.dpms(connector: route.connector.name, on: on)
        if dpmsProperty == nil {
            let table = try KMSObjects.properties(card: card, object: route.connector.id,
                                                  type: UInt32(DRM_MODE_OBJECT_CONNECTOR),
                                                  what: "connector \(route.connector.id)")
            guard let id = table.id("DPMS") else { throw DisplayError(call, code: ENOENT) }
            dpmsProperty = id
        }
        try DisplayError.check(call, drmModeConnectorSetProperty(card.fd, route.connector.id, dpmsProperty ?? 0,
                                                                 on ? LegacyKMS.dpmsOn : LegacyKMS.dpmsOff))
    }

    func restore(_ saved: SavedCrtc?, on route: CRTCRoute) {
        saved?.putBack(card: card, route: route)
    }
}
