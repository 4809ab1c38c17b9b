import Audio
import DialCore
import KioskSeams
import KioskReporting
import KioskConfiguration
import LinuxSystem

/// The kiosk's voice (the `accessibility:` section): each loop turn's dial events become at
/// most one utterance (DialCore's `SpeechScript`) and one cue (`CuePlanner`), handed to the
/// audio worker's thread; nothing audio runs on the loop's thread. The worker starts with the
/// first thing to say, so a kiosk without the section has no thread. It reads the running
/// configuration at each turn, so a reload applies new settings at once.
package final class SpeechBridge {
    private let logger: JournalLogger
    private var worker: AudioWorker?
    private let startWorker: () -> AudioWorker
    private var planner = CuePlanner()
    /// The last utterance, for `repeat`.
    package private(set) var lastUtterance: String?
    /// `speech on|off` or the S key: holds until `overrideLasts` seconds pass without input.
    package private(set) var override: (on: Bool, until: Double)?
    /// Seconds of no input after which a speech toggle returns to the configured default.
    package static let overrideLasts = 120.0
    private var latency = LatencyStats(capacity: 1024)
    /// How many figures end when the sample is heard, and how many at the hand-over.
    private var latencyClocks: [SpeechLatencyClock: Int] = [:]
    /// `--stats`: a line per measured utterance with the speech latency so far.
    package var statsEnabled = false

    /// `startWorker`: the audio thread, started with the first thing to say (a test keeps the
    /// one it starts, to wait until it has played).
    package init(logger: JournalLogger, startWorker: @escaping () -> AudioWorker = { AudioWorker() }) {
        self.logger = logger
        self.startWorker = startWorker
    }

    /// Whether speech is on at `now`: the terminal's toggle while it lasts, else the configuration.
    package func speechOn(_ settings: AccessibilitySettings?, now: Double) -> Bool {
        guard let settings else { return false }
        if let override, now < override.until { return override.on }
        return settings.speech
    }

    /// One loop turn's dial events with the pose now shown.
    package func observe(_ events: [DialEvent], pose: DialPose, settings: AccessibilitySettings?, menu: MenuTree, now: Double,
                         states: [MenuPath: ItemState] = [:]) {
        guard let settings else { return }
        let cue = planner.cue(ring: pose.ring, selected: pose.selected, count: pose.items.count, events: events, at: now)
        let text = speechOn(settings, now: now) ? SpeechScript.utterance(for: events, menu: menu, words: settings.words, states: states) : nil
        if let text { lastUtterance = text }
        let sound = settings.soundCues ? cue : nil
        guard text != nil || sound != nil else { return }
        // The frame showing the rest: the selected event's time (the flip the dial came to rest at).
        let shown = events.compactMap { if case .selected(_, _, let time) = $0 { time } else { nil } }.last
        play(AudioJob(cue: sound.map(Self.cue), cueCount: sound.map(Self.count) ?? 1, text: text, voice: settings.espeakVoice, cueVolume: Double(settings.cueVolume) / 100,
                      device: settings.device, shownAt: text == nil ? nil : shown))
    }

    /// A value dial's words ("set to 21.5 °C", "21.5 °C" at a rest), when speech is on.
    package func say(_ text: String, settings: AccessibilitySettings?, now: Double) {
        guard let settings, speechOn(settings, now: now) else { return }
        lastUtterance = text
        play(AudioJob(text: text, voice: settings.espeakVoice, device: settings.device))
    }

    /// A value dial ran into its maximum or minimum: the stop's cue (with `sound_cues`) and
    /// the word (with speech on).
    package func stop(atMaximum: Bool, settings: AccessibilitySettings?, now: Double) {
        guard let settings else { return }
        let text = speechOn(settings, now: now) ? (atMaximum ? "maximum" : "minimum") : nil
        let cue: Cue? = settings.soundCues ? .stop : nil
        guard text != nil || cue != nil else { return }
        if let text { lastUtterance = text }
        play(AudioJob(cue: cue, text: text, voice: settings.espeakVoice, cueVolume: Double(settings.cueVolume) / 100,
                      device: settings.device))
    }

    /// Any input: the toggle's time runs from the last one.
    package func touched(now: Double) {
        if let override, now < override.until { self.override = (override.on, now + Self.overrideLasts) }
    }

    /// The R key or `repeat`.
    package func repeatLast(settings: AccessibilitySettings?, now: Double) {
        guard let settings, let text = lastUtterance, speechOn(settings, now: now) else { return }
        play(AudioJob(text: text, voice: settings.espeakVoice, device: settings.device))
    }

    private var toggleLog = LogRateLimit(interval: 10)

    /// The S key (`on` nil: the other way) or `speech on|off`; turning it on says so.
    package func setSpeech(_ on: Bool?, settings: AccessibilitySettings?, now: Double) {
        // A client may send `speech on|off` at will: one line per 10 s, with the count.
        let heldBack = toggleLog.admit(now: now)
        guard let settings else {
            if let heldBack {
                logger.warning("speech: no accessibility section in the configuration; nothing to turn on or off" + LogRateLimit.suffix(heldBack))
            }
            return
        }
        let target = on ?? !speechOn(settings, now: now)
        override = (target, now + Self.overrideLasts)
        if let heldBack { logger.info("speech: \(target ? "on" : "off") until \(Int(Self.overrideLasts)) s without input" + LogRateLimit.suffix(heldBack)) }
        if target {
            play(AudioJob(text: lastUtterance ?? settings.words.topRing, voice: settings.espeakVoice, device: settings.device))
        } else {
            worker?.cancel()
        }
    }

    /// The last job handed to the worker (what a test can check was asked for).
    package private(set) var lastJob: AudioJob?

    private func play(_ job: AudioJob) {
        lastJob = job
        if worker == nil { worker = startWorker() }
        worker?.play(job)
    }

    package static func count(_ sound: CuePlanner.Sound) -> Int {
        if case .detents(let n) = sound { return n }
        return 1
    }

    package static func cue(_ sound: CuePlanner.Sound) -> Cue {
        switch sound {
        case .detents: return .detent
        case .activate: return .activate
        case .back: return .back
        }
    }

    /// The worker's wake-up descriptor, for the loop's poll (nil before it starts).
    package var pollDescriptor: PollDescriptor? {
        guard let fd = worker?.wakeDescriptor, fd >= 0 else { return nil }
        return .reading(fd)
    }

    /// Told of a failure the worker reported (its line) and of the recovery (nil).
    package var onProblem: ((String?) -> Void)?

    /// Logs what the worker reported: failures and recoveries once each, latency with `--stats`.
    package func serve() {
        for report in worker?.takeReports() ?? [] {
            switch report {
            case .failed(let line):
                logger.warning(line)
                onProblem?(line)
            case .recovered(let line):
                logger.info(line)
                onProblem?(nil)
            case .latency(let seconds, let clock):
                latency.record(seconds)
                latencyClocks[clock, default: 0] += 1
                if statsEnabled, let line = latencyLine { logger.info(line + ", this one \(fixed(seconds * 1000, 1)) ms") }
            }
        }
    }

    /// "stats: speech latency p50 ... ms" (the frame at rest to the first sample heard, by
    /// ALSA's delay, or handed to ALSA where the PCM reports no delay; the line says which).
    package var latencyLine: String? {
        guard let s = latency.summary else { return nil }
        func ms(_ v: Double) -> String { fixed(v * 1000, 1) }
        return "stats: speech latency p50 \(ms(s.p50)) ms, p95 \(ms(s.p95)) ms, max \(ms(s.max)) ms over \(s.count) utterances"
            + " (\(Self.latencyEnd(heard: latencyClocks[.heard] ?? 0, handedOver: latencyClocks[.handedOver] ?? 0)))"
    }

    /// Where the figures of the stats line end, by how many of each clock there are.
    package static func latencyEnd(heard: Int, handedOver: Int) -> String {
        switch (heard, handedOver) {
        case (_, 0): return "rest frame to first sample heard, by ALSA's delay"
        case (0, _): return "rest frame to first sample handed to ALSA: the PCM reports no delay, so not when it is heard"
        default: return "rest frame to first sample: \(heard) heard, by ALSA's delay, \(handedOver) handed to ALSA, whose PCM reported no delay"
        }
    }

    /// The thread ends (what plays is dropped); safe twice.
    package func stop() {
        worker?.stop()
        serve()
        if statsEnabled, let line = latencyLine { logger.info(line) }
        worker = nil
    }
}
