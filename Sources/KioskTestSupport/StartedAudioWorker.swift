import Audio

/// The audio worker a `SpeechBridge` starts (its `startWorker`), kept so a test can wait until
/// it has played everything handed to it.
package final class StartedAudioWorker {
    package private(set) var worker: AudioWorker?

    package init() {}

    package func start() -> AudioWorker {
        let started = AudioWorker()
        worker = started
        return started
    }

    /// Returns once the worker plays and waits for nothing (at once when none started).
    package func waitUntilIdle() { worker?.waitUntilIdle() }
}
