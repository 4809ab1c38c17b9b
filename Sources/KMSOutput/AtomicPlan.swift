import KioskSeams

/// The pure half of atomic modesetting: properties by name, the primary plane, and the
/// property lists of a modeset and of a flip. AtomicKMS reads the kernel's objects into these
/// values and commits the lists; tests build them by hand.

/// One KMS object's properties by name (drmModeObjectGetProperties + drmModeGetProperty):
/// property ids are per driver and per object type, so they are only ever looked up by name.
public struct PropertyTable: Sendable, Equatable {
    public var ids: [String: UInt32]
    public var values: [String: UInt64]

    public init(_ entries: [(name: String, id: UInt32, value: UInt64)] = []) {
        ids = [:]
        values = [:]
        for e in entries {
            ids[e.name] = e.id
            values[e.name] = e.value
        }
    }

    public func id(_ name: String) -> UInt32? { ids[name] }
}

/// A plane as drmModeGetPlane and its properties describe it.
public struct PlaneInfo: Sendable, Equatable {
    public var id: UInt32
    /// Bit i set: the card's i-th CRTC (resource order) can show this plane.
    public var possibleCRTCs: UInt32
    public var properties: PropertyTable

    public init(id: UInt32, possibleCRTCs: UInt32, properties: PropertyTable) {
        self.id = id
        self.possibleCRTCs = possibleCRTCs
        self.properties = properties
    }

    /// DRM_PLANE_TYPE_PRIMARY, the value of the enum property `type`.
    static let primaryType: UInt64 = 1

    public var isPrimary: Bool { properties.values["type"] == PlaneInfo.primaryType }

    /// The primary plane for the CRTC at `crtcIndex` (id `crtcID`): a primary plane whose
    /// possible_crtcs has that bit, preferring the one already on that CRTC (drivers give each
    /// CRTC its own primary plane, but the bits alone may allow several).
    public static func primary(among planes: [PlaneInfo], crtcIndex: Int, crtcID: UInt32) -> PlaneInfo? {
        guard crtcIndex >= 0 && crtcIndex < 32 else { return nil }
        let fitting = planes.filter { $0.isPrimary && $0.possibleCRTCs & (1 << UInt32(crtcIndex)) != 0 }
        return fitting.first { $0.properties.values["CRTC_ID"] == UInt64(crtcID) } ?? fitting.first
    }
}

/// One (object, property, value) triple of an atomic request (drmModeAtomicAddProperty).
public struct AtomicAssignment: Sendable, Equatable {
    public var object: UInt32
    public var property: UInt32
    public var value: UInt64

    public init(_ object: UInt32, _ property: UInt32, _ value: UInt64) {
        self.object = object
        self.property = property
        self.value = value
    }
}

/// FB_DAMAGE_CLIPS: the painter's damage rectangles (scanout coordinates, after rotation) go to
/// the kernel as they are, one `PixelRect` per struct drm_mode_rect (x1, y1, x2 exclusive).
public enum DamageClips {
    /// Each rectangle cut to the `width` x `height` buffer; empty ones are dropped (the kernel
    /// rejects none, but an empty list would mean "no damage", which is not what an
    /// all-outside clip means either).
    public static func cut(_ rects: [PixelRect], width: Int, height: Int) -> [PixelRect] {
        rects.map { $0.clipped(width: width, height: height) }.filter { !$0.isEmpty }
    }
}

/// The property ids one output's commits use, resolved by name from its connector, CRTC and
/// primary plane.
public struct AtomicProperties: Sendable, Equatable {
    public var connectorID: UInt32
    public var crtcID: UInt32
    public var planeID: UInt32
    var connectorCRTC: UInt32
    var active: UInt32
    var modeID: UInt32
    var planeFB: UInt32
    var planeCRTC: UInt32
    var src: (x: UInt32, y: UInt32, w: UInt32, h: UInt32)
    var dst: (x: UInt32, y: UInt32, w: UInt32, h: UInt32)
    /// FB_DAMAGE_CLIPS, where the plane has it (Linux 5.0 and later, per driver).
    var damageClips: UInt32?

    public static func == (a: AtomicProperties, b: AtomicProperties) -> Bool {
        a.connectorID == b.connectorID && a.crtcID == b.crtcID && a.planeID == b.planeID
            && a.connectorCRTC == b.connectorCRTC && a.active == b.active && a.modeID == b.modeID
            && a.planeFB == b.planeFB && a.planeCRTC == b.planeCRTC && a.src == b.src && a.dst == b.dst
            && a.damageClips == b.damageClips
    }

    /// True when the plane takes FB_DAMAGE_CLIPS.
    public var hasDamageClips: Bool { damageClips != nil }

    /// Looks every property up by name; the failure names the first one missing and its object.
    public static func resolve(connector: (id: UInt32, properties: PropertyTable),
                               crtc: (id: UInt32, properties: PropertyTable),
                               plane: PlaneInfo) -> Result<AtomicProperties, KMSAPI.Refusal> {
        var missing: String?
        func need(_ table: PropertyTable, _ name: String, _ what: String) -> UInt32 {
            if let id = table.id(name) { return id }
            if missing == nil { missing = "\(what) has no property \(name)" }
            return 0
        }
        let p = plane.properties
        let planeName = "plane \(plane.id)"
        let resolved = AtomicProperties(
            connectorID: connector.id, crtcID: crtc.id, planeID: plane.id,
            connectorCRTC: need(connector.properties, "CRTC_ID", "connector \(connector.id)"),
            active: need(crtc.properties, "ACTIVE", "CRTC \(crtc.id)"),
            modeID: need(crtc.properties, "MODE_ID", "CRTC \(crtc.id)"),
            planeFB: need(p, "FB_ID", planeName), planeCRTC: need(p, "CRTC_ID", planeName),
            src: (need(p, "SRC_X", planeName), need(p, "SRC_Y", planeName),
                  need(p, "SRC_W", planeName), need(p, "SRC_H", planeName)),
            dst: (need(p, "CRTC_X", planeName), need(p, "CRTC_Y", planeName),
                  need(p, "CRTC_W", planeName), need(p, "CRTC_H", planeName)),
            damageClips: p.id("FB_DAMAGE_CLIPS"))
        if let missing { return .failure(KMSAPI.Refusal(reason: missing)) }
        return .success(resolved)
    }

    /// The modeset: connector routed to the CRTC, the CRTC on with `modeBlob`, and the primary
    /// plane showing `framebuffer` full screen (`plane`).
    public func modeset(modeBlob: UInt32, framebuffer: UInt32, width: Int, height: Int) -> [AtomicAssignment] {
        [AtomicAssignment(connectorID, connectorCRTC, UInt64(crtcID)),
         AtomicAssignment(crtcID, modeID, UInt64(modeBlob)),
         AtomicAssignment(crtcID, active, 1)]
            + plane(framebuffer: framebuffer, width: width, height: height)
    }

    /// The primary plane on the CRTC showing `framebuffer` full screen (SRC_* are 16.16 fixed
    /// point, CRTC_* whole pixels): plane properties only, which need no ALLOW_MODESET, so it
    /// is also the first frame onto a CRTC that already runs the mode.
    public func plane(framebuffer: UInt32, width: Int, height: Int) -> [AtomicAssignment] {
        [AtomicAssignment(planeID, planeFB, UInt64(framebuffer)),
         AtomicAssignment(planeID, planeCRTC, UInt64(crtcID)),
         AtomicAssignment(planeID, src.x, 0),
         AtomicAssignment(planeID, src.y, 0),
         AtomicAssignment(planeID, src.w, UInt64(width) << 16),
         AtomicAssignment(planeID, src.h, UInt64(height) << 16),
         AtomicAssignment(planeID, dst.x, 0),
         AtomicAssignment(planeID, dst.y, 0),
         AtomicAssignment(planeID, dst.w, UInt64(width)),
         AtomicAssignment(planeID, dst.h, UInt64(height))]
    }

    /// Output off (blank): the CRTC's ACTIVE=0 and nothing else, so the mode, the connector's
    /// routing and the plane stay as they are and the modeset that wakes it (ACTIVE=1) is the
    /// same commit as the first. The kernel turns the encoder and connector off with the CRTC
    /// (the connector's DPMS reads Off); a connector unrouted here would need MODE_ID 0 and the
    /// plane off in the same commit, for no saving in power.
    public func powerOff() -> [AtomicAssignment] {
        [AtomicAssignment(crtcID, active, 0)]
    }

    /// A flip: the primary plane's FB_ID, and its damage blob when there is one and the plane
    /// takes FB_DAMAGE_CLIPS (without a blob the whole plane counts as damaged).
    public func flip(framebuffer: UInt32, damageBlob: UInt32? = nil) -> [AtomicAssignment] {
        var list = [AtomicAssignment(planeID, planeFB, UInt64(framebuffer))]
        if let damageClips, let damageBlob { list.append(AtomicAssignment(planeID, damageClips, UInt64(damageBlob))) }
        return list
    }
}
