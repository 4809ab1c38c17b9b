import SodiumLink

/// minisign's three text formats (its documented ones, so `minisign -S` and `minisign -V`
/// interoperate with the kiosk): a public key, a secret key and a signature. Each is an
/// `untrusted comment:` line and a line of base64 of a fixed binary layout; a signature adds a
/// `trusted comment:` line and the global signature over signature || trusted comment.
/// Decoding here is pure (no crypto); `MinisignSecretKey.open` and the signers use Sodium.
package enum Minisign {
    package static let untrustedPrefix = "untrusted comment: "
    package static let trustedPrefix = "trusted comment: "
    /// minisign's own bound on a trusted comment (its buffer, prefix and line end included).
    package static let trustedCommentMaxBytes = 8192
    /// An untrusted comment line's bound (minisign's COMMENTMAXBYTES).
    package static let untrustedCommentMaxBytes = 1024
    /// The scrypt cost minisign writes into every secret key it makes (libsodium's
    /// "sensitive" limits: 1 GiB of memory, a few seconds of one core).
    package static let opsLimit: UInt64 = 33_554_432
    package static let memLimit: UInt64 = 1_073_741_824
    /// The largest costs a secret key file may ask for: twice minisign's (a key file asking for
    /// more is refused rather than allowed to take the machine's memory).
    package static let maxOpsLimit: UInt64 = 2 * opsLimit
    package static let maxMemLimit: UInt64 = 2 * memLimit

    static let ed: [UInt8] = Array("Ed".utf8)
    static let edHashed: [UInt8] = Array("ED".utf8)
    static let scrypt: [UInt8] = Array("Sc".utf8)
    static let blake2: [UInt8] = Array("B2".utf8)

    /// A key id as minisign prints it: its 8 bytes as a little-endian number, in upper-case hex.
    package static func keyIDText(_ id: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in id.reversed() { out += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }

    /// The text of one line with minisign's trim (line ends and trailing CR dropped).
    static func trimmed(_ line: Substring) -> Substring {
        var line = line
        while let c = line.last, c == "\r" || c == "\n" { line = line.dropLast() }
        return line
    }
}

/// A public key: "Ed", the key id (8 bytes), the Ed25519 key (32). Its file is
/// `untrusted comment: minisign public key <ID>` then `RW...` (base64 of the 42 bytes).
package struct MinisignPublicKey: Sendable, Equatable {
    package var keyID: [UInt8]
    package var key: [UInt8]
    package static let encodedBytes = 42

    package init(keyID: [UInt8], key: [UInt8]) {
        self.keyID = keyID
        self.key = key
    }

    package var keyIDText: String { Minisign.keyIDText(keyID) }

    /// The key line (`RW...`), what `minisign -P` takes.
    package var line: String { Base64.encode(Minisign.ed + keyID + key) }

    /// The file minisign writes.
    package var fileText: String { "\(Minisign.untrustedPrefix)minisign public key \(keyIDText)\n\(line)\n" }

    /// The key in one base64 line, or what is wrong with it.
    package static func decode(_ line: Substring) -> Result<MinisignPublicKey, FleetError> {
        guard let bytes = Base64.decode(Minisign.trimmed(line)) else {
            return .failure(FleetError("not base64 of a minisign public key (RW...; cut short or damaged?)"))
        }
        guard bytes.count == encodedBytes else {
            return .failure(FleetError("a minisign public key is \(encodedBytes) bytes, this one is \(bytes.count) (truncated?)"))
        }
        guard Array(bytes[0..<2]) == Minisign.ed else { return .failure(FleetError("not an Ed25519 key (its algorithm is not 'Ed')")) }
        return .success(MinisignPublicKey(keyID: Array(bytes[2..<10]), key: Array(bytes[10..<42])))
    }
}

/// A secret key as its file holds it (158 bytes): "Ed", the KDF ("Sc" for scrypt, two zero
/// bytes for none), the checksum function "B2", the scrypt salt (32), its operations and memory
/// limits (8 each, little-endian), then key id (8) || secret key (64) || checksum (32), that
/// last part XORed with scrypt's output when encrypted. The checksum is BLAKE2b-256 of
/// "Ed" || key id || secret key: a wrong password shows as a checksum that does not match.
package struct MinisignSecretKeyFile: Sendable, Equatable {
    package var raw: [UInt8]
    package static let encodedBytes = 158

    package var isEncrypted: Bool { Array(raw[2..<4]) == Minisign.scrypt }
    var salt: [UInt8] { Array(raw[6..<38]) }
    var opsLimit: UInt64 { Self.le64(raw[38..<46]) }
    var memLimit: UInt64 { Self.le64(raw[46..<54]) }

    /// The key file's text decoded, or what is wrong with it (`file:line: ...`).
    package static func parse(_ text: String, file: String) -> Result<MinisignSecretKeyFile, FleetError> {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[0].hasPrefix(Minisign.untrustedPrefix) else {
            return .failure(FleetError("\(file):1: not a minisign secret key (expected '\(Minisign.untrustedPrefix)...', then the key)"))
        }
        let line = Minisign.trimmed(lines[1])
        guard !line.isEmpty else { return .failure(FleetError("\(file):2: the key line is missing (truncated?)")) }
        guard let raw = Base64.decode(line) else {
            return .failure(FleetError("\(file):2: not base64 of a minisign secret key (cut short or damaged?)"))
        }
        guard raw.count == encodedBytes else {
            return .failure(FleetError("\(file):2: a minisign secret key is \(encodedBytes) bytes, this one is \(raw.count) (truncated?)"))
        }
        guard Array(raw[0..<2]) == Minisign.ed else { return .failure(FleetError("\(file):2: not an Ed25519 key (its algorithm is not 'Ed')")) }
        let kdf = Array(raw[2..<4])
        guard kdf == Minisign.scrypt || kdf == [0, 0] else {
            return .failure(FleetError("\(file):2: unknown key derivation (neither scrypt 'Sc' nor none)"))
        }
        guard Array(raw[4..<6]) == Minisign.blake2 else { return .failure(FleetError("\(file):2: unknown checksum (not BLAKE2b 'B2')")) }
        let key = MinisignSecretKeyFile(raw: raw)
        if key.isEncrypted && (key.opsLimit > Minisign.maxOpsLimit || key.memLimit > Minisign.maxMemLimit) {
            return .failure(FleetError("\(file):2: asks for scrypt with \(key.memLimit >> 20) MiB and \(key.opsLimit) operations, "
                                       + "more than twice minisign's (\(Minisign.memLimit >> 20) MiB); refused"))
        }
        return .success(key)
    }

    /// The secret key, decrypted with `password` when the file is encrypted (ignored when not).
    package func open(password: [UInt8], file: String) throws(FleetError) -> MinisignSecretKey {
        var part = Array(raw[54..<158])
        if isEncrypted {
            var stream = try Sodium.scrypt(password: password, salt: salt, opsLimit: opsLimit, memLimit: memLimit, length: part.count)
            for i in part.indices { part[i] ^= stream[i] }
            Sodium.wipe(&stream)
        }
        let key = MinisignSecretKey(keyID: Array(part[0..<8]), secretKey: Array(part[8..<72]))
        let checksum = Array(part[72..<104])
        defer { Sodium.wipe(&part) }
        if isEncrypted || checksum != [UInt8](repeating: 0, count: 32) {
            // minisign leaves the checksum of a key without a password zero.
            guard try key.checksum() == checksum else {
                throw FleetError(isEncrypted ? "\(file): wrong password for this key (its checksum does not match)"
                                             : "\(file): damaged key (its checksum does not match)")
            }
        }
        // The secret key's second half is its public key: a damaged seed shows here.
        guard try Sodium.keyPair(seed: Array(key.secretKey[0..<32])).publicKey == Array(key.secretKey[32..<64]) else {
            throw FleetError("\(file): damaged key (its two halves do not belong together)")
        }
        return key
    }

    static func le64(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func le64Bytes(_ n: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: n >> (8 * UInt64($0))) } }
}

/// A secret key in the clear: its id and libsodium's 64 bytes (seed || public key).
package struct MinisignSecretKey: Sendable {
    package var keyID: [UInt8]
    package var secretKey: [UInt8]

    package init(keyID: [UInt8], secretKey: [UInt8]) {
        self.keyID = keyID
        self.secretKey = secretKey
    }

    /// A new key pair: a random seed and key id (randombytes_buf).
    package static func generate() throws(FleetError) -> MinisignSecretKey {
        var seed = try Sodium.random(Sodium.seedBytes)
        defer { Sodium.wipe(&seed) }
        return MinisignSecretKey(keyID: try Sodium.random(8), secretKey: try Sodium.keyPair(seed: seed).secretKey)
    }

    /// The key pair of a known 32-byte seed and key id (tests, and keys kept elsewhere).
    package init(seed: [UInt8], keyID: [UInt8]) throws(FleetError) {
        guard keyID.count == 8 else { throw FleetError("a key id is 8 bytes, got \(keyID.count)") }
        self.init(keyID: keyID, secretKey: try Sodium.keyPair(seed: seed).secretKey)
    }

    package var publicKey: MinisignPublicKey { MinisignPublicKey(keyID: keyID, key: Array(secretKey[32..<64])) }

    func checksum() throws(FleetError) -> [UInt8] { try Sodium.blake2b(Minisign.ed + keyID + secretKey, length: 32) }

    /// The key file's text: encrypted with scrypt at the given cost when `password` is given
    /// (minisign's defaults unless a test asks for less), else minisign's unencrypted form
    /// (`minisign -G -W`; the checksum is written all the same).
    package func fileText(password: [UInt8]?, opsLimit: UInt64 = Minisign.opsLimit, memLimit: UInt64 = Minisign.memLimit)
        throws(FleetError) -> String {
        var part = keyID + secretKey + (try checksum())
        defer { Sodium.wipe(&part) }
        var header = Minisign.ed
        if let password {
            let salt = try Sodium.random(32)
            var stream = try Sodium.scrypt(password: password, salt: salt, opsLimit: opsLimit, memLimit: memLimit, length: part.count)
            for i in part.indices { part[i] ^= stream[i] }
            Sodium.wipe(&stream)
            header += Minisign.scrypt + Minisign.blake2 + salt + MinisignSecretKeyFile.le64Bytes(opsLimit) + MinisignSecretKeyFile.le64Bytes(memLimit)
        } else {
            header += [0, 0] + Minisign.blake2 + [UInt8](repeating: 0, count: 48)
        }
        return "\(Minisign.untrustedPrefix)minisign encrypted secret key\n" + Base64.encode(header + part) + "\n"
    }

    /// minisign's signature of `message`: prehashed (BLAKE2b-512, "ED", minisign's default)
    /// and the global signature over the signature and `trustedComment`.
    package func sign(_ message: [UInt8], trustedComment: String, untrustedComment: String = "signature from minisign secret key")
        throws(FleetError) -> MinisignSignature {
        let signature = try Sodium.sign(try Sodium.blake2b(message, length: 64), secretKey: secretKey)
        let global = try Sodium.sign(signature + Array(trustedComment.utf8), secretKey: secretKey)
        return MinisignSignature(prehashed: true, keyID: keyID, signature: signature, untrustedComment: untrustedComment,
                                 trustedComment: trustedComment, globalSignature: global)
    }
}

/// A signature file (`.minisig`): four lines.
/// ```
/// untrusted comment: <anything>
/// base64 of "ED" (or "Ed": the message itself signed, not its BLAKE2b-512) || key id || signature
/// trusted comment: <text the global signature covers>
/// base64 of the global signature over signature || trusted comment
/// ```
package struct MinisignSignature: Sendable, Equatable {
    package var prehashed: Bool
    package var keyID: [UInt8]
    package var signature: [UInt8]
    package var untrustedComment: String
    package var trustedComment: String
    package var globalSignature: [UInt8]

    package var keyIDText: String { Minisign.keyIDText(keyID) }

    /// The four lines, as minisign writes them.
    package var text: String {
        Minisign.untrustedPrefix + untrustedComment + "\n"
            + Base64.encode((prehashed ? Minisign.edHashed : Minisign.ed) + keyID + signature) + "\n"
            + Minisign.trustedPrefix + trustedComment + "\n" + Base64.encode(globalSignature) + "\n"
    }

    /// The signature in four lines (without their line ends), or what is wrong (`line N: ...`).
    package static func parse(_ lines: [Substring]) -> Result<MinisignSignature, FleetError> {
        guard lines.count == 4 else { return .failure(FleetError("a signature is 4 lines, got \(lines.count)")) }
        let untrusted = Minisign.trimmed(lines[0]), trusted = Minisign.trimmed(lines[2])
        guard untrusted.hasPrefix(Minisign.untrustedPrefix) else { return .failure(FleetError("line 1: expected '\(Minisign.untrustedPrefix)...'")) }
        guard let sig = Base64.decode(Minisign.trimmed(lines[1])), sig.count == 74 else {
            return .failure(FleetError("line 2: expected base64 of a minisign signature (74 bytes)"))
        }
        let algorithm = Array(sig[0..<2])
        guard algorithm == Minisign.ed || algorithm == Minisign.edHashed else {
            return .failure(FleetError("line 2: unknown signature algorithm (neither 'Ed' nor 'ED')"))
        }
        guard trusted.hasPrefix(Minisign.trustedPrefix) else { return .failure(FleetError("line 3: expected '\(Minisign.trustedPrefix)...'")) }
        guard let global = Base64.decode(Minisign.trimmed(lines[3])), global.count == Sodium.signatureBytes else {
            return .failure(FleetError("line 4: expected base64 of the global signature (\(Sodium.signatureBytes) bytes)"))
        }
        return .success(MinisignSignature(prehashed: algorithm == Minisign.edHashed, keyID: Array(sig[2..<10]),
                                          signature: Array(sig[10..<74]),
                                          untrustedComment: String(untrusted.dropFirst(Minisign.untrustedPrefix.count)),
                                          trustedComment: String(trusted.dropFirst(Minisign.trustedPrefix.count)),
                                          globalSignature: global))
    }
}
