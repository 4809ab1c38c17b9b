import DialCore
import KioskLoop
import LinuxSystem

/// Event and log lines waiting for a slow reader: polled for POLLOUT only while lines wait.
package struct ServiceOutput: PollSource {
    package let service: LegacyService
    package var pollDescriptors: [PollDescriptor] { service.outputQueues.compactMap(\.pollDescriptor) }
    package func serve(_ polled: [PollDescriptor], now: Double) throws -> [LoopEvent] {
        for queue in service.outputQueues {
            guard let fd = queue.pollDescriptor?.fd,
                  polled.contains(where: { $0.fd == fd && $0.revents != 0 }) else { continue }
            queue.flush()
        }
        return []
    }

    package init(service: LegacyService) {
        self.service = service
    }
}

/// The control socket: accept, read, flush, then this turn's share of the commands. Lines left
/// from an earlier turn's budget keep poll from sleeping.
package struct ControlSocket: PollSource {
    package let service: LegacyService
    package var pollDescriptors: [PollDescriptor] { service.pollDescriptors }
    package func wakeUp(now: Double) -> Double? { service.hasControlBacklog ? now : nil }
    package func serve(_ polled: [PollDescriptor], now: Double) throws -> [LoopEvent] {
        guard service.hasControlBacklog || polled.contains(where: { $0.revents != 0 }) else { return [] }
        return service.handleControl(polled, now: now).map { request in
            .message(.news(KioskNews.command(request)))
        }
    }

    package init(service: LegacyService) {
        self.service = service
    }
}

/// The watchdog ping, behaviour timers and command deadlines: no descriptor, a wake-up time,
/// and housekeeping after every poll (children reaped, timers fired).
package struct ServiceDeadlines: PollSource {
    package let service: LegacyService
    package var pollDescriptors: [PollDescriptor] { [] }
    package func wakeUp(now: Double) -> Double? { service.nextWakeup(now: now) }
    package func serve(_ polled: [PollDescriptor], now: Double) throws -> [LoopEvent] {
        let actions = service.tick(now: now)
        return (actions.isEmpty ? [] : [.requests([.apply(actions)])]) + Self.due(service, now: now)
    }

    /// Live items' changes of this turn (one flush, item lines and one repaint, per frame at
    /// most), as news for the loop to pass back.
    package static func due(_ service: LegacyService, now: Double) -> [LoopEvent] {
        service.checkStaleness(now: now)
        return service.liveDue(now: now) ? [.message(.news(KioskNews.liveDue))] : []
    }

    package init(service: LegacyService) {
        self.service = service
    }
}

extension LegacyService {
    /// The loop's sources for this service (the broker link and the audio worker's wake-ups
    /// among them).
    package var pollSources: ServiceSources {
        let broker: [any PollSource] = (mqtt.map { [MQTTSource(bridge: $0)] } ?? [])
            + (fleet == nil ? [] : [FleetDeadline(service: self)])
        return ServiceSources(first: [ServiceOutput(service: self)],
                              last: [ControlSocket(service: self), ReloadCompletion(service: self)] + broker
                                  + [SpeechSource(bridge: speech), ServiceDeadlines(service: self)])
    }
}
