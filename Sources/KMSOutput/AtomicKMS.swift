import CDRM
import KioskSeams
import Glibc
import LinuxSystem

/// The atomic KMS interface: the modeset (tested with TEST_ONLY first), nonblocking flips with
/// a page-flip event, ACTIVE=0 for blanking, and the property blobs they need. The property
/// lists come from AtomicProperties; this type only talks to the kernel.
final class AtomicKMS: KMSInterface {
    let properties: AtomicProperties
    private let card: DRMCard
    /// The MODE_ID blob of our modeset, destroyed when replaced and after the restore.
    private var modeBlob: UInt32 = 0

    private init(card: DRMCard, properties: AtomicProperties) {
        self.card = card
        self.properties = properties
    }

    deinit { releaseBlob() }

    var api: KMSAPI { .atomic }
    var takesDamageClips: Bool { properties.hasDamageClips }

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
        -> Result<AtomicKMS, KMSAPI.Refusal> {
        do throws(DisplayError) {
            try enableCapabilities(on: card)
        } catch {
            return .failure(KMSAPI.Refusal(reason: error.description))
        }
        do throws(DisplayError) {
            let planes = try KMSObjects.planes(card: card)
            guard let plane = PlaneInfo.primary(among: planes, crtcIndex: crtcIndex, crtcID: crtcID) else {
                return .failure(KMSAPI.Refusal(reason: "no primary plane for CRTC \(crtcID)"))
            }
            let connector = try KMSObjects.properties(card: card, object: connectorID, type: UInt32(DRM_MODE_OBJECT_CONNECTOR),
                                                      what: "connector \(connectorID)")
            let crtc = try KMSObjects.properties(card: card, object: crtcID, type: UInt32(DRM_MODE_OBJECT_CRTC), what: "CRTC \(crtcID)")
            return AtomicProperties.resolve(connector: (connectorID, connector), crtc: (crtcID, crtc), plane: plane)
                .map { AtomicKMS(card: card, properties: $0) }
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

    // MARK: KMSInterface

    /// Creates the mode blob, checks the whole modeset with TEST_ONLY | ALLOW_MODESET, then
    /// commits it (blocking: like drmModeSetCrtc it has no flip event; the caller flips next).
    func modeset(_ framebuffer: UInt32, on route: CRTCRoute) throws(DisplayError) {
        var mode = route.rawMode
        var blob: UInt32 = 0
        try DisplayError.check(.createBlob("mode \(route.mode.summary)"),
                               drmModeCreatePropertyBlob(card.fd, &mode, MemoryLayout<drmModeModeInfo>.size, &blob))
        let list = properties.modeset(modeBlob: blob, framebuffer: framebuffer, width: route.mode.width, height: route.mode.height)
        let allow = UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET)
        do throws(DisplayError) {
            try commit(list, flags: allow | UInt32(DRM_MODE_ATOMIC_TEST_ONLY),
                       as: .atomicTest(connector: route.connector.name, mode: route.mode.summary))
            try commit(list, flags: allow, as: .atomicModeset(crtc: properties.crtcID))
        } catch {
            _ = drmModeDestroyPropertyBlob(card.fd, blob)
            throw error
        }
        // The CRTC state holds its own reference to the blob it uses, so the old one can go.
        releaseBlob()
        modeBlob = blob
    }

    /// A nonblocking commit of `framebuffer` on the primary plane, answered by one page-flip
    /// event carrying `userData`. The next frame sets FB_ID (and its damage blob when the plane
    /// takes FB_DAMAGE_CLIPS); onto the running mode the plane's CRTC and full-screen rectangles
    /// go along (plane properties: no ALLOW_MODESET), tested with TEST_ONLY first so a refusal
    /// costs nothing on screen.
    func flip(_ framebuffer: UInt32, on route: CRTCRoute, kind: FlipKind,
              userData: UnsafeMutableRawPointer) throws(DisplayError) {
        let flags = UInt32(DRM_MODE_ATOMIC_NONBLOCK) | UInt32(DRM_MODE_PAGE_FLIP_EVENT)
        let call = DisplayCall.atomicFlip(crtc: properties.crtcID)
        switch kind {
        case .ontoRunningMode:
            let list = properties.plane(framebuffer: framebuffer, width: route.mode.width, height: route.mode.height)
            // A page-flip event with TEST_ONLY is itself refused (EINVAL): the test goes without.
            try commit(list, flags: UInt32(DRM_MODE_ATOMIC_TEST_ONLY), as: call)
            try commit(list, flags: flags, as: call, userData: userData)
        case .next(let damage):
            let damageBlob = try damageBlob(damage, route: route)
            // The commit copies the clips into the plane state, so the blob can go at once.
            defer { if let damageBlob { _ = drmModeDestroyPropertyBlob(card.fd, damageBlob) } }
            try commit(properties.flip(framebuffer: framebuffer, damageBlob: damageBlob), flags: flags, as: call, userData: userData)
        }
    }

    /// Off: a blocking ALLOW_MODESET commit of the CRTC's ACTIVE=0 (AtomicProperties.powerOff).
    /// On: nothing here; the next present's modeset commit carries ACTIVE=1 with the mode.
    func setPower(on: Bool, route: CRTCRoute) throws(DisplayError) {
        if on { return }
        try commit(properties.powerOff(), flags: UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET), as: .power(crtc: properties.crtcID, on: false))
    }

    /// The saved CRTC back (SavedCrtc.putBack says why that is the legacy call), then our mode
    /// blob, which the restored state no longer uses.
    func restore(_ saved: SavedCrtc?, on route: CRTCRoute) {
        saved?.putBack(card: card, route: route)
        releaseBlob()
    }

    // MARK: Commits

    private func damageBlob(_ damage: [PixelRect]?, route: CRTCRoute) throws(DisplayError) -> UInt32? {
        guard properties.hasDamageClips, let damage else { return nil }
        var rects = DamageClips.cut(damage, width: route.mode.width, height: route.mode.height).map {
            drm_mode_rect(x1: Int32($0.x0), y1: Int32($0.y0), x2: Int32($0.x1), y2: Int32($0.y1))
        }
        if rects.isEmpty { return nil }
        var id: UInt32 = 0
        try DisplayError.check(.createBlob("damage clips"),
                               drmModeCreatePropertyBlob(card.fd, &rects, MemoryLayout<drm_mode_rect>.stride * rects.count, &id))
        return id
    }

    private func releaseBlob() {
        if modeBlob != 0 { _ = drmModeDestroyPropertyBlob(card.fd, modeBlob) }
        modeBlob = 0
    }

    private func commit(_ list: [AtomicAssignment], flags: UInt32, as call: DisplayCall,
                        userData: UnsafeMutableRawPointer? = nil) throws(DisplayError) {
        guard let request = drmModeAtomicAlloc() else { throw DisplayError(call, code: ENOMEM) }
        defer { drmModeAtomicFree(request) }
        for a in list {
            try DisplayError.check(call, drmModeAtomicAddProperty(request, a.object, a.property, a.value))
        }
        try DisplayError.check(call, drmModeAtomicCommit(card.fd, request, flags, userData))
    }
}
