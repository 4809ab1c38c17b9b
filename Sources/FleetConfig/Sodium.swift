import CSodium
import SodiumLink

/// Ed25519, BLAKE2b, scrypt and SHA-256 from libsodium (loaded by SodiumLink the first time a
/// fleet key is used, so a kiosk without a `fleet:` section maps none of it).
///
/// libsodium rather than OpenSSL: its Ed25519 is three calls on fixed-size buffers (no EVP
/// contexts, no key objects, no error queue to drain), it has one stable SONAME, and it pulls
/// in nothing else. OpenSSL is already mapped by libmosquitto with TLS, but not on every kiosk,
/// and its Ed25519 needs the EVP_PKEY machinery and an OpenSSL 3 ABI to pin.
package enum Sodium {
    package static let publicKeyBytes = 32
    package static let seedBytes = 32
    package static let secretKeyBytes = 64
    package static let signatureBytes = 64

    /// nil once libsodium is loaded and initialised; else why not. A failure is not kept: the
    /// next use tries again (a library installed later is picked up).
    private static var library: String? {
        SodiumLibrary.load().map { reason in
            reason.hasPrefix("cannot load")
                ? reason + " (signed fleet configurations and the lock's PIN are refused until it is installed; Debian: libsodium23)" : reason
        }
    }

    /// Loads libsodium, or throws why it could not.
    package static func load() throws(FleetError) {
        if let library { throw FleetError(library) }
    }

    /// `count` bytes from the kernel's random source (randombytes_buf): seeds, key ids, salts.
    package static func random(_ count: Int) throws(FleetError) -> [UInt8] {
        try load()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, count) }
        return bytes
    }

    /// crypto_sign_seed_keypair: the public key and 64-byte secret key of a 32-byte seed.
    package static func keyPair(seed: [UInt8]) throws(FleetError) -> (publicKey: [UInt8], secretKey: [UInt8]) {
        try load()
        guard seed.count == seedBytes else { throw FleetError("a signing key is \(seedBytes) bytes, got \(seed.count)") }
        var pk = [UInt8](repeating: 0, count: publicKeyBytes)
        var sk = [UInt8](repeating: 0, count: secretKeyBytes)
        let rc = crypto_sign_seed_keypair(&pk, &sk, seed)
        guard rc == 0 else { throw FleetError("crypto_sign_seed_keypair failed") }
        return (pk, sk)
    }

    /// crypto_sign_detached: the 64-byte signature of `message` by the 64-byte `secretKey`
    /// (seed then public key, as libsodium and minisign keep it).
    package static func sign(_ message: [UInt8], secretKey: [UInt8]) throws(FleetError) -> [UInt8] {
        try load()
        guard secretKey.count == secretKeyBytes else { throw FleetError("a secret key is \(secretKeyBytes) bytes, got \(secretKey.count)") }
        var signature = [UInt8](repeating: 0, count: signatureBytes)
        let rc = crypto_sign_detached(&signature, nil, message, UInt64(message.count), secretKey)
        guard rc == 0 else { throw FleetError("crypto_sign_detached failed") }
        return signature
    }

    /// crypto_generichash (BLAKE2b) without a key, `length` bytes (16 to 64): minisign's
    /// prehash (64) and its secret key checksum (32).
    package static func blake2b(_ bytes: [UInt8], length: Int) throws(FleetError) -> [UInt8] {
        try load()
        guard (16...64).contains(length) else { throw FleetError("a BLAKE2b digest is 16 to 64 bytes, not \(length)") }
        var digest = [UInt8](repeating: 0, count: length)
        guard crypto_generichash(&digest, length, bytes, UInt64(bytes.count), nil, 0) == 0 else {
            throw FleetError("crypto_generichash failed")
        }
        return digest
    }

    /// crypto_pwhash_scryptsalsa208sha256: `length` bytes derived from `password` and `salt`
    /// (32 bytes) at minisign's cost parameters (operations and memory limits, as its secret key
    /// file stores them). The high-level call rather than `_ll`: it turns the two limits into
    /// scrypt's N, r and p exactly as minisign's own call does.
    package static func scrypt(password: [UInt8], salt: [UInt8], opsLimit: UInt64, memLimit: UInt64, length: Int) throws(FleetError) -> [UInt8] {
        try load()
        guard salt.count == 32 else { throw FleetError("a scrypt salt is 32 bytes, got \(salt.count)") }
        var out = [UInt8](repeating: 0, count: length)
        var chars = password.map { CChar(bitPattern: $0) } + [0]
        defer { for i in chars.indices { chars[i] = 0 } }
        let rc = crypto_pwhash_scryptsalsa208sha256(&out, UInt64(length), chars, UInt64(password.count), salt, opsLimit, Int(memLimit))
        guard rc == 0 else { throw FleetError("scrypt failed (out of memory for a \(memLimit >> 20) MiB derivation?)") }
        return out
    }

    /// sodium_memzero: wipes a secret the compiler might otherwise keep.
    package static func wipe(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty, (try? load()) != nil else { return }
        bytes.withUnsafeMutableBytes { sodium_memzero($0.baseAddress!, $0.count) }
    }

    /// crypto_sign_verify_detached: whether `signature` is `publicKey`'s over `message`.
    /// Wrong lengths are false, never a read past a buffer.
    package static func verify(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) throws(FleetError) -> Bool {
        try load()
        guard signature.count == signatureBytes, publicKey.count == publicKeyBytes else { return false }
        return crypto_sign_verify_detached(signature, message, UInt64(message.count), publicKey) == 0
    }

    /// SodiumLink's SHA-256 in lower-case hex, with the fleet's words when libsodium is missing.
    package static func sha256Hex(_ bytes: [UInt8]) throws(FleetError) -> String {
        try load()
        do {
            return try SHA256.hex(bytes)
        } catch {
            throw FleetError(error.description)
        }
    }
}

/// Something about fleet keys, bundles or the state folder, in words.
package struct FleetError: Error, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
