import CALSA
import Glibc
import LinuxSystem

/// One ALSA playback PCM, 16-bit mono, opened non-blocking: `open` never waits for a busy
/// device and a write takes what fits. The worker waits for room in slices of `slice` seconds
/// on the PCM's own poll descriptors and asks between slices whether to go on, so a newer
/// utterance or a stop is seen within one slice, and a device that stops taking samples is
/// given up after `stuckAfter` seconds. Owned by the worker thread; `close` is safe twice.
package final class PCMOutput {
    let device: String
    let sampleRate: Int
    private var pcm: OpaquePointer?
    static let slice = 0.005
    static let stuckAfter = 1.0

    /// snd_pcm_open (SND_PCM_NONBLOCK) and snd_pcm_set_params: S16_LE, interleaved, one
    /// channel, `sampleRate`, ALSA's resampler allowed, `latency` seconds of buffer. The first
    /// one loads libasound (the error names it when it cannot).
    init(device: String, sampleRate: Int, latency: Double = 0.06) throws(AudioError) {
        self.device = device
        self.sampleRate = sampleRate
        if let error = AudioLibraries.alsa { throw error }
        var handle: OpaquePointer?
        let opened = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard opened >= 0, let handle else { throw AudioError.alsa("open ALSA PCM '\(device)'", Int(opened)) }
        let set = snd_pcm_set_params(handle, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(sampleRate), 1,
                                     UInt32(latency * 1_000_000))
        guard set >= 0 else {
            snd_pcm_close(handle)
            throw AudioError.alsa("set up ALSA PCM '\(device)' for \(sampleRate) Hz 16-bit mono", Int(set))
        }
        pcm = handle
    }

    deinit { close() }

    /// Hands all of `samples` to ALSA (snd_pcm_writei), waiting for room while `keepGoing`
    /// says so. `handed` is told how many went in after each write. Returns false when stopped.
    func write(_ samples: ArraySlice<Int16>, keepGoing: () -> Bool, handed: (Int) -> Void = { _ in }) throws(AudioError) -> Bool {
        guard let pcm else { return false }
        var rest = samples
        var lastProgress = monotonicNow()
        while !rest.isEmpty {
            guard keepGoing() else { return false }
            let written = rest.withUnsafeBufferPointer { snd_pcm_writei(pcm, $0.baseAddress, snd_pcm_uframes_t($0.count)) }
            if written > 0 {
                rest = rest.dropFirst(Int(written))
                lastProgress = monotonicNow()
                handed(Int(written))
                continue
            }
            switch Int32(written) {
            case -EAGAIN, 0:
                if monotonicNow() - lastProgress > Self.stuckAfter {
                    throw AudioError(AudioCall(operation: "play on ALSA PCM '\(device)'",
                                               reason: "the device took no samples for \(Int(Self.stuckAfter)) s"), code: ETIMEDOUT)
                }
                wait()
            case -EPIPE, -ESTRPIPE:
                // An underrun between two writes, or a suspend: prepare again and go on.
                let recovered = snd_pcm_recover(pcm, Int32(written), 1)
                guard recovered >= 0 else { throw AudioError.alsa("recover ALSA PCM '\(device)'", Int(recovered)) }
            default:
                throw AudioError.alsa("write to ALSA PCM '\(device)'", Int(written))
            }
        }
        return true
    }

    /// snd_pcm_state and snd_pcm_delay: whether the PCM plays, and how many frames written
    /// so far are still to be heard (through dmix and the resampler too); nil when it fails.
    func queue() -> (running: Bool, delay: Int)? {
        guard let pcm else { return nil }
        var delay: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(pcm, &delay) >= 0 else { return nil }
        return (snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING, Int(delay))
    }

    /// snd_pcm_start when the PCM is prepared but not playing (its buffer not full yet).
    func start() {
        guard let pcm, snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED else { return }
        snd_pcm_start(pcm)
    }

    /// Waits (while `keepGoing`) until what was written has played, then stops the PCM so the
    /// next utterance starts on an empty, prepared device rather than after an underrun.
    /// `watching` is called on every wait (the worker times the first sample there too).
    func finish(keepGoing: () -> Bool, watching: () -> Void = {}) {
        guard let pcm else { return }
        // snd_pcm_set_params starts playback once the buffer is full: a click (6 ms) or the end
        // of a short word would wait there for ever and be dropped below. (A start threshold of
        // one frame instead lost every click but the first through dmix in the VM case.)
        start()
        let start = monotonicNow()
        while keepGoing(), monotonicNow() - start < Self.stuckAfter + 0.5 {
            var delay: snd_pcm_sframes_t = 0
            guard snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING, snd_pcm_delay(pcm, &delay) >= 0, delay > 0 else { break }
            watching()
            wait()
        }
        stop()
    }

    /// snd_pcm_drop: what is queued is thrown away at once; then snd_pcm_prepare for the next.
    func stop() {
        guard let pcm else { return }
        snd_pcm_drop(pcm)
        snd_pcm_prepare(pcm)
    }

    /// Sleeps one slice or until the PCM has room (its poll descriptors).
    private func wait() {
        guard let pcm else { return }
        let count = Int(snd_pcm_poll_descriptors_count(pcm))
        var fds = [pollfd](repeating: pollfd(), count: max(count, 0))
        let filled = count > 0 ? Int(snd_pcm_poll_descriptors(pcm, &fds, UInt32(count))) : 0
        _ = poll(&fds, nfds_t(max(filled, 0)), Int32(Self.slice * 1000))
    }

    /// snd_pcm_close; safe twice.
    func close() {
        guard let pcm else { return }
        self.pcm = nil
        snd_pcm_drop(pcm)
        snd_pcm_close(pcm)
    }

    /// Whether `device` can be opened now (for check-config): nil, or the reason it cannot.
    package static func probe(device: String, sampleRate: Int = 22050) -> AudioError? {
        do throws(AudioError) {
            let output = try PCMOutput(device: device, sampleRate: sampleRate)
            output.close()
            return nil
        } catch {
            return error
        }
    }
}
