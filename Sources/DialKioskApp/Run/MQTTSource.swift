import Glibc

/// The broker's socket in the frame loop's one poll (see `MQTTConnection` for why not a
/// thread): reads, writes when libmosquitto has bytes waiting, reconnects when due, and hands
/// this turn's share of `<base>/set/...` commands to the loop as control commands.
struct MQTTSource: PollSource {
    let bridge: MQTTBridge
    var pollDescriptors: [pollfd] { bridge.pollDescriptors }
    func wakeUp(now: Double) -> Double? { bridge.wakeUp(now: now) }
    func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        bridge.serve(polled, now: now).map(LoopEvent.command)
    }
}
