import Testing
@testable import Audio

/// A voice reaches espeak-ng only when it is a voice it has and, after '+', a variant it ships
/// (voices/!v): a long or unknown variant once overflowed espeak-ng's fixed buffer and aborted
/// the process.
@Suite struct VoiceVariantTests {
    @Test func onlyShippedVariantsOfBoundedLengthAreAccepted() throws {
        let espeak = try Espeak.shared.get()
        let voices = espeak.voices
        #expect(voices.variants.contains("f3"))
        #expect(voices.contains("en+f3"))
        #expect(voices.contains("en"))
        #expect(!voices.contains("en+" + String(repeating: "x", count: 37)))
        #expect(!voices.contains("en+nosuchvariant"))
        #expect(!voices.contains("en+"))
        // Every accepted name fits espeak-ng's buffer: "!v/" plus the variant under 40 bytes.
        for variant in voices.variants { #expect(variant.utf8.count + 3 < 40) }
    }

    @Test func synthesisRefusesALongVariantInsteadOfCrashing() throws {
        let espeak = try Espeak.shared.get()
        let long = Espeak.Voice(name: "en+" + String(repeating: "a", count: 40))
        #expect(throws: AudioError.self) { try espeak.synthesize("hello", voice: long) { _ in true } }
        // A text over the bound is cut, not handed whole.
        #expect(Espeak.bounded(String(repeating: "é", count: 5000)).utf8.count <= Espeak.textLimit)
    }
}
