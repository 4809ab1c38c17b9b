import CSodium
import LinuxSystem
import Synchronization

/// Ed25519 and SHA-256 from libsodium, opened (dlopen) the first time a fleet key is used
/// rather than linked, so a kiosk without a `fleet:` section maps none of it.
///
/// libsodium rather than OpenSSL: its Ed25519 is three calls on fixed-size buffers (no EVP
/// contexts, no key objects, no error queue to drain), it has one stable SONAME, and it pulls
/// in nothing else. OpenSSL is already mapped by libmosquitto with TLS, but not on every kiosk,
/// and its Ed25519 needs the EVP_PKEY machinery and an OpenSSL 3 ABI to pin.
public enum Sodium {
    public static let publicKeyBytes = 32
    public static let seedBytes = 32
    public static let secretKeyBytes = 64
    public static let signatureBytes = 64

    /// nil once libsodium is loaded and initialised; else why not. A failure is not kept: the
    /// next use tries again (a library installed later is picked up).
    private static var library: String? {
        loaded.withLock { done -> String? in
            if done { return nil }
            if let error = SharedLibrary.load(DK_SODIUM_SONAME, with: dk_sodium_load) {
                return "cannot load \(DK_SODIUM_SONAME): \(error) (signed fleet configurations are "
                    + "refused until it is installed; Debian: libsodium23)"
            }
            if sodium_init() < 0 { return "sodium_init failed" }
            done = true
            return nil
        }
    }
    private static let loaded = Mutex(false)

    /// Loads libsodium, or throws why it could not.
    public static func load() throws(FleetError) {
        if let library { throw FleetError(library) }
    }

    /// A new signing key's 32-byte seed, from the kernel's random source (randombytes_buf).
    public static func randomSeed() throws(FleetError) -> [UInt8] {
        try load()
        var seed = [UInt8](repeating: 0, count: seedBytes)
        seed.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, seedBytes) }
        return seed
    }

    /// crypto_sign_seed_keypair: the public key and 64-byte secret key of a 32-byte seed.
    public static func keyPair(seed: [UInt8]) throws(FleetError) -> (publicKey: [UInt8], secretKey: [UInt8]) {
        try load()
        guard seed.count == seedBytes else { throw FleetError("a signing key is \(seedBytes) bytes, got \(seed.count)") }
        var pk = [UInt8](repeating: 0, count: publicKeyBytes)
        var sk = [UInt8](repeating: 0, count: secretKeyBytes)
        let rc = crypto_sign_seed_keypair(&pk, &sk, seed)
        guard rc == 0 else { throw FleetError("crypto_sign_seed_keypair failed") }
        return (pk, sk)
    }

    /// crypto_sign_detached: the 64-byte signature of `message` by the key of `seed`.
    public static func sign(_ message: [UInt8], seed: [UInt8]) throws(FleetError) -> [UInt8] {
        var pair = try keyPair(seed: seed)
        defer { pair.secretKey.withUnsafeMutableBytes { sodium_memzero($0.baseAddress!, $0.count) } }
        var signature = [UInt8](repeating: 0, count: signatureBytes)
        let rc = crypto_sign_detached(&signature, nil, message, UInt64(message.count), pair.secretKey)
        guard rc == 0 else { throw FleetError("crypto_sign_detached failed") }
        return signature
    }

    /// crypto_sign_verify_detached: whether `signature` is `publicKey`'s over `message`.
    /// Wrong lengths are false, never a read past a buffer.
    public static func verify(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) throws(FleetError) -> Bool {
        try load()
        guard signature.count == signatureBytes, publicKey.count == publicKeyBytes else { return false }
        return crypto_sign_verify_detached(signature, message, UInt64(message.count), publicKey) == 0
    }

    /// crypto_hash_sha256, in lower-case hex.
    public static func sha256Hex(_ bytes: [UInt8]) throws(FleetError) -> String {
        try load()
        var digest = [UInt8](repeating: 0, count: 32)
        _ = crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        return digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}

/// Something about fleet keys, bundles or the state folder, in words.
public struct FleetError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
