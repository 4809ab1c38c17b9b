import Glibc
import KioskLoop

/// The broker's socket in the frame loop's one poll (see `MQTTConnection` for why not a
/// thread): reads, writes when libmosquitto has bytes waiting, reconnects when due, and hands
/// this turn's share of `<base>/set/...` commands to the loop as control commands.
package struct MQTTSource: PollSource {
    package let bridge: MQTTBridge
    /// Carries out the commands on the loop.
    package let service: KioskService
    package var pollDescriptors: [pollfd] { bridge.pollDescriptors }
    package func wakeUp(now: Double) -> Double? { bridge.wakeUp(now: now) }
    package func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        bridge.serve(polled, now: now).map { request in
            .service { [service] loop in try service.perform(request, at: now, on: loop) }
        }
    }

    package init(bridge: MQTTBridge, service: KioskService) {
        self.bridge = bridge
        self.service = service
    }
}
