/// When the first sample of an utterance reaches the speaker, from what ALSA says while it is
/// written: snd_pcm_delay counts the frames written that are still to be heard, so the first
/// of `written` frames is heard `(delay - written) / rate` seconds from now. It is taken at the
/// first look after the device has taken that sample (delay < written, the PCM running), not
/// at the start: a device that starts and then stalls moves the time on, and only a look
/// after it took the sample shows by how much. The time of the first sample handed to ALSA is
/// not it: the buffer fills first (the start threshold) and then plays out ahead of it.
struct HeardClock {
    let rate: Int
    /// Frames of this utterance handed to ALSA so far.
    private(set) var written = 0
    private var known = false
    /// When the first frame was handed over: it cannot be heard before (a device that takes
    /// samples faster than real time, as ALSA's null PCM, reports it as played already).
    private var handedAt: Double?
    /// A look saw written frames waiting (delay > 0): the PCM reports its queue. ALSA's null
    /// and file plugins never do; they take every sample the moment it is written.
    private var queued = false

    init(rate: Int) { self.rate = rate }

    /// What the time `firstHeard` or `ended` gives is: heard, or (a PCM that never reported a
    /// delay) handed over.
    var clock: SpeechLatencyClock { queued ? .heard : .handedOver }

    mutating func wrote(_ frames: Int, now: Double) {
        if handedAt == nil, frames > 0 { handedAt = now }
        written += frames
    }

    /// The time (on `now`'s clock) the first frame is heard, once: the first call with the PCM
    /// running and the first frame gone from its queue; nil before and after.
    mutating func firstHeard(now: Double, running: Bool, delay: Int) -> Double? {
        if delay > 0 { queued = true }
        guard !known, running, delay < written, let handedAt, rate > 0 else { return nil }
        known = true
        return max(handedAt, now + Double(delay - written) / Double(rate))
    }

    /// At the end of the utterance (played out or cut off): when no look timed it and the PCM
    /// never reported a delay, the hand-over time, once; nil otherwise (a device that queued
    /// the samples and never ran: nothing was heard).
    mutating func ended() -> Double? {
        guard !known, !queued, let handedAt else { return nil }
        known = true
        return handedAt
    }
}

/// What a speech latency figure ends at.
package enum SpeechLatencyClock: String, Sendable, Equatable {
    /// When ALSA says the first sample is heard (snd_pcm_delay on the running PCM).
    case heard
    /// When the first sample was handed to ALSA: the PCM never reported a delay (ALSA's null
    /// and file plugins take every sample at once), so nothing says when it is heard.
    case handedOver
}
