import Glibc
import KioskConfiguration
import Testing
@testable import FleetConfig

/// A key pair made from a fixed seed, so failures repeat.
let testSeed = [UInt8](repeating: 7, count: 32)
let otherSeed = [UInt8](repeating: 9, count: 32)

func signed(_ text: String, serial: UInt64, targets: [String] = [], seed: [UInt8] = testSeed) throws -> [UInt8] {
    var bundle = ConfigBundle(serial: serial, targets: targets, config: Array(text.utf8))
    bundle.signature = try Sodium.sign(bundle.signedBytes, seed: seed)
    return bundle.encoded
}

func publicKey(_ seed: [UInt8] = testSeed) throws -> [UInt8] { try Sodium.keyPair(seed: seed).publicKey }

let menuText = "items:\n  - id: coffee\n    label: Coffee\n    color: \"#884400\"\n  - id: tea\n    label: Tea\n"

@Suite struct BundleTests {
    @Test func signedBundleRoundTripsAndVerifies() throws {
        let bytes = try signed(menuText, serial: 3, targets: ["kiosk-a", "kiosk-b"])
        let bundle = try FleetAcceptance.verify(bytes, trustedKeys: [try publicKey()]).get()
        #expect(bundle.serial == 3)
        #expect(bundle.targets == ["kiosk-a", "kiosk-b"])
        #expect(String(decoding: bundle.config, as: UTF8.self) == menuText)
    }

    @Test func anyChangedByteOrOtherKeyFailsTheSignature() throws {
        let bytes = try signed(menuText, serial: 3)
        let key = try publicKey()
        #expect(FleetAcceptance.verify(bytes, trustedKeys: [try publicKey(otherSeed)]) == .failure(.signature))
        // The text changed, length kept: parses, but the signature is over the other text.
        var changed = bytes
        let at = changed.firstIndex(of: UInt8(ascii: "C"))!
        changed[at] = UInt8(ascii: "K")
        #expect(FleetAcceptance.verify(changed, trustedKeys: [key]) == .failure(.signature))
        // The serial changed.
        let replayed = Array(String(decoding: bytes, as: UTF8.self).replacingFirst("serial 3", "serial 4").utf8)
        #expect(FleetAcceptance.verify(replayed, trustedKeys: [key]) == .failure(.signature))
    }

    @Test func targetsAndTextCannotTradeBytes() throws {
        // Same concatenated bytes, split differently: the length prefixes keep them apart.
        let a = ConfigBundle(serial: 1, targets: ["ab"], config: Array("c".utf8))
        let b = ConfigBundle(serial: 1, targets: ["a"], config: Array("bc".utf8))
        #expect(a.signedBytes != b.signedBytes)
    }

    @Test func badInputIsRefusedWithItsReason() throws {
        let key = try publicKey()
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
        // Leading zeros, a sign, a short signature.
        let text = String(decoding: bytes, as: UTF8.self)
        for bad in [text.replacingFirst("serial 5", "serial 05"), text.replacingFirst("serial 5", "serial +5"),
                    text.replacingFirst("signature ", "signature AAAA"), text + "x"] {
            guard case .failure(.malformed) = ConfigBundle.parse(Array(bad.utf8)) else { Issue.record("passed: \(bad.suffix(40))"); continue }
        }
    }

    @Test func keyFilesTakeCommentsAndRefuseWrongLengths() throws {
        let key = try publicKey()
        let text = "# fleet key\n\n" + Base64.encode(key) + "\n"
        #expect(try FleetKeys.parse(text, file: "fleet.pub").get() == [key])
        let short = FleetKeys.parse(Base64.encode(Array(key.prefix(31))), file: "fleet.pub")
        #expect(short == .failure(FleetError("fleet.pub:1: a key is 32 bytes, this one is 31")))
        #expect(FleetKeys.parse("# only a comment\n", file: "k") == .failure(FleetError("k: no key in it (one line of base64)")))
        #expect(FleetKeys.parse("not base64!\n", file: "k") == .failure(FleetError("k:1: not base64 of a raw key")))
    }

    @Test func base64MatchesTheRFCVectors() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64.decode("Zh==") == nil)  // stray bits
        #expect(Base64.decode("Zg=a") == nil)
    }

    @Test func sha256OfAbc() throws {
        #expect(try Sodium.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}

extension String {
    func replacingFirst(_ old: String, _ new: String) -> String {
        guard let range = range(of: old) else { return self }
        return replacingCharacters(in: range, with: new)
    }
}
