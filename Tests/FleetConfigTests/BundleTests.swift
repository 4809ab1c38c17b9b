import Glibc
import KioskConfiguration
import SodiumLink
import Testing
@testable import FleetConfig

/// Key pairs made from fixed seeds and ids, so failures repeat.
let testKey = try! MinisignSecretKey(seed: [UInt8](repeating: 7, count: 32), keyID: [1, 2, 3, 4, 5, 6, 7, 8])
let otherKey = try! MinisignSecretKey(seed: [UInt8](repeating: 9, count: 32), keyID: [9, 9, 9, 9, 9, 9, 9, 9])

func signed(_ text: String, serial: UInt64, targets: [String] = [], key: MinisignSecretKey = testKey) throws -> [UInt8] {
    try ConfigBundle.signed(Array(text.utf8), serial: serial, targets: targets, key: key).encoded
}

func publicKey(_ key: MinisignSecretKey = testKey) -> MinisignPublicKey { key.publicKey }

let menuText = "items:\n  - id: coffee\n    label: Coffee\n    color: \"#884400\"\n  - id: tea\n    label: Tea\n"

@Suite struct BundleTests {
    @Test func signedBundleRoundTripsAndVerifies() throws {
        let bytes = try signed(menuText, serial: 3, targets: ["kiosk-a", "kiosk-b"])
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("untrusted comment: signature from minisign secret key\nRUQ"))
        #expect(text.contains("\ntrusted comment: dialkiosk-bundle serial:3 target:kiosk-a target:kiosk-b\n"))
        #expect(text.hasSuffix("\n" + menuText))
        let bundle = try FleetAcceptance.verify(bytes, trustedKeys: [publicKey(otherKey), publicKey()]).get()
        #expect(bundle.serial == 3)
        #expect(bundle.targets == ["kiosk-a", "kiosk-b"])
        #expect(bundle.signature.prehashed)
        #expect(String(decoding: bundle.config, as: UTF8.self) == menuText)
    }

    @Test func unhashedSignaturesVerifyToo() throws {
        // minisign -l (legacy): "Ed", the text itself signed.
        var bundle = try ConfigBundle.signed(Array(menuText.utf8), serial: 2, targets: [], key: testKey)
        bundle.signature.prehashed = false
        bundle.signature.signature = try Sodium.sign(bundle.config, secretKey: testKey.secretKey)
        bundle.signature.globalSignature = try Sodium.sign(bundle.signature.signature + Array(bundle.signature.trustedComment.utf8),
                                                           secretKey: testKey.secretKey)
        #expect(String(decoding: bundle.encoded, as: UTF8.self).split(separator: "\n")[1].hasPrefix("RWQ"))
        #expect(try FleetAcceptance.verify(bundle.encoded, trustedKeys: [publicKey()]).get().serial == 2)
    }

    @Test func eachTamperingIsNamed() throws {
        let bytes = try signed(menuText, serial: 3)
        let key = publicKey()
        // Another key's id.
        #expect(FleetAcceptance.verify(bytes, trustedKeys: [publicKey(otherKey)])
                == .failure(.unknownKey(signedBy: "0807060504030201", trusted: ["0909090909090909"])))
        // The text changed, length kept.
        var changed = bytes
        let at = changed.lastIndex(of: UInt8(ascii: "C"))!
        changed[at] = UInt8(ascii: "K")
        #expect(FleetAcceptance.verify(changed, trustedKeys: [key]) == .failure(.signature(keyID: "0807060504030201")))
        // The serial in the trusted comment edited after signing.
        let replayed = Array(String(decoding: bytes, as: UTF8.self).replacingFirst("serial:3", "serial:4").utf8)
        #expect(FleetAcceptance.verify(replayed, trustedKeys: [key]) == .failure(.trustedComment(keyID: "0807060504030201")))
        // A target added after signing.
        let retargeted = Array(String(decoding: bytes, as: UTF8.self).replacingFirst("serial:3", "serial:3 target:x").utf8)
        #expect(FleetAcceptance.verify(retargeted, trustedKeys: [key]) == .failure(.trustedComment(keyID: "0807060504030201")))
        #expect(FleetRefusal.trustedComment(keyID: "0807060504030201").description.contains("edited after signing"))
    }

    @Test func badInputIsRefusedWithItsReason() throws {
        let key = publicKey()
        #expect(ConfigBundle.parse([]) == .failure(.empty))
        let huge = [UInt8](repeating: 0x41, count: 10 << 20)
        #expect(ConfigBundle.parse(huge) == .failure(.tooLarge(bytes: 10 << 20, limit: ConfigBundle.maxBytes)))
        var random = [UInt8](repeating: 0, count: 4096)
        for i in random.indices { random[i] = UInt8.random(in: 0...255) }
        guard case .failure(.malformed) = FleetAcceptance.verify(random, trustedKeys: [key]) else { Issue.record("random bytes passed"); return }
        // A torn bundle: every prefix is refused, never taken.
        let bytes = try signed(menuText, serial: 5)
        for cut in stride(from: 0, to: bytes.count - 1, by: 7) {
            #expect(throws: FleetRefusal.self) { try FleetAcceptance.verify(Array(bytes.prefix(cut)), trustedKeys: [key]).get() }
        }
        // Leading zeros, a sign, no serial, a stray word, a short signature, a lost line.
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for bad in [text.replacingFirst("serial:5", "serial:05"), text.replacingFirst("serial:5", "serial:+5"),
                    text.replacingFirst("serial:5", "serial:0"), text.replacingFirst(" serial:5", ""),
                    text.replacingFirst("serial:5", "serial:5 timestamp:1"), text.replacingFirst("serial:5", "serial:5  target:a"),
                    text.replacingFirst(String(lines[1]), "RUQAAAA"), text.replacingFirst(String(lines[3]) + "\n", "")] {
            guard case .failure(.malformed) = ConfigBundle.parse(Array(bad.utf8)) else { Issue.record("passed: \(bad.prefix(300))"); continue }
        }
    }

    @Test func publicKeyFilesAreMinisigns() throws {
        let key = publicKey()
        #expect(key.fileText == "untrusted comment: minisign public key 0807060504030201\n" + key.line + "\n")
        #expect(key.line.hasPrefix("RW"))
        #expect(try FleetKeys.parse("# fleet key\n\n" + key.fileText + publicKey(otherKey).fileText, file: "fleet.pub").get()
                == [key, publicKey(otherKey)])
        let short = FleetKeys.parse(String(key.line.prefix(40)), file: "fleet.pub")
        #expect(short == .failure(FleetError("fleet.pub:1: a minisign public key is 42 bytes, this one is 30 (truncated?)")))
        #expect(FleetKeys.parse("untrusted comment: x\n", file: "k")
                == .failure(FleetError("k: no key in it (a minisign public key file: a comment line, then RW...)")))
        #expect(FleetKeys.parse("not base64!\n", file: "k") == .failure(FleetError("k:1: not base64 of a minisign public key (RW...; cut short or damaged?)")))
        // A raw 32-byte key of the old format is not a minisign key.
        #expect(FleetKeys.parse(Base64.encode(key.key) + "\n", file: "k") == .failure(FleetError("k:1: a minisign public key is 42 bytes, this one is 32 (truncated?)")))
    }

    @Test func sha256AndBlake2bOfAbc() throws {
        #expect(try Sodium.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // RFC 7693's appendix A: BLAKE2b-512("abc").
        #expect(try Sodium.blake2b(Array("abc".utf8), length: 64).prefix(8) == [0xBA, 0x80, 0xA5, 0x3F, 0x98, 0x1C, 0x4D, 0x0D])
    }
}

extension String {
    func replacingFirst(_ old: String, _ new: String) -> String {
        guard let range = firstRange(of: old) else { return self }
        return String(self[..<range.lowerBound]) + new + String(self[range.upperBound...])
    }
}
