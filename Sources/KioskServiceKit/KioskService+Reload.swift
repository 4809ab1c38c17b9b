import DialCore
import KioskConfiguration
import KioskLoop

/// A reload whose icons are decoded off the loop (`ReloadWorker`): the file is read in the
/// turn that asked (parsing is bounded by the file-size limit), the worker decodes while the old
/// menu keeps running and the watchdog keeps being pinged, and the turn that sees it done builds
/// the dial and painter from the decoded icons and swaps them in. Still one transaction: a
/// broken file or a failed build changes nothing.
extension KioskService {
    /// SIGHUP or `reload` with a worker: starts preparing, or remembers the request when a
    /// reload is being prepared already (it runs when that one is done; the latest wins).
    package func startReload(_ worker: ReloadWorker, at time: Double, on loop: any LoopControl) throws {
        if worker.isBusy {
            if !worker.pending { logger.info("reload: another reload is being prepared; reading the file again after it") }
            worker.pending = true
            return
        }
        let decided = readForReload(now: time)
        guard case .apply(let config, let changes) = decided else {
            endReload(decided, now: time)
            return try fleetReadEnded(decided, at: time, on: loop)
        }
        do {
            try worker.start(config: config, changes: changes)
        } catch {
            logger.warning("reload: \(error); decoding the icons in the loop instead")
            try finishReload(decided, at: time, on: loop)
        }
    }

    /// The worker is done: swap in the prepared configuration, and when a newer reload was
    /// asked for meanwhile read the file again after it. Applying the prepared one first keeps
    /// reloads coming faster than one is prepared from starving: each finished preparation
    /// lands, and the latest file still wins (an unchanged file is not parsed again).
    package func reloadPrepared(_ config: KioskConfig, _ changes: ConfigReload.Changes, at time: Double, on loop: any LoopControl) throws {
        guard let worker = reloadWorker else { return }
        let again = worker.pending
        worker.pending = false
        do {
            // The scene build takes the worker's painter; one it did not take (the menu did not
            // change, or the build failed) goes with the reload.
            defer { worker.shelf.clear() }
            try finishReload(.apply(config, changes), at: time, on: loop)
            // A pushed configuration was being built: it runs now, or is refused.
            try fleetBuilt(lastReloadFailure, at: time, on: loop)
            // The old menu's icons go; the new painter holds its own.
            let job = worker.job(self.config)
            worker.icons.keepOnly(paths: job.paths, box: job.box)
        }
        if again {
            logger.info("reload: a newer reload came while this one was prepared; reading the file again")
            try startReload(worker, at: time, on: loop)
        }
    }
}
