import KioskConfiguration
import KioskLoop
import LinuxSystem

/// Pushed configurations on the loop: a bundle taken is built like a reload (off the loop when
/// there is a worker) and swapped in in one transaction; a failed build is refused at once;
/// the confirmation or its deadline decide whether it stays.
extension LegacyService {
    /// A bundle arrived over MQTT: taken, it is prepared like a reload and committed or
    /// refused (`fleetBuilt`); returns what the loop must do now.
    package func takeBundle(_ bytes: [UInt8], at time: Double) -> [LoopRequest] {
        guard let fleet else {
            logger.warning("fleet: a configuration bundle came, but the local file has no fleet: section; ignored")
            return []
        }
        switch fleet.offer(bytes, local: config, now: time) {
        case .ignored: return []
        case .refused: reportFleet(now: time); return []
        case .fetch(let sha256s):
            mqtt?.wantBlobs(sha256s)
            return []
        case .take(let pushed, _):
            return build(pushed, at: time)
        }
    }

    /// An icon blob came for the bundle that waits for its blobs; returns what the loop must do now.
    package func takeBlob(_ sha256: String, _ payload: [UInt8]?, length: Int, at time: Double) -> [LoopRequest] {
        guard let fleet else { return [] }
        switch fleet.blobArrived(sha256, payload: payload, length: length) {
        case .ignored, .fetch: return []
        case .refused:
            mqtt?.wantBlobs([])
            reportFleet(now: time)
            return fleet.takeQueued().map { takeBundle($0, at: time) } ?? []
        case .take(let pushed, _):
            mqtt?.wantBlobs([])
            return build(pushed, at: time)
        }
    }

    /// Prepares a taken bundle's configuration like a reload; `reloadPrepared` commits it and
    /// calls `fleetBuilt`. A reload being prepared was read before this bundle: the file is read
    /// again once it is done, with this bundle over it (`Reload.supersede`).
    private func build(_ pushed: KioskConfig, at time: Double) -> [LoopRequest] {
        requestReload(at: time, pushed: scenes.adjusted(pushed))
    }

    /// The build of a taken bundle ended (`failure`: why it was not swapped in; `swapped`:
    /// whether a new scene goes up, else the menu on the glass is already this one).
    package func fleetBuilt(_ failure: String?, swapped: Bool = true, at time: Double) -> [LoopRequest] {
        guard let fleet, let building = fleet.building else { return [] }
        // The reload words its failure after the bundle (`pushedName`); the refusal says it once.
        let prefix = LegacyService.pushedName(building) + ": "
        fleet.built(failure.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }, now: time)
        // Refused now; else `pending` is reported with its first frame (fleetFrameShown), which
        // is the one on the glass already when no new scene goes up.
        if failure != nil {
            reportFleet(now: time)
        } else if !swapped {
            fleetFrameShown(at: time)
        }
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
        guard let fleet else { return [] }
        var requests: [LoopRequest] = []
        // The blobs a taken bundle waits for did not all come: it is refused.
        if fleet.blobsOverdue(now: time) {
            mqtt?.wantBlobs([])
            reportFleet(now: time)
            if let queued = fleet.takeQueued() { requests += takeBundle(queued, at: time) }
        }
        guard fleet.revertIfDue(now: time) else { return requests }
        reportFleet(now: time)
        // The file may be unchanged since it was last read: it is read again all the same,
        // since what goes over it changed.
        reloads.settled = nil
        return requests + requestReload(at: time)
    }

    /// A scene's first frame is on the glass: a pushed configuration's wait starts now.
    package func fleetFrameShown(at time: Double) {
        guard let fleet, fleet.firstFrameShown(now: time) else { return }
        // `pending` (or `confirmed` with confirm_seconds 0), at the flip's time.
        reportFleet(now: time)
    }

    /// A new scene could not paint its first frame. A pushed configuration's is refused and the
    /// confirmed one (or the file) built again in this turn (`reloadNow`), since the loop has no
    /// working scene until then; any other scene's failure ends the run as a failed frame
    /// always did.
    package func sceneFailed(_ why: String, at time: Double) throws -> [LoopRequest] {
        guard let fleet, fleet.firstFrameFailed(why) else { throw SceneFailure(reason: why) }
        reportFleet(now: time)
        return reloadNow(at: time)
    }

    /// Home Assistant discovery of the fleet's entities (`HomeAssistantDiscovery.fleet`).
    package func publishFleetDiscovery() {
        guard fleet != nil, let mqtt, let prefix = mqtt.discoveryPrefix else { return }
        mqtt.announce(.fleet, HomeAssistantDiscovery.fleet(prefix: prefix, topics: mqtt.topics))
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
    package let service: LegacyService
    package var pollDescriptors: [PollDescriptor] { [] }
    package func wakeUp(now: Double) -> Double? { service.fleet?.nextDeadline }
    package func serve(_ polled: [PollDescriptor], now: Double) throws -> [LoopEvent] {
        guard let deadline = service.fleet?.nextDeadline, now >= deadline else { return [] }
        return [.requests(service.revertFleetIfDue(at: now))]
    }

    package init(service: LegacyService) {
        self.service = service
    }
}
