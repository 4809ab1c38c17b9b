import SodiumLink
import Testing

@Suite struct SHA256Tests {
    @Test func knownAnswers() throws {
        // FIPS 180-4's examples, and a message of one whole block plus a tail.
        #expect(try SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(try SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(try SHA256.hex([UInt8](repeating: 0x61, count: 1_000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        #expect(try SHA256.digest([]).count == SHA256.digestBytes)
    }

    @Test func theLibraryLoadsOnce() {
        #expect(SodiumLibrary.load() == nil)
        #expect(SodiumLibrary.load() == nil)
    }
}

@Suite struct Base64Tests {
    @Test func matchesTheRFCVectors() {
        // RFC 4648 section 10.
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64.encode(Array("abcd".utf8)) == "YWJjZA==")
    }

    @Test func decodingIsStrict() {
        #expect(Base64.decode("Zh==") == nil)  // stray bits
        #expect(Base64.decode("Zg=a") == nil)  // padding inside
        #expect(Base64.decode("Zg=") == nil)   // not a multiple of four
        #expect(Base64.decode("Zm 9v") == nil) // whitespace
        #expect(Base64.decode("Zg===") == nil)
    }
}
