import KioskLoop
import LinuxSystem

/// The broker's socket in the frame loop's one poll (see `MQTTConnection` for why not a
/// thread): reads, writes when libmosquitto has bytes waiting, reconnects when due, and hands
/// this turn's share of `<base>/set/...` commands to the loop for the service (`KioskNews.command`).
package struct MQTTSource: PollSource {
    package let bridge: MQTTBridge
    package var pollDescriptors: [PollDescriptor] { bridge.pollDescriptors }
    package func wakeUp(now: Double) -> Double? { bridge.wakeUp(now: now) }
    package func serve(_ polled: [PollDescriptor], now: Double) throws -> [LoopEvent] {
        bridge.serve(polled, now: now).map { request in
            .message(.news(KioskNews.command(request)))
        }
    }

    package init(bridge: MQTTBridge) {
        self.bridge = bridge
    }
}
