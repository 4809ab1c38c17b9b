import SodiumLink
import Testing
@testable import FleetConfig

/// minisign's secret key file: encrypted with scrypt (a small cost here; the real minisign's
/// files are read in tests/fleet/minisign.py), its checksum telling a wrong password.
@Suite struct SecretKeyTests {
    let password = Array("correct horse".utf8)

    func file(_ key: MinisignSecretKey, password: [UInt8]?) throws -> String {
        try key.fileText(password: password, opsLimit: 32768, memLimit: 8 << 20)
    }

    @Test func anEncryptedKeyOpensWithItsPasswordOnly() throws {
        let text = try file(testKey, password: password)
        #expect(text.hasPrefix("untrusted comment: minisign encrypted secret key\nRWRTY0Iy"))  // "EdScB2"
        let parsed = try MinisignSecretKeyFile.parse(text, file: "fleet.key").get()
        #expect(parsed.isEncrypted)
        let opened = try parsed.open(password: password, file: "fleet.key")
        #expect(opened.keyID == testKey.keyID && opened.secretKey == testKey.secretKey)
        #expect(throws: FleetError("fleet.key: wrong password for this key (its checksum does not match)")) {
            try parsed.open(password: Array("correct horse.".utf8), file: "fleet.key")
        }
    }

    @Test func anUnencryptedKeyOpensWithoutOne() throws {
        let text = try file(testKey, password: nil)
        #expect(text.contains("\nRWQAAEIy"))  // "Ed", no KDF, "B2", as minisign -W writes it
        let opened = try MinisignSecretKeyFile.parse(text, file: "k").get().open(password: [], file: "k")
        #expect(opened.secretKey == testKey.secretKey)
    }

    @Test func aTruncatedOrDamagedKeyIsNamed() throws {
        let text = try file(testKey, password: password)
        let lines = text.split(separator: "\n")
        let cut = String(lines[0]) + "\n" + String(lines[1].prefix(120)) + "\n"
        #expect(MinisignSecretKeyFile.parse(cut, file: "fleet.key")
                == .failure(FleetError("fleet.key:2: a minisign secret key is 158 bytes, this one is 90 (truncated?)")))
        #expect(MinisignSecretKeyFile.parse(String(lines[0]) + "\n", file: "fleet.key")
                == .failure(FleetError("fleet.key:2: the key line is missing (truncated?)")))
        #expect(MinisignSecretKeyFile.parse(String(lines[0]) + "\n" + String(lines[1].prefix(121)) + "\n", file: "fleet.key")
                == .failure(FleetError("fleet.key:2: not base64 of a minisign secret key (cut short or damaged?)")))
        #expect(MinisignSecretKeyFile.parse(String(lines[1]), file: "fleet.key")
                == .failure(FleetError("fleet.key:1: not a minisign secret key (expected 'untrusted comment: ...', then the key)")))
        // A flipped bit in the encrypted part: the checksum no longer matches.
        var raw = Base64.decode(lines[1])!
        raw[100] ^= 1
        let flipped = try MinisignSecretKeyFile.parse(String(lines[0]) + "\n" + Base64.encode(raw) + "\n", file: "k").get()
        #expect(throws: FleetError.self) { try flipped.open(password: password, file: "k") }
    }

    @Test func aKeyAskingForTooMuchMemoryIsRefusedBeforeScrypt() throws {
        let text = try testKey.fileText(password: password, opsLimit: 32768, memLimit: 8 << 20)
        let lines = text.split(separator: "\n")
        var raw = Base64.decode(lines[1])!
        raw[46..<54] = ArraySlice(MinisignSecretKeyFile.le64Bytes(64 << 30))
        let greedy = MinisignSecretKeyFile.parse(String(lines[0]) + "\n" + Base64.encode(raw) + "\n", file: "k")
        guard case .failure(let error) = greedy else { Issue.record("a 64 GiB scrypt was accepted"); return }
        #expect(error.description.contains("65536 MiB"))
    }
}
