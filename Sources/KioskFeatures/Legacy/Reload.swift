import Synchronization
import LinuxSystem
import KioskReporting
import FleetConfig
import KioskConfiguration
import KioskLoop

/// A reload (SIGHUP, `reload`, a pushed configuration, a fleet revert), start to end: the
/// request on the loop, the preparation off it, then one short commit on the loop or a refusal
/// with the located error.
///
/// - Request (loop): an unchanged file (its stamp, `ReloadStamp`) ends here with a log line;
///   otherwise a preparation starts on a thread of its own.
/// - Prepare (worker): read and parse the file, decide what changed (`ConfigReload`), and build
///   the whole new scene: the menu model, the painter with its icons, fonts, sprites, labels,
///   rings and background (`SceneBuilding.preparation`). The loop never waits for it: the
///   worker closes its end of a pipe when done, and the loop's one poll sees the hang-up.
/// - Commit (loop): the configuration, timers and event lines swap in the service, and the
///   loop is asked to put the prepared scene up (`LoopRequest.replaceScene`): a new dial on
///   the prepared painter, nothing more.
///
/// Storms coalesce: requests while a preparation reads the file make it read again before it
/// builds (the latest file wins); requests after it began building start one more preparation
/// once it is committed, so a steady stream of requests still lands each preparation.
///
/// Every applied change rebuilds the whole scene: `ConfigReload.Changes` decides only what
/// needs a restart (display, input) and what the service re-applies (timers, the remote view,
/// MQTT); since the build is off the loop, a whole build costs the loop no more than a partial.
package final class Reload {
    /// What a preparation made, handed from the worker to the loop.
    package enum Outcome: @unchecked Sendable {
        /// The file says what runs (`stamp`: the file read).
        case unchanged(stamp: ReloadStamp?)
        /// The file is broken: keep running, report the error with its line.
        case keep(ConfigError)
        /// The configuration is valid but its scene could not be built (a missing font).
        case failed(String)
        /// Ready to commit; `scene` is nil without a painter (tests that drive the service alone).
        case ready(KioskConfig, ConfigReload.Changes, scene: PreparedScene?, stamp: ReloadStamp?)
        /// Read before what goes over the file changed (`Reload.drop`): nothing to commit; the
        /// file is read again.
        case dropped
    }

    /// The inputs of one preparation, taken on the loop when it starts. The closures only read
    /// values captured then (`adjust` is the scene builder's pure `adjusted` with the fleet
    /// overlay of that moment), so the worker shares nothing with the loop but `Shared`.
    struct Job: @unchecked Sendable {
        /// A pushed configuration, adjusted already (nil: read the file).
        let pushed: KioskConfig?
        let path: String?
        let current: KioskConfig
        let language: String?
        let adjust: (KioskConfig) -> KioskConfig
        /// Log lines the preparation leaves for the loop (the worker never logs itself).
        let notes: Notes
        let scene: ((KioskConfig, String?) throws -> PreparedScene)?

        /// Reads (again while newer requests came meanwhile), then builds.
        func run(_ shared: Shared) -> Outcome {
            var decided: ConfigReload.Outcome
            var stamp: ReloadStamp?
            repeat {
                let generation = shared.generation.withLock { $0 }
                shared.readAt.withLock { $0 = generation }
                if let pushed {
                    decided = ConfigReload.decide(current: current, loaded: .success(pushed))
                } else {
                    stamp = path.flatMap(ReloadStamp.of)
                    shared.parsed.withLock { $0 += 1 }
                    decided = ConfigReload.reload(path: path, current: current, adjusted: adjust)
                }
            } while shared.generation.withLock { $0 } != shared.readAt.withLock { $0 }
            switch decided {
            case .unchanged: return .unchanged(stamp: stamp)
            case .keep(let error): return .keep(error)
            case .apply(let new, let changes):
                // The texts in the language shown, as the commit will keep it.
                let language = new.languages.contains { $0.code == self.language } ? self.language : nil
                do {
                    return .ready(new, changes, scene: try scene?(new, language), stamp: stamp)
                } catch {
                    return .failed("\(path ?? "demo menu"): \(error)")
                }
            }
        }
    }

    /// Log lines a preparation leaves for the loop.
    final class Notes: Sendable {
        let lines = Mutex<[String]>([])
    }

    /// What the worker and the loop share: the request count (bumped by the loop), the count
    /// the last read began at, and the files parsed.
    final class Shared: Sendable {
        let generation = Mutex(0)
        let readAt = Mutex(0)
        let parsed = Mutex(0)
    }

    /// A preparation on its thread (its outcome comes back through the thread's pipe), and
    /// whether it carries a pushed configuration.
    private var inFlight: (shared: Shared, worker: ThreadJob<Outcome>, job: Job)?
    /// One more preparation follows the one in flight (a request came after it began
    /// building, or a pushed configuration its fleet overlay does not hold).
    private var again = false
    /// The preparation in flight is dropped when done (`drop`).
    private var dropped = false
    /// Whether preparations run on a thread (`run`); else in the turn that asked (the tests that
    /// step the loop by hand, and when no thread can be started).
    package let offTheLoop: Bool
    /// The file's stamp when it was last read with nothing left to do (unchanged, or applied):
    /// an unchanged file is not parsed again.
    var settled: ReloadStamp?
    /// Requests, and files parsed (the flood tests count them).
    package internal(set) var requests = 0
    private var parsedBefore = 0

    /// The worker thread's nice value (the loop's is the process's, 0 under the unit): below the
    /// loop, as the two share the cores, and a reload prepared a little later is better than a
    /// dial that stutters while it is.
    static let workerNice: Int32 = 10

    package init(offTheLoop: Bool) {
        self.offTheLoop = offTheLoop
    }

    /// A preparation runs.
    package var isBusy: Bool { inFlight != nil }

    /// Files parsed so far.
    package var parsed: Int { parsedBefore + (inFlight?.shared.parsed.withLock { $0 } ?? 0) }

    /// The descriptor to poll while a preparation runs.
    package var pollDescriptors: [PollDescriptor] {
        inFlight.map { [$0.worker.pollDescriptor] } ?? []
    }

    /// A request while a preparation runs: it reads again, or one more follows it (`force`: even
    /// when the file read is the latest, for a pushed configuration).
    func supersede(force: Bool) {
        guard let inFlight else { return }
        inFlight.shared.generation.withLock { $0 += 1 }
        if force { again = true }
    }

    /// The preparation in flight read a configuration that may no longer run (a pushed one
    /// refused at its first frame): its outcome is dropped, and the file read again after it.
    func drop() {
        guard inFlight != nil else { return }
        (dropped, again) = (true, true)
    }

    /// Runs `job` inline, or starts it on its own thread (nil comes back then).
    func start(_ job: Job) throws -> Outcome? {
        precondition(inFlight == nil, "one preparation at a time")
        let shared = Shared()
        guard offTheLoop else {
            defer { parsedBefore += shared.parsed.withLock { $0 } }
            return job.run(shared)
        }
        let worker = try ThreadJob.start("reload worker", nice: Reload.workerNice) { job.run(shared) }
        inFlight = (shared, worker, job)
        return nil
    }

    /// The outcome once the worker is done (its pipe hung up), else nil; `again`: one more
    /// preparation should follow.
    func finished(_ polled: [PollDescriptor]) -> (outcome: Outcome, pushed: Bool, again: Bool, notes: [String])? {
        guard let inFlight, let outcome = inFlight.worker.finished(in: polled) else { return nil }
        self.inFlight = nil
        parsedBefore += inFlight.shared.parsed.withLock { $0 }
        let newer = inFlight.shared.generation.withLock { $0 } != inFlight.shared.readAt.withLock { $0 }
        defer { (again, dropped) = (false, false) }
        return (dropped ? .dropped : outcome, inFlight.job.pushed != nil, again || newer, inFlight.job.notes.lines.withLock { $0 })
    }
}

/// The reload worker's pipe: its hang-up says a preparation is done; the commit's requests go
/// to the loop.
package struct ReloadCompletion: PollSource {
    package let service: LegacyService
    package var pollDescriptors: [PollDescriptor] { service.reloads.pollDescriptors }
    package func serve(_ polled: [PollDescriptor], now: Double) throws -> [LoopEvent] {
        guard let done = service.reloads.finished(polled) else { return [] }
        for line in done.notes { service.logger.warning(line) }
        return [.requests(service.reloadPrepared(done.outcome, pushed: done.pushed, again: done.again, at: now))]
    }

    package init(service: LegacyService) {
        self.service = service
    }
}

extension LegacyService {
    /// SIGHUP, `reload`, a fleet revert, or a pushed configuration (`pushed`, its local sections
    /// merged in): RELOADING=1, then the preparation starts. Returns what the loop must do now
    /// (the commit's requests when the preparation ran in this turn).
    package func requestReload(at time: Double, pushed: KioskConfig? = nil) -> [LoopRequest] {
        reloads.requests += 1
        if reloads.isBusy {
            if pushed == nil, let heldBack = remoteLog.admit(now: time) {
                logger.info("reload: another reload is being prepared; it reads the file again" + LogRateLimit.suffix(heldBack))
            }
            // A pushed configuration is built by the read that follows (`reloadPrepared`).
            reloads.supersede(force: pushed != nil)
            return []
        }
        notify([.reloading(monotonicMicroseconds: UInt64(max(0, time) * 1_000_000))])
        // A password file changed since the start is read again (a reload is how it is told).
        mqtt?.retryPassword(now: time)
        if pushed == nil, let stamp = configPath.flatMap(ReloadStamp.of), stamp.matches(reloads.settled) {
            return reloadPrepared(.unchanged(stamp: stamp), pushed: false, again: false, at: time)
        }
        let notes = Reload.Notes()
        let job = reloadJob(pushed: pushed, notes: notes)
        var outcome: Reload.Outcome
        do {
            guard let inline = try reloads.start(job) else { return [] }
            outcome = inline
        } catch {
            logger.warning("reload: \(error); preparing it in the loop instead")
            outcome = job.run(Reload.Shared())
        }
        for line in notes.lines.withLock({ $0 }) { logger.warning(line) }
        return reloadPrepared(outcome, pushed: pushed != nil, again: false, at: time)
    }

    /// A pushed configuration's first frame failed, and the loop has no scene that paints: the
    /// file (with the confirmed bundle over it) is read and its scene built in this turn, not
    /// off the loop, so the loop's next frame is the confirmed menu's. A preparation in flight
    /// read the refused configuration: it is dropped, and the file read again after it.
    package func reloadNow(at time: Double) -> [LoopRequest] {
        reloads.requests += 1
        reloads.drop()
        // What goes over the file changed: read it even when it did not.
        reloads.settled = nil
        notify([.reloading(monotonicMicroseconds: UInt64(max(0, time) * 1_000_000))])
        let notes = Reload.Notes()
        let outcome = reloadJob(pushed: nil, notes: notes).run(Reload.Shared())
        for line in notes.lines.withLock({ $0 }) { logger.warning(line) }
        return reloadPrepared(outcome, pushed: false, again: false, at: time)
    }

    /// One preparation's inputs, taken now.
    private func reloadJob(pushed: KioskConfig?, notes: Reload.Notes) -> Reload.Job {
        Reload.Job(pushed: pushed, path: configPath, current: config, language: language,
                   adjust: reloadAdjustment(notes), notes: notes, scene: scenes.preparation())
    }

    /// What turns a file's configuration into the running one, for the worker: `run --items`,
    /// and the fleet's active bundle over it as it is now.
    private func reloadAdjustment(_ notes: Reload.Notes) -> (KioskConfig) -> KioskConfig {
        let adjusted = scenes.adjusted
        guard let fleet, let active = fleet.active else { return adjusted }
        let allow = fleet.settings.allowCommands, blobs = fleet.store.blobDirectory
        return { local in
            switch FleetAcceptance.content(active, local: local, allowCommands: allow, blobDirectory: blobs) {
            case .success(let config): return adjusted(config)
            case .failure(let refusal):
                notes.lines.withLock {
                    $0.append("fleet: serial \(active.serial) does not fit the local file any more (\(refusal)); running the local file")
                }
                return adjusted(local)
            }
        }
    }

    /// A preparation ended: commit or refuse, READY=1; then a pushed configuration's build is
    /// reported, and one more preparation starts when requests came meanwhile.
    package func reloadPrepared(_ outcome: Reload.Outcome, pushed: Bool, again: Bool, at time: Double) -> [LoopRequest] {
        // A pushed configuration is built by its own preparation, or by the read that follows
        // the one it came behind (`again`), not by a preparation that read before it came.
        let building = pushed || (fleet?.building != nil && !again) ? fleet?.building : nil
        var requests = commitReload(outcome, at: time, bundle: building)
        notify([.ready])
        if pushed || (fleet?.building != nil && !again) {
            let swapped = requests.contains { if case .replaceScene = $0 { true } else { false } }
            requests += fleetBuilt(lastReloadFailure, swapped: swapped, at: time)
        }
        if again {
            logger.info("reload: a newer reload came while this one was prepared; reading the file again")
            // A pushed configuration waits for this read: the file is read even when it did
            // not change, since what goes over it did.
            if fleet?.building != nil { reloads.settled = nil }
            requests += requestReload(at: time)
        }
        return requests
    }

    /// The commit, in one short step: the configuration, timers, screen policy and `reloaded`
    /// line swap in here, and the loop is asked to put the prepared scene up. A broken file or
    /// a failed build changes nothing: the error is logged, and a later reload of the same
    /// file tries again (the running configuration is still the old one).
    /// `bundle`: the pushed bundle this preparation builds; a failure names it, not the file.
    private func commitReload(_ outcome: Reload.Outcome, at now: Double, bundle: ConfigBundle? = nil) -> [LoopRequest] {
        let source = configPath ?? "demo menu"
        lastReloadFailure = nil
        func named(_ reason: String) -> String {
            guard let bundle else { return reason }
            let prefix = source + ": "
            return Self.pushedName(bundle) + ": " + (reason.hasPrefix(prefix) ? String(reason.dropFirst(prefix.count)) : reason)
        }
        switch outcome {
        case .unchanged(let stamp):
            if let stamp { reloads.settled = stamp }
            if let heldBack = remoteLog.admit(now: now) { logger.info("reload: \(source): no change" + LogRateLimit.suffix(heldBack)) }
            return []
        case .keep(let error):
            refuseReload(named(error.description), now: now)
            return []
        case .failed(let reason):
            refuseReload(named(reason), now: now)
            return []
        case .dropped:
            return []
        case .ready(let new, let changes, let scene, let stamp):
            let oldMenu = config.menu
            let mqttChanged = new.mqtt != config.mqtt
            config = new
            reloads.settled = stamp
            // The new menu in the language shown (the default if the new file lacks it).
            if !new.languages.contains(where: { $0.code == language }) { language = nil }
            shownMenu = new.menu.translated(to: language)
            idle = Self.timers(new.behaviour, start: now)
            // The new timers start awake: the screen goes back to the hours and idle with them
            // (else a touch would reach the dial of a screen that stays dark).
            screen.change { $0.auto() }
            configureScreen()
            checkZone()
            _ = checkHours(now: now, force: true)
            emit(.reloaded(time: now, items: new.items.count))
            if mqttChanged { logger.warning("reload: mqtt settings take effect at the next start") }
            screenNews(at: now)
            notify([.status("Showing \(new.items.count) items")])
            var requests: [LoopRequest] = []
            if let scene {
                requests.append(.replaceScene(make: scene.make, previousMenu: oldMenu))
                // The language was switched while the scene was prepared: show the current one.
                if language != scene.language { requests.append(.language(language)) }
            }
            if changes.needsOutputRestart {
                logger.warning("reload: display settings (device, connector, mode, rotation) take effect at the next start")
            }
            if changes.needsInputRestart {
                logger.warning("reload: input settings (seat, calibration, wheel_click) take effect at the next start")
            }
            if changes.contains(.remote) { remoteChanged?(config.remote) }
            logger.info("reload: \(source): \(new.items.count) items")
            // The screen's owner went back to the hours and the new timers: the picture follows.
            requests.append(.repaint)
            return requests
        }
    }

    /// How the journal names a pushed bundle: its serial and the file name its errors carry.
    static func pushedName(_ bundle: ConfigBundle) -> String {
        "pushed serial \(bundle.serial) (\(FleetAcceptance.fileName(serial: bundle.serial)))"
    }

    private func refuseReload(_ reason: String, now: Double) {
        lastReloadFailure = reason
        // A flood of reloads of one broken file: the same reason once per 10 s.
        if reason != lastRefusal {
            refusalLog = LogRateLimit(interval: 10)
            _ = refusalLog.admit(now: now)
            logger.error("reload: \(reason); keeping the running configuration")
        } else if let heldBack = refusalLog.admit(now: now) {
            logger.error("reload: \(reason); keeping the running configuration" + LogRateLimit.suffix(heldBack))
        }
        lastRefusal = reason
        notify([.status("Reload failed: \(reason)")])
    }
}
