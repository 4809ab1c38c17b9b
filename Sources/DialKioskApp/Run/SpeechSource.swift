import Glibc

/// The audio worker's wake-up descriptor in the frame loop's one poll: what the worker
/// reported (a device that failed or came back, a latency figure) is logged in the turn it
/// arrives, even while the dial rests. No descriptor until the worker has started.
struct SpeechSource: PollSource {
    let bridge: SpeechBridge
    var pollDescriptors: [pollfd] { bridge.pollDescriptor.map { [$0] } ?? [] }
    func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        if isReadable(polled) { bridge.serve() }
        return []
    }
}
