import Glibc
import KioskConfiguration
import KioskLoop

/// Pushed configurations on the loop: a bundle taken is built like a reload (off the loop when
/// there is a worker) and swapped in in one transaction; a failed build is refused at once;
/// the confirmation or its deadline decide whether it stays.
extension KioskService {
    /// A bundle arrived over MQTT: taken, it is prepared like a reload and committed or
    /// refused (`fleetBuilt`); returns what the loop must do now.
    package func takeBundle(_ bytes: [UInt8], at time: Double) -> [LoopRequest] {
        guard let fleet else {
            logger.warning("fleet: a configuration bundle came, but the local file has no fleet: section; ignored")
            return []
        }
        switch fleet.offer(bytes, local: config) {
        case .ignored: return []
        case .refused: reportFleet(now: time); return []
        case .take(let pushed, _):
            // A reload being prepared was read before this bundle: the file is read again once
            // it is done, with this bundle over it (Reload.supersede).
            return requestReload(at: time, pushed: scenes.adjusted(pushed))
        }
    }

    /// The build of a taken bundle ended (`failure`: why it was not swapped in).
    package func fleetBuilt(_ failure: String?, at time: Double) -> [LoopRequest] {
        guard let fleet, fleet.building != nil else { return [] }
        // The reload words its failure after the local file; the bundle's is what failed.
        let prefix = (configPath ?? "demo menu") + ": "
        fleet.built(failure.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }, now: time)
        reportFleet(now: time)
        if let queued = fleet.takeQueued() { return takeBundle(queued, at: time) }
        return []
    }

    /// `confirm N` from the control socket or `<base>/set/config_confirm`.
    package func confirmFleet(_ request: ControlServer.Request, serial: UInt64?, at time: Double) {
        guard let fleet else { return replyError(request, "no fleet: section; nothing to confirm", now: time) }
        guard let serial = serial ?? fleet.pending?.bundle.serial else {
            return replyError(request, "no pushed configuration waits for confirmation", now: time)
        }
        if let problem = fleet.confirm(serial) { return replyError(request, problem, now: time) }
        reportFleet(now: time)
    }

    /// The confirmation did not come: back to the last confirmed configuration (or the file).
    package func revertFleetIfDue(at time: Double) -> [LoopRequest] {
        guard let fleet, fleet.revertIfDue(now: time) else { return [] }
        reportFleet(now: time)
        return requestReload(at: time)
    }

    /// Home Assistant discovery of the fleet's two entities: an `update` (installed serial
    /// against the one offered) and a button that confirms the configuration that waits.
    package func publishFleetDiscovery() {
        guard fleet != nil, let mqtt, let prefix = mqtt.discoveryPrefix else { return }
        let topics = mqtt.topics, id = topics.clientID, stateTopic = topics.base + "/config/state"
        let device = EventLine([("identifiers", .strings([id]))])
        func common(_ object: String, _ name: String) -> [(String, EventLine.Value)] {
            [("name", .string(name)), ("unique_id", .string("\(id)_\(object)")), ("object_id", .string("\(id)_\(object)")),
             ("availability_topic", .string(topics.availability)),
             ("payload_available", .string("online")), ("payload_not_available", .string("offline")), ("device", .object(device))]
        }
        mqtt.publishRetained(topic: "\(prefix)/update/\(id)/config/config", payload: EventLine(common("config", "Configuration") + [
            ("state_topic", .string(stateTopic)),
            ("value_template", .string("{{ value_json.serial | default('local', true) }}")),
            ("latest_version_topic", .string(stateTopic)),
            ("latest_version_template", .string("{{ value_json.offered | default(value_json.serial, true) | default('local', true) }}")),
        ]).text)
        // The fleet's command entities, from the vocabulary's table (the confirm button).
        for (_, input) in ControlVocabulary.mqttInputs {
            guard let entity = input.homeAssistant, entity.when == .fleet,
                  let fields = HomeAssistantDiscovery.commandFields(entity, topic: topics.setPrefix + input.topic, topics: topics, options: [])
            else { continue }
            mqtt.publishRetained(topic: "\(prefix)/\(entity.component)/\(id)/\(entity.object)/config",
                                 payload: EventLine(common(entity.object, entity.name) + fields).text)
        }
    }

    /// The retained `<base>/config/state` and the `config` event line.
    package func reportFleet(now: Double) {
        guard let fleet else { return }
        emit(fleet.eventLine(now: now))
        if let mqtt { mqtt.publishRetained(topic: mqtt.topics.base + "/config/state", payload: fleet.stateLine.text) }
    }
}

/// The confirmation deadline of a pushed configuration: no descriptor, a wake-up time.
package struct FleetDeadline: PollSource {
    package let service: KioskService
    package var pollDescriptors: [pollfd] { [] }
    package func wakeUp(now: Double) -> Double? { service.fleet?.nextDeadline }
    package func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        guard let deadline = service.fleet?.nextDeadline, now >= deadline else { return [] }
        return [.requests(service.revertFleetIfDue(at: now))]
    }

    package init(service: KioskService) {
        self.service = service
    }
}
