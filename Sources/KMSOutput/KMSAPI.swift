/// Which kernel interface drives the output: atomic commits or the legacy SetCrtc/PageFlip calls.
public enum KMSAPI: String, Sendable, Equatable {
    case atomic, legacy

    /// `--kms-api`: what the command line asks for.
    public enum Request: String, Sendable, Equatable, CaseIterable {
        case auto, atomic, legacy
    }

    /// What the card offers for atomic modesetting, as found by `AtomicKMS.support`.
    public enum Support: Sendable, Equatable {
        /// DRM_CLIENT_CAP_ATOMIC was accepted and the CRTC has a primary plane with every property
        /// a commit needs.
        case available
        /// Why not: the refused capability, a missing plane or property (a sentence fragment).
        case unavailable(String)
    }

    /// Why a forced `--kms-api atomic` cannot be honoured.
    public struct Refusal: Error, Sendable, Equatable {
        public var reason: String
    }

    /// The API to use: `auto` takes atomic where available and legacy otherwise; `atomic` needs
    /// it; `legacy` never looks. Every driver still offers the legacy calls, so legacy never fails.
    public static func choose(_ request: Request, support: Support) -> Result<KMSAPI, Refusal> {
        switch (request, support) {
        case (.legacy, _): return .success(.legacy)
        case (_, .available): return .success(.atomic)
        case (.auto, .unavailable): return .success(.legacy)
        case (.atomic, .unavailable(let why)): return .failure(Refusal(reason: why))
        }
    }

    /// list-outputs' words for what `request` would use: "atomic, FB_DAMAGE_CLIPS",
    /// "legacy (atomic: no primary plane for CRTC 33)", "legacy (--kms-api legacy)".
    public static func describe(_ request: Request, support: Support, damageClips: Bool) -> String {
        switch (choose(request, support: support), support) {
        case (.success(.atomic), _): return damageClips ? "atomic, FB_DAMAGE_CLIPS" : "atomic"
        case (.success, _) where request == .legacy: return "legacy (--kms-api legacy)"
        case (.success, .unavailable(let why)): return "legacy (atomic: \(why))"
        case (.success, .available): return "legacy"
        case (.failure(let refusal), _): return "none (--kms-api atomic: \(refusal.reason))"
        }
    }
}
