import CDRM
import Glibc

/// The atomic half of KMSDisplay: choosing the API, the modeset and the flip commits. Kept apart
/// from the legacy path so each reads on its own.
extension KMSDisplay {
    /// The API this display drives its output with.
    public var api: KMSAPI { atomic == nil ? .legacy : .atomic }

    /// True when the primary plane takes FB_DAMAGE_CLIPS (atomic only).
    public var takesDamageClips: Bool { atomic?.properties.hasDamageClips ?? false }

    /// The atomic output for `request`, or nil for legacy; a forced `--kms-api atomic` that the
    /// card cannot honour throws, naming why.
    static func atomicOutput(card: DRMCard, crtcIDs: [UInt32], selection: OutputSelection,
                             request: KMSAPI.Request) throws(DisplayError) -> AtomicOutput? {
        if request == .legacy { return nil }
        let opened = AtomicOutput.open(card: card, connectorID: selection.connector.id, crtcID: selection.crtcID,
                                       crtcIndex: crtcIDs.firstIndex(of: selection.crtcID) ?? -1)
        let support: KMSAPI.Support
        switch opened {
        case .success: support = .available
        case .failure(let refusal): support = .unavailable(refusal.reason)
        }
        switch KMSAPI.choose(request, support: support) {
        case .success(.atomic): return try? opened.get()
        case .success: return nil
        case .failure(let refusal): throw DisplayError(.kmsAPI(refusal.reason), code: EOPNOTSUPP)
        }
    }

    /// list-outputs' line for `connector` on `card` (not master: the checks read and set client
    /// caps only): the API `request` would drive it with.
    public static func apiDescription(card: DRMCard, info: CardInfo, connectorID: UInt32, crtcID: UInt32,
                                      request: KMSAPI.Request) -> String {
        if request == .legacy { return KMSAPI.describe(.legacy, support: .unavailable(""), damageClips: false) }
        let (support, clips) = AtomicOutput.support(card: card, connectorID: connectorID, crtcID: crtcID,
                                                    crtcIndex: info.crtcIDs.firstIndex(of: crtcID) ?? -1)
        return KMSAPI.describe(request, support: support, damageClips: clips)
    }

    /// The first frame's modeset as one atomic commit, tested first.
    func atomicModeset(_ atomic: AtomicOutput, framebuffer: UInt32, mode: drmModeModeInfo) throws(DisplayError) {
        try atomic.modeset(mode: mode, framebuffer: framebuffer, width: selection.mode.width, height: selection.mode.height,
                           connectorName: selection.connector.name, modeName: selection.mode.summary)
    }

    /// A nonblocking flip commit; its event reaches the same handler as a legacy flip's.
    func atomicFlip(_ atomic: AtomicOutput, framebuffer: UInt32, damage: [DamageClip]?) throws(DisplayError) {
        try atomic.flip(framebuffer: framebuffer, damage: damage, width: selection.mode.width, height: selection.mode.height,
                        userData: Unmanaged.passUnretained(sink).toOpaque())
    }
}
