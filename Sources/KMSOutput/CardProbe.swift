import CDRM

/// A probed card: the plain description the choice rules read, plus the kernel's raw mode
/// structures kept aside for drmModeSetCrtc.
public struct ProbedCard {
    public var info: CardInfo
    /// Per connector id, its modes as drmModeModeInfo, in the order of `ConnectorInfo.modes`.
    var rawModes: [UInt32: [drmModeModeInfo]]

    /// The raw mode matching `mode` on `connector`.
    func rawMode(_ mode: ModeInfo, connector: UInt32) -> drmModeModeInfo? {
        guard let infos = info.connectors.first(where: { $0.id == connector })?.modes,
              let i = infos.firstIndex(of: mode), let raws = rawModes[connector], i < raws.count else { return nil }
        return raws[i]
    }
}

/// Copies a card's resources, connectors, encoders and modes into plain structs at once, and
/// frees every libdrm structure before returning.
public enum CardProbe {
    /// drmModeGetResources, drmModeGetConnector, drmModeGetEncoder, drmModeGetProperty.
    public static func probe(_ card: DRMCard) throws(DisplayError) -> ProbedCard {
        let driver = try card.driverName()
        guard let res = drmModeGetResources(card.fd) else { throw DisplayError(.getResources, errno: .current) }
        defer { drmModeFreeResources(res) }
        let r = res.pointee
        let crtcs = (0..<Int(r.count_crtcs)).map { r.crtcs[$0] }
        var encoders: [EncoderInfo] = []
        for i in 0..<Int(r.count_encoders) {
            guard let e = drmModeGetEncoder(card.fd, r.encoders[i]) else { continue }
            encoders.append(EncoderInfo(id: e.pointee.encoder_id, crtcID: e.pointee.crtc_id,
                                        possibleCRTCs: e.pointee.possible_crtcs))
            drmModeFreeEncoder(e)
        }
        var connectors: [ConnectorInfo] = []
        var raw: [UInt32: [drmModeModeInfo]] = [:]
        for i in 0..<Int(r.count_connectors) {
            let id = r.connectors[i]
            guard let c = drmModeGetConnector(card.fd, id) else { throw DisplayError(.getConnector(id), errno: .current) }
            defer { drmModeFreeConnector(c) }
            let (info, modes) = copy(c.pointee, fd: card.fd)
            connectors.append(info)
            raw[id] = modes
        }
        return ProbedCard(info: CardInfo(path: card.path, driver: driver, connectors: connectors,
                                         encoders: encoders, crtcIDs: crtcs), rawModes: raw)
    }

    /// Re-reads one connector (for hotplug).
    static func connector(_ id: UInt32, on card: DRMCard) throws(DisplayError) -> (ConnectorInfo, [drmModeModeInfo]) {
        guard let c = drmModeGetConnector(card.fd, id) else { throw DisplayError(.getConnector(id), errno: .current) }
        defer { drmModeFreeConnector(c) }
        return copy(c.pointee, fd: card.fd)
    }

    private static func copy(_ c: drmModeConnector, fd: Int32) -> (ConnectorInfo, [drmModeModeInfo]) {
        let status: ConnectorStatus
        switch c.connection {
        case DRM_MODE_CONNECTED: status = .connected
        case DRM_MODE_DISCONNECTED: status = .disconnected
        default: status = .unknown
        }
        let raw = (0..<Int(c.count_modes)).map { c.modes[$0] }
        let encoderIDs = (0..<Int(c.count_encoders)).map { c.encoders[$0] }
        var orientation: PanelOrientation?
        for i in 0..<Int(c.count_props) {
            if let o = panelOrientation(fd: fd, property: c.props[i], value: c.prop_values[i]) {
                orientation = o
            }
        }
        let info = ConnectorInfo(id: c.connector_id, type: c.connector_type, typeIndex: c.connector_type_id,
                                 status: status, widthMM: Int(c.mmWidth), heightMM: Int(c.mmHeight),
                                 modes: raw.map(modeInfo), currentEncoderID: c.encoder_id,
                                 encoderIDs: encoderIDs, panelOrientation: orientation)
        return (info, raw)
    }

    /// The "panel orientation" enum property's current value, if `property` is that property.
    private static func panelOrientation(fd: Int32, property: UInt32, value: UInt64) -> PanelOrientation? {
        guard let p = drmModeGetProperty(fd, property) else { return nil }
        defer { drmModeFreeProperty(p) }
        var prop = p.pointee
        guard cString(&prop.name) == "panel orientation" else { return nil }
        for i in 0..<Int(prop.count_enums) {
            var e = prop.enums[i]
            if e.value == value { return PanelOrientation(rawValue: cString(&e.name)) }
        }
        return nil
    }

    /// Vertical refresh from the pixel clock (kHz) and the totals, as the kernel computes it.
    static func modeInfo(_ m: drmModeModeInfo) -> ModeInfo {
        var m = m
        var hz = 0.0
        if m.htotal > 0 && m.vtotal > 0 {
            hz = Double(m.clock) * 1000 / (Double(m.htotal) * Double(m.vtotal))
            if m.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { hz *= 2 }
            if m.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { hz /= 2 }
            if m.vscan > 1 { hz /= Double(m.vscan) }
        } else {
            hz = Double(m.vrefresh)
        }
        return ModeInfo(width: Int(m.hdisplay), height: Int(m.vdisplay), refreshHz: hz,
                        preferred: m.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0, name: cString(&m.name))
    }

    /// A fixed-size C char array (imported as a tuple) as a String.
    static func cString<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
