import KioskLoop
import LinuxSystem

/// The audio worker's wake-up descriptor in the frame loop's one poll: what the worker
/// reported (a device that failed or came back, a latency figure) is logged in the turn it
/// arrives, even while the dial rests. No descriptor until the worker has started.
package struct SpeechSource: PollSource {
    package let bridge: SpeechBridge
    package var pollDescriptors: [PollDescriptor] { bridge.pollDescriptor.map { [$0] } ?? [] }
    package func serve(_ polled: [PollDescriptor], now: Double) throws -> [LoopEvent] {
        if isReadable(polled) { bridge.serve() }
        return []
    }

    package init(bridge: SpeechBridge) {
        self.bridge = bridge
    }
}
