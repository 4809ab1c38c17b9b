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

    @Test func theFirstSampleIsTimedOnceTheDeviceHasTakenIt() {
        var clock = HeardClock(rate: 1000)
        clock.wrote(60, now: 9.9)
        // Started with the buffer full: nothing played yet, not known (the device may stall).
        #expect(clock.firstHeard(now: 9.95, running: true, delay: 60) == nil)
        clock.wrote(20, now: 10.5)
        #expect(clock.firstHeard(now: 10.5, running: true, delay: 80) == nil, "stalled: still all queued")
        // 80 written, 50 still queued: the first went 30 frames (30 ms) ago.
        clock.wrote(20, now: 10.6)
        let at = clock.firstHeard(now: 10.6, running: true, delay: 70)
        #expect(abs((at ?? 0) - 10.57) < 1e-9, "\(String(describing: at))")
        // Once only: the later writes do not move it.
        clock.wrote(20, now: 11)
        #expect(clock.firstHeard(now: 11, running: true, delay: 10) == nil)
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

    @Test func aPCMThatNeverReportsADelayIsTimedByTheHandOver() {
        // ALSA's file plugin over null: prepared, nothing ever queued, then running and empty.
        var clock = HeardClock(rate: 1000)
        clock.wrote(100, now: 3.2)
        #expect(clock.firstHeard(now: 3.2, running: false, delay: 0) == nil)
        #expect(clock.clock == .handedOver)
        #expect(clock.ended() == 3.2)
        #expect(clock.ended() == nil, "once")
    }

    @Test func aDeviceThatQueuedIsNeverTimedByTheHandOver() {
        var clock = HeardClock(rate: 1000)
        clock.wrote(100, now: 3.2)
        // Queued and cut off before it ran: nothing was heard.
        #expect(clock.firstHeard(now: 3.2, running: false, delay: 100) == nil)
        #expect(clock.clock == .heard)
        #expect(clock.ended() == nil)
        // Timed by its delay: not again at the end.
        var played = HeardClock(rate: 1000)
        played.wrote(100, now: 1)
        #expect(played.firstHeard(now: 1.05, running: true, delay: 50) == 1.0)
        #expect(played.ended() == nil)
    }
}
