import Testing
@testable import Audio

/// When the first sample of an utterance is heard, from snd_pcm_delay once the PCM runs.
struct HeardClockTests {
    @Test func nothingIsKnownBeforeThePCMRuns() {
        var clock = HeardClock(rate: 22050)
        #expect(clock.firstHeard(now: 1, running: true, delay: 0) == nil, "nothing written yet")
        clock.wrote(220, now: 1)
        #expect(clock.firstHeard(now: 1, running: false, delay: 220) == nil, "prepared, waiting for a full buffer")
    }

    @Test func theFirstSampleIsHeardAfterWhatQueuesBeforeIt() {
        var clock = HeardClock(rate: 22050)
        clock.wrote(1323, now: 9.9)
        clock.wrote(220, now: 10)
        // 1543 frames written, 22050 + 1543 still to be heard (a dmix slave buffer in front):
        // the first is heard a second from now.
        let at = clock.firstHeard(now: 10, running: true, delay: 22050 + 1543)
        #expect(at == 11)
        // Once only: the later writes do not move it.
        clock.wrote(220, now: 11)
        #expect(clock.firstHeard(now: 12, running: true, delay: 5000) == nil)
    }

    @Test func aFirstSampleAlreadyPlayedIsInThePast() {
        var clock = HeardClock(rate: 1000)
        clock.wrote(500, now: 1.5)
        #expect(clock.firstHeard(now: 2, running: true, delay: 300) == 1.8)
    }

    @Test func notBeforeItWasHandedOver() {
        // ALSA's null PCM takes everything at once: "played" before it was written.
        var clock = HeardClock(rate: 1000)
        clock.wrote(500, now: 1.9)
        #expect(clock.firstHeard(now: 2, running: true, delay: 0) == 1.9)
    }
}
