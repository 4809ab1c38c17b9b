import CSodium

/// The lock's PIN hash: Argon2id through libsodium's string form, which carries its own salt
/// and cost parameters (`$argon2id$v=19$m=65536,t=2,p=1$SALT$HASH`), so a file made by one
/// build is checked by any later one.
extension Sodium {
    /// libsodium's interactive limits (crypto_pwhash_OPSLIMIT_INTERACTIVE, _MEMLIMIT_INTERACTIVE:
    /// 2 passes over 64 MiB), a fraction of a second on a kiosk's ARM core. A PIN has few
    /// possible values, so the hash slows a stolen file's search rather than stopping it; what
    /// stops guessing on the glass is the back-off. The moderate limits' 256 MiB would be most of
    /// a small kiosk's memory for the length of a check.
    package static let passwordOpsLimit = UInt64(crypto_pwhash_argon2id_OPSLIMIT_INTERACTIVE)
    package static let passwordMemLimit = Int(crypto_pwhash_argon2id_MEMLIMIT_INTERACTIVE)
    /// The longest string crypto_pwhash_str writes, its NUL included.
    package static let passwordHashBytes = Int(crypto_pwhash_argon2id_STRBYTES)

    /// crypto_pwhash_str: `password`'s Argon2id hash string with a fresh random salt.
    package static func passwordHash(_ password: [UInt8], opsLimit: UInt64 = passwordOpsLimit,
                                    memLimit: Int = passwordMemLimit) throws(FleetError) -> String {
        try load()
        var out = [CChar](repeating: 0, count: passwordHashBytes)
        var chars = password.map { CChar(bitPattern: $0) } + [0]
        defer { wipe(&chars) }
        let rc = crypto_pwhash_str(&out, chars, UInt64(password.count), opsLimit, memLimit)
        guard rc == 0 else { throw FleetError("crypto_pwhash_str failed (out of memory for a \(memLimit >> 20) MiB hash?)") }
        let bytes = out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// crypto_pwhash_str_verify: whether `password` is the one `hash` was made of. A hash that is
    /// no Argon2 string, or too long, is false (libsodium reads at most its STRBYTES).
    package static func passwordMatches(_ password: [UInt8], hash: String) throws(FleetError) -> Bool {
        try load()
        let stored = Array(hash.utf8)
        guard !stored.isEmpty, stored.count < passwordHashBytes, !stored.contains(0) else { return false }
        let str = stored.map { CChar(bitPattern: $0) } + [CChar](repeating: 0, count: passwordHashBytes - stored.count)
        var chars = password.map { CChar(bitPattern: $0) } + [0]
        defer { wipe(&chars) }
        return crypto_pwhash_str_verify(str, chars, UInt64(password.count)) == 0
    }

    private static func wipe(_ chars: inout [CChar]) {
        chars.withUnsafeMutableBytes { if let base = $0.baseAddress, $0.count > 0 { sodium_memzero(base, $0.count) } }
    }
}
