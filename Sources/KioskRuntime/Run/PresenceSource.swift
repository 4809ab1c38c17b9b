import KioskLoop
import KioskFeatures
import TouchInput
import LinuxSystem

/// The presence sensor as one of the loop's sources: its descriptor while the device is open,
/// its retry time while it is missing; a press goes to the service, never to the dial.
package struct PresenceSource: PollSource {
    let sensor: PresenceSensor

    package var pollDescriptors: [PollDescriptor] {
        sensor.pollDescriptor < 0 ? [] : [.reading(sensor.pollDescriptor)]
    }

    package func wakeUp(now: Double) -> Double? { sensor.wakeUp(now: now) }

    package func serve(_ polled: [PollDescriptor], now: Double) throws -> [LoopEvent] {
        guard sensor.pollDescriptor < 0 || isReadable(polled) else { return [] }
        guard sensor.serve(now: now) > 0 else { return [] }
        return [.message(.news(KioskNews.presence))]
    }
}
