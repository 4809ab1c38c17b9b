import CDRM
import LinuxSystem

/// Reads KMS objects (planes, properties, a CRTC's state) into plain values, freeing every
/// libdrm structure before returning.
enum KMSObjects {
    /// Every plane (universal planes: primary and cursor too) with its properties.
    static func planes(card: DRMCard) throws(DisplayError) -> [PlaneInfo] {
        guard let res = drmModeGetPlaneResources(card.fd) else { throw DisplayError(.readObject("the plane list"), errno: .current) }
        defer { drmModeFreePlaneResources(res) }
        var planes: [PlaneInfo] = []
        for i in 0..<Int(res.pointee.count_planes) {
            let id = res.pointee.planes[i]
            guard let p = drmModeGetPlane(card.fd, id) else { throw DisplayError(.readObject("plane \(id)"), errno: .current) }
            let possible = p.pointee.possible_crtcs
            drmModeFreePlane(p)
            planes.append(PlaneInfo(id: id, possibleCRTCs: possible,
                                    properties: try properties(card: card, object: id, type: UInt32(DRM_MODE_OBJECT_PLANE),
                                                               what: "plane \(id)")))
        }
        return planes
    }

    /// drmModeObjectGetProperties, each property's name from drmModeGetProperty.
    static func properties(card: DRMCard, object: UInt32, type: UInt32, what: String) throws(DisplayError) -> PropertyTable {
        guard let props = drmModeObjectGetProperties(card.fd, object, type) else {
            throw DisplayError(.readObject("the properties of \(what)"), errno: .current)
        }
        defer { drmModeFreeObjectProperties(props) }
        var entries: [(name: String, id: UInt32, value: UInt64)] = []
        for i in 0..<Int(props.pointee.count_props) {
            let id = props.pointee.props[i]
            guard let p = drmModeGetProperty(card.fd, id) else { continue }
            entries.append((CardProbe.cString(&p.pointee.name), id, props.pointee.prop_values[i]))
            drmModeFreeProperty(p)
        }
        return PropertyTable(entries)
    }

    /// drmModeGetCrtc of the route's CRTC: what to restore on exit, and what it runs now for the
    /// first-frame decision. Lit: a mode and a framebuffer, and neither the CRTC's ACTIVE
    /// (visible to atomic clients) nor the connector's DPMS says off. The connector it drives
    /// comes from the probe (each connector's current encoder and that encoder's CRTC).
    static func crtcState(card: DRMCard, route: CRTCRoute, info: CardInfo) throws(DisplayError) -> (SavedCrtc, RunningCrtc) {
        guard let c = drmModeGetCrtc(card.fd, route.crtcID) else { throw DisplayError(.getCrtc(route.crtcID), errno: .current) }
        let crtc = c.pointee
        drmModeFreeCrtc(c)
        let saved = SavedCrtc(bufferID: crtc.buffer_id, x: crtc.x, y: crtc.y, mode: crtc.mode_valid != 0 ? crtc.mode : nil)
        let active = (try? properties(card: card, object: route.crtcID, type: UInt32(DRM_MODE_OBJECT_CRTC),
                                      what: "CRTC \(route.crtcID)"))?.values["ACTIVE"]
        let dpms = (try? properties(card: card, object: route.connector.id, type: UInt32(DRM_MODE_OBJECT_CONNECTOR),
                                    what: "connector \(route.connector.id)"))?.values["DPMS"]
        let running = RunningCrtc(
            lit: crtc.mode_valid != 0 && crtc.buffer_id != 0 && active != 0 && dpms.map { $0 == LegacyKMS.dpmsOn } ?? true,
            mode: crtc.mode_valid != 0 ? ModeTiming(crtc.mode) : nil,
            modeSummary: crtc.mode_valid != 0 ? CardProbe.modeInfo(crtc.mode).summary : nil,
            connectors: RunningCrtc.connectors(routedTo: route.crtcID, on: info))
        return (saved, running)
    }
}

extension ModeTiming {
    /// The timings of a kernel mode (its name and type bits left out).
    init(_ m: drmModeModeInfo) {
        self.init(clock: m.clock, horizontal: [m.hdisplay, m.hsync_start, m.hsync_end, m.htotal, m.hskew],
                  vertical: [m.vdisplay, m.vsync_start, m.vsync_end, m.vtotal, m.vscan], flags: m.flags)
    }
}
