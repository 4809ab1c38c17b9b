import CDRM
import Glibc

/// Choosing the KMS interface, once, when the card is opened.
extension KMSDisplay {
    /// AtomicKMS when `request` allows it and the card offers it, LegacyKMS otherwise; a forced
    /// `--kms-api atomic` that the card cannot honour throws, naming why.
    static func interface(card: DRMCard, crtcIDs: [UInt32], selection: OutputSelection,
                          request: KMSAPI.Request) throws(DisplayError) -> KMSInterface {
        if request == .legacy { return LegacyKMS(card: card) }
        let opened = AtomicKMS.open(card: card, connectorID: selection.connector.id, crtcID: selection.crtcID,
                                    crtcIndex: crtcIDs.firstIndex(of: selection.crtcID) ?? -1)
        let support: KMSAPI.Support
        switch opened {
        case .success: support = .available
        case .failure(let refusal): support = .unavailable(refusal.reason)
        }
        switch (KMSAPI.choose(request, support: support), opened) {
        case (.success(.atomic), .success(let atomic)): return atomic
        case (.success, _): return LegacyKMS(card: card)
        case (.failure(let refusal), _): throw DisplayError(.kmsAPI(refusal.reason), code: EOPNOTSUPP)
        }
    }

    /// list-outputs' line for `connector` on `card` (not master: the checks read and set client
    /// caps only): the API `request` would drive it with.
    public static func apiDescription(card: DRMCard, info: CardInfo, connectorID: UInt32, crtcID: UInt32,
                                      request: KMSAPI.Request) -> String {
        if request == .legacy { return KMSAPI.describe(.legacy, support: .unavailable(""), damageClips: false) }
        let (support, clips) = AtomicKMS.support(card: card, connectorID: connectorID, crtcID: crtcID,
                                                 crtcIndex: info.crtcIDs.firstIndex(of: crtcID) ?? -1)
        return KMSAPI.describe(request, support: support, damageClips: clips)
    }
}
