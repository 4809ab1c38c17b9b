/// Why a bundle was not taken, as the kiosk reports it (`config/state`'s `reason`, the
/// `config` event line, `config verify`'s message).
package enum FleetRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// Zero bytes.
    case empty
    /// Larger than `ConfigBundle.maxBytes`; refused before any decoding.
    case tooLarge(bytes: Int, limit: Int)
    /// Not a bundle: the line or field that is wrong.
    case malformed(String)
    /// Signed by a key id that is none of the trusted keys' (`trusted`: theirs).
    case unknownKey(signedBy: String, trusted: [String])
    /// The signature of the text does not verify with the trusted key of its id: the text
    /// was changed after signing (or the signature was).
    case signature(keyID: String)
    /// The global signature does not verify: the trusted comment (serial, targets) was edited
    /// after signing.
    case trustedComment(keyID: String)
    /// The serial is not above every serial taken before (a replay, or an old bundle).
    case replay(serial: UInt64, highest: UInt64)
    /// The bundle names client ids and this kiosk is not one of them.
    case notForThisKiosk(clientID: String)
    /// A section a pushed configuration may not carry (it stays in the local file).
    case section(String)
    /// An item command while `allow_commands` is false.
    case commands(item: String)
    /// The configuration's own problem, located as `check-config` words it.
    case invalid(String)
    /// Its icons, fonts or painter could not be built.
    case build(String)
    /// An icon blob it names came with other bytes than its SHA-256 says (`expected`, `got`).
    case blobHash(expected: String, got: String)
    /// An icon blob over `ConfigBundle.maxBlobBytes`, never copied.
    case blobTooLarge(sha256: String, bytes: Int)
    /// Icon blobs it names did not come within the wait (`fleet.blob_wait_seconds`).
    case blobsMissing([String], seconds: Double)
    /// It was built and swapped in, but painting its first frame failed.
    case firstFrame(String)

    package var description: String {
        switch self {
        case .empty: return "empty bundle (0 bytes)"
        case .tooLarge(let bytes, let limit): return "bundle of \(bytes) bytes, larger than \(limit)"
        case .malformed(let why): return "not a bundle: \(why)"
        case .unknownKey(let id, let trusted):
            return "signed by key id \(id), which is not a trusted key (trusted: \(trusted.isEmpty ? "none" : trusted.joined(separator: ", ")))"
        case .signature(let id): return "signature does not verify with trusted key \(id) (the configuration was changed after signing?)"
        case .trustedComment(let id):
            return "trusted comment does not verify with key \(id) (serial or targets edited after signing?)"
        case .replay(let serial, let highest): return "serial \(serial) is not above \(highest), the highest taken (replay or old bundle)"
        case .notForThisKiosk(let id): return "bundle targets other kiosks, not \(id)"
        case .section(let name): return "section '\(name)' may not be pushed (it stays in the local file)"
        case .commands(let item): return "item '\(item)' has a command and fleet.allow_commands is false"
        case .invalid(let located): return located
        case .build(let why): return "cannot build: \(why)"
        case .blobHash(let expected, let got):
            return "blob sha256:\(expected) came with other bytes (their SHA-256 is \(got))"
        case .blobTooLarge(let hex, let bytes):
            return "blob sha256:\(hex) of \(bytes) bytes is larger than \(ConfigBundle.maxBlobBytes)"
        case .blobsMissing(let hexes, let seconds):
            let seconds = seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
            return "blob " + hexes.map { "sha256:" + $0 }.joined(separator: ", ") + " did not come within \(seconds) s"
                + " (publish each icon retained on <topic>/blob/<sha256>)"
        case .firstFrame(let why): return "its first frame failed: \(why)"
        }
    }
}
