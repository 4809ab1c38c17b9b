import DialCore
import Glibc

/// Event and log lines waiting for a slow reader: polled for POLLOUT only while lines wait.
struct ServiceOutput: PollSource {
    let service: KioskService
    var pollDescriptors: [pollfd] { service.outputQueues.compactMap(\.pollDescriptor) }
    func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        for queue in service.outputQueues {
            guard let fd = queue.pollDescriptor?.fd,
                  polled.contains(where: { $0.fd == fd && $0.revents != 0 }) else { continue }
            queue.flush()
        }
        return []
    }
}

/// The control socket: accept, read, flush, then this turn's share of the commands. Lines left
/// from an earlier turn's budget keep poll from sleeping.
struct ControlSocket: PollSource {
    let service: KioskService
    var pollDescriptors: [pollfd] { service.pollDescriptors }
    func wakeUp(now: Double) -> Double? { service.hasControlBacklog ? now : nil }
    func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        guard service.hasControlBacklog || polled.contains(where: { $0.revents != 0 }) else { return [] }
        return service.handleControl(polled, now: now).map(LoopEvent.command)
    }
}

/// The watchdog ping, behaviour timers and command deadlines: no descriptor, a wake-up time,
/// and housekeeping after every poll (children reaped, timers fired).
struct ServiceDeadlines: PollSource {
    let service: KioskService
    var pollDescriptors: [pollfd] { [] }
    func wakeUp(now: Double) -> Double? { service.nextWakeup(now: now) }
    func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        let actions = service.tick(now: now)
        return actions.isEmpty ? [] : [.behaviour(actions)]
    }
}

/// A service's sources and where a turn serves them: its output first (it moves on even in a
/// turn that ends the run), its control socket, reload worker and deadlines last.
struct ServiceSources {
    var first: [any PollSource]
    var last: [any PollSource]

    /// No service: no sources.
    static var none: ServiceSources { ServiceSources(first: [], last: []) }
}

extension KioskService {
    /// The loop's sources for this service (the broker link and the audio worker's wake-ups
    /// among them).
    var pollSources: ServiceSources {
        let broker: [any PollSource] = mqtt.map { [MQTTSource(bridge: $0)] } ?? []
        return ServiceSources(first: [ServiceOutput(service: self)],
                              last: [ControlSocket(service: self), ReloadCompletion(service: self)] + broker
                                  + [SpeechSource(bridge: speech), ServiceDeadlines(service: self)])
    }
}
