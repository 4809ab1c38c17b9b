import CALSA
import Glibc
import LinuxSystem

/// What the worker plays: a cue's samples first, then a text spoken.
package struct AudioJob: Sendable, Equatable {
    package var cue: Cue?
    /// How many times the cue plays, `Cue.spacing` apart (several detents in one frame).
    package var cueCount: Int
    package var text: String?
    package var voice: Espeak.Voice
    /// 0-1 of full scale for the cue.
    package var cueVolume: Double
    /// The ALSA PCM name ("default", "plughw:Loopback,0,0").
    package var device: String
    /// When the frame that asked for it was on the glass (CLOCK_MONOTONIC seconds), for the
    /// latency figure; nil: not measured.
    package var shownAt: Double?

    package init(cue: Cue? = nil, cueCount: Int = 1, text: String? = nil, voice: Espeak.Voice = Espeak.Voice(),
                cueVolume: Double = 0.5, device: String = "default", shownAt: Double? = nil) {
        self.cue = cue
        self.cueCount = cueCount
        self.text = text
        self.voice = voice
        self.cueVolume = cueVolume
        self.device = device
        self.shownAt = shownAt
    }
}

/// What the worker tells the loop (read with `takeReports`, logged on the loop's thread).
package enum AudioReport: Sendable, Equatable {
    /// The device or the synthesis failed: the line to log once.
    case failed(String)
    /// It works again after a failure.
    case recovered(String)
    /// Seconds from `shownAt` to when the first sample is heard, by ALSA's snd_pcm_delay once
    /// the PCM runs (`HeardClock`), or handed to ALSA when the PCM reports no delay.
    case latency(Double, SpeechLatencyClock)
}

/// The thread that synthesises and plays, so that nothing audio runs on the frame loop's
/// thread. The loop calls `play` (a newer job replaces a waiting one and interrupts the one
/// playing: its queued samples are dropped with snd_pcm_drop) and `cancel`; both only take the
/// lock for a moment. The worker sees an interruption between two chunks of synthesis (10 ms of
/// audio) and between two waits for room on the device (5 ms), so it stops within one frame.
package final class AudioWorker: @unchecked Sendable {
    private let monitor = Monitor()
    // Guarded by `monitor`:
    private var pending: AudioJob?
    private var generation = 0
    private var stopping = false
    private var reports: [AudioReport] = []
    private var busy = false
    private var samplesHandedTotal = 0
    private var jobsDone = 0
    // The worker thread's own:
    private var output: PCMOutput?
    private var health: AudioHealth
    private let clock: @Sendable () -> Double
    private var thread: SystemThread?
    /// Readable when reports wait (an eventfd): the loop polls it, so a failure or a latency
    /// figure is logged at once even while the dial rests. -1 if none could be made.
    package var wakeDescriptor: Int32 { wake.rawValue }
    /// The eventfd behind `wakeDescriptor`, closed once when the worker goes (after `stop`).
    private let wake: FileDescriptor
    /// Called on the worker thread after each write to ALSA (tests stop a job at a known point).
    var afterWrite: (@Sendable (Int) -> Void)?

    /// Starts the thread. `retryInterval`: seconds before a failing device is tried again.
    package init(retryInterval: Double = 5, clock: @escaping @Sendable () -> Double = monotonicNow) {
        health = AudioHealth(retryInterval: retryInterval)
        self.clock = clock
        wake = FileDescriptor(adopting: eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)))
        // The worker takes no signals (they are the loop's, through its signalfd), whichever
        // thread starts it and whenever.
        do {
            thread = try SystemThread.start("audio", blockingSignals: true) { self.work() }
        } catch {
            reports.append(.failed(CallError(AudioCall(operation: "start the audio thread"), errno: error.errno).description))
        }
    }

    /// Plays `job` now: whatever plays or waits is dropped.
    package func play(_ job: AudioJob) {
        monitor.withLock {
            generation += 1
            pending = job
            monitor.signal()
        }
    }

    /// Silence now: the job playing stops within one slice, a waiting one is dropped.
    package func cancel() {
        monitor.withLock {
            generation += 1
            pending = nil
        }
    }

    /// The reports since the last call.
    package func takeReports() -> [AudioReport] {
        var count: UInt64 = 0
        _ = wake.readRecord(into: &count)
        return monitor.withLock {
            defer { reports = [] }
            return reports
        }
    }

    /// Samples handed to ALSA since start, and jobs finished or stopped (tests, `--stats`).
    package var counts: (samples: Int, jobs: Int) { monitor.withLock { (samplesHandedTotal, jobsDone) } }

    /// Waits until no job plays or waits (tests; the loop never calls it).
    package func waitUntilIdle() {
        monitor.withLock { while busy || pending != nil { monitor.wait() } }
    }

    /// Ends the thread (the job playing is dropped) and waits for it at most `within` seconds:
    /// a thread stuck inside a driver's write (a FIFO nobody reads, a hung device) is left
    /// behind rather than holding up the exit. Safe twice.
    package func stop(within: Double = 0.5) {
        let thread: SystemThread? = monitor.withLock {
            stopping = true
            generation += 1
            monitor.signal()
            defer { self.thread = nil }
            return self.thread
        }
        guard let thread else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let total = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + within
        var deadline = timespec(tv_sec: Int(total), tv_nsec: Int((total - total.rounded(.down)) * 1e9))
        if dk_timed_join(thread.handle, &deadline) != 0 {
            thread.detach()
            report(.failed("audio: the audio thread did not stop within \(within) s (a device stuck in a write); left behind"))
        }
    }

    deinit {
        stop()
    }

    // MARK: the worker thread

    /// Seconds of silence after which the PCM is closed: the device is free for others and
    /// can go away (a USB speaker unplugged, a module removed) without a handle held on it.
    package static let closeAfter = 2.0

    private func work() {
        while true {
            let next: (AudioJob, Int)? = monitor.withLock {
                while pending == nil && !stopping {
                    if output == nil {
                        monitor.wait()
                    } else if !monitor.wait(seconds: Self.closeAfter), pending == nil {
                        output?.close()
                        output = nil
                    }
                }
                guard !stopping, let job = pending else { return nil }
                pending = nil
                busy = true
                return (job, generation)
            }
            guard let (job, mine) = next else { break }
            run(job, generation: mine)
            monitor.withLock {
                busy = false
                jobsDone += 1
                monitor.signal()
            }
        }
        output?.close()
        output = nil
    }

    private func isCurrent(_ mine: Int) -> Bool { monitor.withLock { generation == mine && !stopping } }

    private func report(_ report: AudioReport) {
        monitor.withLock { reports.append(report) }
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { wake.write($0) }
    }

    private func run(_ job: AudioJob, generation mine: Int) {
        guard health.mayTry(now: clock()) else { return }
        // Only speech asks espeak-ng (loading it): a cue plays at the open PCM's rate.
        let espeak = job.text == nil ? nil : try? Espeak.shared.get()
        let rate = espeak?.sampleRate ?? output?.sampleRate ?? 22050
        do {
            if output?.device != job.device || output?.sampleRate != rate {
                output?.close()
                output = nil
                output = try PCMOutput(device: job.device, sampleRate: rate)
            }
            guard let output else { return }
            var heard = HeardClock(rate: rate)
            let look = { [self] in
                guard let queue = output.queue() else { return }
                if let at = heard.firstHeard(now: clock(), running: queue.running, delay: queue.delay), let shown = job.shownAt {
                    report(.latency(at - shown, heard.clock))
                }
            }
            let handed = { (samples: Int) in
                self.count(samples)
                heard.wrote(samples, now: self.clock())
                look()
            }
            let keepGoing = { [self] in isCurrent(mine) }
            var completed = true
            if let cue = job.cue {
                let samples = cue.samples(sampleRate: rate, volume: job.cueVolume, count: job.cueCount)
                completed = try output.write(samples[...], keepGoing: keepGoing, handed: handed)
            }
            if completed, let text = job.text {
                switch Espeak.shared {
                case .failure(let error): throw error
                case .success(let espeak):
                    var failure: (any Error)?
                    try espeak.synthesize(text, voice: job.voice) { chunk in
                        do {
                            return try output.write(chunk[...], keepGoing: keepGoing, handed: handed)
                        } catch {
                            failure = error
                            return false
                        }
                    }
                    if let failure { throw failure }
                    completed = isCurrent(mine)
                }
            }
            if completed {
                // A text shorter than the buffer starts here; its first sample is timed while it plays out.
                output.start()
                output.finish(keepGoing: keepGoing, watching: look)
            } else {
                output.stop()
            }
            if let at = heard.ended(), let shown = job.shownAt { report(.latency(at - shown, heard.clock)) }
            if let line = health.worked() { report(.recovered("audio: \(job.device): \(line)")) }
        } catch {
            output?.close()
            output = nil
            if let line = health.failed("audio: \(error)", now: clock()) { report(.failed(line)) }
        }
    }

    private func count(_ samples: Int) {
        monitor.withLock { samplesHandedTotal += samples }
        afterWrite?(samples)
    }
}
