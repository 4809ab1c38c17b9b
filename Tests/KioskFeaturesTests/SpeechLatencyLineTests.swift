import Testing
@testable import KioskFeatures
import KioskTestSupport

/// `--stats`' speech latency line says what its figures end at: the sample heard (ALSA's delay)
/// or, where the PCM reports no delay (ALSA's file plugin on a host), the hand-over.
@Suite struct SpeechLatencyLineTests {
    @Test func theLineNamesItsClock() {
        #expect(SpeechBridge.latencyEnd(heard: 3, handedOver: 0) == "rest frame to first sample heard, by ALSA's delay")
        #expect(SpeechBridge.latencyEnd(heard: 0, handedOver: 2)
            == "rest frame to first sample handed to ALSA: the PCM reports no delay, so not when it is heard")
        #expect(SpeechBridge.latencyEnd(heard: 1, handedOver: 2)
            == "rest frame to first sample: 1 heard, by ALSA's delay, 2 handed to ALSA, whose PCM reported no delay")
    }
}
