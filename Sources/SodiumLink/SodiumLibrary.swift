import CSodium
import LinuxSystem
import Synchronization

/// libsodium, opened (dlopen) the first time something needs it rather than linked, so a kiosk
/// that signs nothing and hashes nothing maps none of it. The one loader of the library: the
/// fleet's signatures and every SHA-256 in the package go through it.
package enum SodiumLibrary {
    /// nil once libsodium is loaded and initialised; else why not. A failure is not kept: the
    /// next use tries again (a library installed later is picked up).
    package static func load() -> String? {
        loaded.withLock { done -> String? in
            if done { return nil }
            if let error = SharedLibrary.load(DK_SODIUM_SONAME, with: dk_sodium_load) {
                return "cannot load \(DK_SODIUM_SONAME): \(error)"
            }
            if sodium_init() < 0 { return "sodium_init failed" }
            done = true
            return nil
        }
    }
    private static let loaded = Mutex(false)
}

/// libsodium could not be loaded: why, in words.
package struct SodiumUnavailable: Error, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// SHA-256 (FIPS 180-4) by libsodium's crypto_hash_sha256: the package's one.
package enum SHA256 {
    package static let digestBytes = 32

    /// crypto_hash_sha256 of `bytes`: the 32-byte digest.
    package static func digest(_ bytes: [UInt8]) throws(SodiumUnavailable) -> [UInt8] {
        if let reason = SodiumLibrary.load() { throw SodiumUnavailable(reason) }
        var digest = [UInt8](repeating: 0, count: digestBytes)
        _ = crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        return digest
    }

    /// The digest of `bytes` in lower-case hex, as files and event lines name it.
    package static func hex(_ bytes: [UInt8]) throws(SodiumUnavailable) -> String {
        try digest(bytes).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
