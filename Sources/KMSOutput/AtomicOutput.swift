import CDRM
import Glibc
import LinuxSystem

/// One output driven by atomic commits: the modeset (tested with TEST_ONLY first), nonblocking
/// flips with a page-flip event, and the property blobs they need. The property lists come from
/// AtomicProperties; this type only talks to the kernel.
final class AtomicOutput {
    let properties: AtomicProperties
    private let fd: Int32
    /// The MODE_ID blob of our modeset, destroyed when replaced and on release.
    private var modeBlob: UInt32 = 0

    private init(fd: Int32, properties: AtomicProperties) {
        self.fd = fd
        self.properties = properties
    }

    deinit { release() }

    /// drmSetClientCap UNIVERSAL_PLANES, then ATOMIC (which needs the first and implies it on
    /// kernels that have it; enabling it explicitly names the cap a refusal is about).
    static func enableCapabilities(on card: DRMCard) throws(DisplayError) {
        try DisplayError.check(.setClientCap("DRM_CLIENT_CAP_UNIVERSAL_PLANES"),
                               drmSetClientCap(card.fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1))
        try DisplayError.check(.setClientCap("DRM_CLIENT_CAP_ATOMIC"),
                               drmSetClientCap(card.fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1))
    }

    /// Enables the client caps and resolves the connector's, the CRTC's and its primary plane's
    /// properties. `.unavailable` says why atomic cannot drive this output; thrown errors are
    /// failures of calls that should work on any card.
    static func open(card: DRMCard, connectorID: UInt32, crtcID: UInt32, crtcIndex: Int)
        -> Result<AtomicOutput, KMSAPI.Refusal> {
        do throws(DisplayError) {
            try enableCapabilities(on: card)
        } catch {
            return .failure(KMSAPI.Refusal(reason: error.description))
        }
        do throws(DisplayError) {
            let planes = try readPlanes(fd: card.fd)
            guard let plane = PlaneInfo.primary(among: planes, crtcIndex: crtcIndex, crtcID: crtcID) else {
                return .failure(KMSAPI.Refusal(reason: "no primary plane for CRTC \(crtcID)"))
            }
            let connector = try readProperties(fd: card.fd, object: connectorID, type: UInt32(DRM_MODE_OBJECT_CONNECTOR),
                                               what: "connector \(connectorID)")
            let crtc = try readProperties(fd: card.fd, object: crtcID, type: UInt32(DRM_MODE_OBJECT_CRTC), what: "CRTC \(crtcID)")
            return AtomicProperties.resolve(connector: (connectorID, connector), crtc: (crtcID, crtc), plane: plane)
                .map { AtomicOutput(fd: card.fd, properties: $0) }
        } catch {
            return .failure(KMSAPI.Refusal(reason: error.description))
        }
    }

    /// What `open` would decide, for list-outputs: the same checks, nothing kept.
    static func support(card: DRMCard, connectorID: UInt32, crtcID: UInt32, crtcIndex: Int) -> (KMSAPI.Support, damageClips: Bool) {
        switch open(card: card, connectorID: connectorID, crtcID: crtcID, crtcIndex: crtcIndex) {
        case .success(let output): return (.available, output.properties.hasDamageClips)
        case .failure(let refusal): return (.unavailable(refusal.reason), false)
        }
    }

    // MARK: Commits

    /// Creates the mode blob, checks the whole modeset with TEST_ONLY | ALLOW_MODESET, then
    /// commits it (blocking: like drmModeSetCrtc it has no flip event; the caller flips next).
    func modeset(mode: drmModeModeInfo, framebuffer: UInt32, width: Int, height: Int,
                 connectorName: String, modeName: String) throws(DisplayError) {
        var mode = mode
        var blob: UInt32 = 0
        try DisplayError.check(.createBlob("mode \(modeName)"),
                               drmModeCreatePropertyBlob(fd, &mode, MemoryLayout<drmModeModeInfo>.size, &blob))
        let list = properties.modeset(modeBlob: blob, framebuffer: framebuffer, width: width, height: height)
        let allow = UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET)
        do throws(DisplayError) {
            try commit(list, flags: allow | UInt32(DRM_MODE_ATOMIC_TEST_ONLY), as: .atomicTest(connector: connectorName, mode: modeName))
            try commit(list, flags: allow, as: .atomicModeset(crtc: properties.crtcID))
        } catch {
            _ = drmModeDestroyPropertyBlob(fd, blob)
            throw error
        }
        // The CRTC state holds its own reference to the blob it uses, so the old one can go.
        if modeBlob != 0 { _ = drmModeDestroyPropertyBlob(fd, modeBlob) }
        modeBlob = blob
    }

    /// A nonblocking commit of `framebuffer` on the primary plane, answered by one page-flip
    /// event carrying `userData`; `damage` becomes an FB_DAMAGE_CLIPS blob when the plane has it.
    func flip(framebuffer: UInt32, damage: [DamageClip]?, width: Int, height: Int,
              userData: UnsafeMutableRawPointer) throws(DisplayError) {
        var damageBlob: UInt32?
        if properties.hasDamageClips, let damage {
            var rects = DamageClip.rects(damage, width: width, height: height).map {
                drm_mode_rect(x1: $0.0, y1: $0.1, x2: $0.2, y2: $0.3)
            }
            if !rects.isEmpty {
                var id: UInt32 = 0
                try DisplayError.check(.createBlob("damage clips"),
                                       drmModeCreatePropertyBlob(fd, &rects, MemoryLayout<drm_mode_rect>.stride * rects.count, &id))
                damageBlob = id
            }
        }
        // The commit copies the clips into the plane state, so the blob can go at once.
        defer { if let damageBlob { _ = drmModeDestroyPropertyBlob(fd, damageBlob) } }
        try commit(properties.flip(framebuffer: framebuffer, damageBlob: damageBlob),
                   flags: UInt32(DRM_MODE_ATOMIC_NONBLOCK) | UInt32(DRM_MODE_PAGE_FLIP_EVENT),
                   as: .atomicFlip(crtc: properties.crtcID), userData: userData)
    }

    /// Destroys our mode blob (after the restore, which no longer uses it).
    func release() {
        if modeBlob != 0 { _ = drmModeDestroyPropertyBlob(fd, modeBlob) }
        modeBlob = 0
    }

    func commit(_ list: [AtomicAssignment], flags: UInt32, as call: DisplayCall,
                        userData: UnsafeMutableRawPointer? = nil) throws(DisplayError) {
        guard let request = drmModeAtomicAlloc() else { throw DisplayError(call, code: ENOMEM) }
        defer { drmModeAtomicFree(request) }
        for a in list {
            try DisplayError.check(call, drmModeAtomicAddProperty(request, a.object, a.property, a.value))
        }
        try DisplayError.check(call, drmModeAtomicCommit(fd, request, flags, userData))
    }

    // MARK: Reading objects

    /// Every plane (universal planes: primary and cursor too) with its properties.
    private static func readPlanes(fd: Int32) throws(DisplayError) -> [PlaneInfo] {
        guard let res = drmModeGetPlaneResources(fd) else { throw DisplayError(.readObject("the plane list"), errno: .current) }
        defer { drmModeFreePlaneResources(res) }
        var planes: [PlaneInfo] = []
        for i in 0..<Int(res.pointee.count_planes) {
            let id = res.pointee.planes[i]
            guard let p = drmModeGetPlane(fd, id) else { throw DisplayError(.readObject("plane \(id)"), errno: .current) }
            let possible = p.pointee.possible_crtcs
            drmModeFreePlane(p)
            planes.append(PlaneInfo(id: id, possibleCRTCs: possible,
                                    properties: try readProperties(fd: fd, object: id, type: UInt32(DRM_MODE_OBJECT_PLANE),
                                                                   what: "plane \(id)")))
        }
        return planes
    }

    /// drmModeObjectGetProperties, each property's name from drmModeGetProperty.
    static func readProperties(fd: Int32, object: UInt32, type: UInt32, what: String) throws(DisplayError) -> PropertyTable {
        guard let props = drmModeObjectGetProperties(fd, object, type) else {
            throw DisplayError(.readObject("the properties of \(what)"), errno: .current)
        }
        defer { drmModeFreeObjectProperties(props) }
        var entries: [(name: String, id: UInt32, value: UInt64)] = []
        for i in 0..<Int(props.pointee.count_props) {
            let id = props.pointee.props[i]
            guard let p = drmModeGetProperty(fd, id) else { continue }
            entries.append((CardProbe.cString(&p.pointee.name), id, props.pointee.prop_values[i]))
            drmModeFreeProperty(p)
        }
        return PropertyTable(entries)
    }
}
