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

    init(rate: Int) { self.rate = rate }

    mutating func wrote(_ frames: Int, now: Double) {
        if handedAt == nil, frames > 0 { handedAt = now }
        written += frames
    }

    /// The time (on `now`'s clock) the first frame is heard, once: the first call with the PCM
    /// running and the first frame gone from its queue; nil before and after.
    mutating func firstHeard(now: Double, running: Bool, delay: Int) -> Double? {
        guard !known, running, delay < written, let handedAt, rate > 0 else { return nil }
        known = true
        return max(handedAt, now + Double(delay - written) / Double(rate))
    }
}
