import Glibc
import Testing
@testable import Audio
import LinuxSystem

/// Real espeak-ng and real libasound: the samples the worker hands to ALSA, written by ALSA's
/// `file` plugin (over the `null` PCM) into a raw file, compared with what `espeak-ng --stdout`
/// gives for the same voice, rate and text.
@Suite(.serialized) struct SpeechSynthesisTests {
    static func synthesize(_ text: String, voice: Espeak.Voice) throws -> [Int16] {
        let espeak = try Espeak.shared.get()
        var all: [Int16] = []
        try espeak.synthesize(text, voice: voice) { all += $0; return true }
        return all
    }

    /// `espeak-ng -v VOICE -s RATE --stdout TEXT`: its WAV's samples (after the "data" chunk's header).
    static func cli(_ text: String, voice: String, rate: Int) -> [Int16] {
        let bytes = run("espeak-ng -v \(voice) -s \(rate) --stdout '\(text)'")
        guard let data = (0..<(bytes.count - 8)).first(where: { bytes[$0..<$0 + 4].elementsEqual("data".utf8) }) else { return [] }
        return samples(Array(bytes[(data + 8)...]))
    }

    static func samples(_ bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    static func run(_ command: String) -> [UInt8] {
        guard let pipe = popen(command, "r") else { return [] }
        defer { pclose(pipe) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, pipe)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }

    /// Where two sample lists first differ (nil: equal), without printing thousands of samples.
    static func firstDifference(_ a: [Int16], _ b: [Int16]) -> String? {
        guard let i = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) else {
            return a.count == b.count ? nil : "lengths \(a.count) and \(b.count)"
        }
        return "sample \(i): \(a[i]) and \(b[i]) (lengths \(a.count) and \(b.count))"
    }

    static func readFile(_ path: String) -> [UInt8] { run("cat '\(path)'") }

    /// espeak-ng keeps the wave generator's state from one utterance to the next inside a
    /// process, so only a process's first utterance is bit-equal to the command's (seen: the
    /// first "Kaffee mit Milch" equal, the second 4 samples longer from sample 1810 on, so a
    /// sample-by-sample comparison of the rest is meaningless). The test may not be its
    /// process's first synthesis, so it compares what survives that: the length within 0.5 %
    /// and the loudness envelope (RMS per 10 ms) with a correlation above 0.98. Another rate
    /// changes the length by far more, and another text the envelope.
    @Test(arguments: [("seven", "en", 175), ("Kaffee mit Milch", "de", 220)])
    func samplesEqualTheEspeakCommand(text: String, voice: String, rate: Int) throws {
        let ours = try Self.synthesize(text, voice: Espeak.Voice(name: voice, rate: rate, volume: 100))
        let theirs = Self.cli(text, voice: voice, rate: rate)
        #expect(ours.count > 2000, "a word is thousands of samples")
        #expect(Self.sameSpeech(ours, theirs), "lengths \(ours.count) and \(theirs.count), envelopes \(Self.correlation(Self.envelope(ours), Self.envelope(theirs)))")
        // The comparison can fail: another rate, another text.
        #expect(!Self.sameSpeech(ours, Self.cli(text, voice: voice, rate: rate + 60)))
        #expect(!Self.sameSpeech(ours, Self.cli(text + " und Zucker", voice: voice, rate: rate)))
    }

    static func sameSpeech(_ a: [Int16], _ b: [Int16]) -> Bool {
        abs(a.count - b.count) * 200 <= b.count && correlation(envelope(a), envelope(b)) > 0.98
    }

    /// RMS per 10 ms window (220 samples at 22050 Hz).
    static func envelope(_ samples: [Int16]) -> [Double] {
        stride(from: 0, to: samples.count, by: 220).map { start in
            let window = samples[start..<min(start + 220, samples.count)]
            return (window.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(window.count)).squareRoot()
        }
    }

    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let n = min(a.count, b.count)
        var ab = 0.0, aa = 0.0, bb = 0.0
        for i in 0..<n {
            let x = a[i], y = b[i]
            ab += x * y; aa += x * x; bb += y * y
        }
        return aa > 0 && bb > 0 ? ab / (aa * bb).squareRoot() : 0
    }

    @Test func anUnknownVoiceIsRefusedAndTheCatalogKnowsTheInstalledOnes() throws {
        let espeak = try Espeak.shared.get()
        #expect(espeak.voices.contains("en"))
        #expect(espeak.voices.contains("de"))
        #expect(espeak.voices.contains("fr-fr"))
        #expect(espeak.voices.contains("en+f3"))
        #expect(!espeak.voices.contains("qq-nowhere"))
        #expect(throws: AudioError.self) {
            try espeak.synthesize("x", voice: Espeak.Voice(name: "qq-nowhere")) { _ in true }
        }
    }

    @Test func severalClicksAreSpacedAndEachIsTheSingleClick() {
        let one = Cue.detent.samples(sampleRate: 22050, volume: 0.5)
        let three = Cue.detent.samples(sampleRate: 22050, volume: 0.5, count: 3)
        let step = Int(Cue.spacing * 22050)
        #expect(three.count == 2 * step + one.count)
        for k in 0..<3 { #expect(Array(three[(k * step)..<(k * step + one.count)]) == one) }
        #expect(three[one.count..<step].allSatisfy { $0 == 0 })
        #expect(Cue.activate.samples(sampleRate: 22050, volume: 0.5) != Cue.back.samples(sampleRate: 22050, volume: 0.5))
    }

    static func filePCM(_ path: String) -> String { "file:'\(path)',raw" }

    @Test func theWorkerHandsTheCueThenTheSpeechToALSA() throws {
        let path = "/tmp/dialkiosk-audio-\(getpid())-play.raw"
        defer { unlink(path) }
        let worker = AudioWorker()
        defer { worker.stop() }
        let voice = Espeak.Voice(name: "en", rate: 175, volume: 100)
        worker.play(AudioJob(cue: .activate, text: "seven", voice: voice, cueVolume: 0.5, device: Self.filePCM(path), shownAt: monotonicNow()))
        worker.waitUntilIdle()
        let played = Self.samples(Self.readFile(path))
        let cue = Cue.activate.samples(sampleRate: 22050, volume: 0.5)
        let speech = try Self.synthesize("seven", voice: voice)
        // The cue exactly; the speech as espeak-ng makes it (within its carried-over state, above).
        #expect(Self.firstDifference(Array(played.prefix(cue.count)), cue) == nil)
        #expect(Self.sameSpeech(Array(played.dropFirst(cue.count)), speech))
        let reports = worker.takeReports()
        #expect(reports.count == 1)
        if case .latency(let seconds, _) = reports.first { #expect(seconds >= 0 && seconds < 5) } else { Issue.record("no latency: \(reports)") }
    }

    /// ALSA's file plugin over the null PCM (what `run` on a host without a sound card uses)
    /// takes every sample at once and never reports a delay: after a click has played on the
    /// PCM, the next utterance was never timed (no `stats: speech latency` line). It is timed
    /// by its hand-over then, and says so.
    @Test func aPCMWithoutDelayIsTimedByTheHandOver() {
        let path = "/tmp/dialkiosk-audio-\(getpid())-nodelay.raw"
        defer { unlink(path) }
        let worker = AudioWorker()
        defer { worker.stop() }
        worker.play(AudioJob(cue: .detent, device: Self.filePCM(path)))
        worker.waitUntilIdle()
        #expect(worker.takeReports().isEmpty, "a click alone is not timed")
        let shown = monotonicNow()
        worker.play(AudioJob(text: "Alpha", device: Self.filePCM(path), shownAt: shown))
        worker.waitUntilIdle()
        let reports = worker.takeReports()
        #expect(reports.count == 1, "\(reports)")
        if case .latency(let seconds, let clock) = reports.first {
            #expect(clock == .handedOver)
            #expect(seconds >= 0 && seconds < monotonicNow() - shown)
        } else { Issue.record("no latency: \(reports)") }
    }

    @Test func aMissingDeviceIsReportedOnceAndTriedAgainAfterTheInterval() {
        let clock = FakeClock()
        let worker = AudioWorker(retryInterval: 5, clock: { clock.now })
        defer { worker.stop() }
        let job = AudioJob(cue: .detent, device: "dialkiosk_no_such_pcm")
        worker.play(job)
        worker.waitUntilIdle()
        let first = worker.takeReports()
        #expect(first.count == 1)
        if case .failed(let line) = first.first {
            #expect(line.contains("Failed to open ALSA PCM 'dialkiosk_no_such_pcm'"))
            #expect(line.contains("going on silent"))
        } else { Issue.record("expected a failure: \(first)") }
        // Within the interval the job is dropped; after it, tried again, failing the same way: no new line.
        clock.now = 2
        worker.play(job)
        worker.waitUntilIdle()
        clock.now = 6
        worker.play(job)
        worker.waitUntilIdle()
        #expect(worker.takeReports().isEmpty)
        // A device that works: one recovery line.
        let path = "/tmp/dialkiosk-audio-\(getpid())-recover.raw"
        defer { unlink(path) }
        clock.now = 12
        worker.play(AudioJob(cue: .detent, device: Self.filePCM(path)))
        worker.waitUntilIdle()
        #expect(worker.takeReports() == [.recovered("audio: \(Self.filePCM(path)): works again")])
    }

    @Test func aNewJobInterruptsTheOneSpeakingWithinOneChunk() throws {
        let path = "/tmp/dialkiosk-audio-\(getpid())-cancel.raw"
        defer { unlink(path) }
        let worker = AudioWorker()
        defer { worker.stop() }
        let long = String(repeating: "a long label that goes on and on, ", count: 6)
        let cancelled = Flag()
        let firstChunk = Flag()
        worker.afterWrite = { [weak worker] samples in
            if firstChunk.count == 0 { firstChunk.count = samples }
            // The first chunk went to ALSA: the loop says stop.
            guard cancelled.setOnce() else { return }
            worker?.cancel()
            cancelled.at = monotonicNow()
        }
        worker.play(AudioJob(text: long, device: Self.filePCM(path)))
        worker.waitUntilIdle()
        let idleAt = monotonicNow()
        let handed = worker.counts.samples
        let whole = try Self.synthesize(long, voice: Espeak.Voice())
        let chunk = firstChunk.count
        // Only the chunk in hand when the stop came went to ALSA, not the rest of the text.
        #expect(handed > 0 && handed <= chunk, "handed \(handed) of \(whole.count) samples")
        #expect(Self.samples(Self.readFile(path)).count <= chunk)
        print("audio: cancel to idle \(Int((idleAt - cancelled.at) * 1e6)) us (a 60 Hz frame is 16667 us)")
    }
}

final class FakeClock: @unchecked Sendable {
    private var value = 0.0
    private let lock = Lock()
    var now: Double {
        get { lock.run { value } }
        set { lock.run { value = newValue } }
    }
}

final class Flag: @unchecked Sendable {
    private var set = false
    private let lock = Lock()
    var at = 0.0
    var count = 0
    func setOnce() -> Bool { lock.run { defer { set = true }; return !set } }
}

final class Lock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    func run<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}
