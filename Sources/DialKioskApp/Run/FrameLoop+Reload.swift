import DialCore

/// A reload whose icons are decoded off the loop (`ReloadWorker`): the file is read in the
/// turn that asked (parsing is bounded by the file-size limit), the worker decodes while the old
/// menu keeps running and the watchdog keeps being pinged, and the turn that sees it done builds
/// the dial and painter from the decoded icons and swaps them in. Still one transaction: a
/// broken file or a failed build changes nothing.
extension FrameLoop {
    /// SIGHUP or `reload` with a worker: starts preparing, or remembers the request when a
    /// reload is being prepared already (it runs when that one is done; the latest wins).
    func startReload(_ worker: ReloadWorker, _ service: KioskService, at time: Double) throws {
        if worker.isBusy {
            if !worker.pending { service.logger.info("reload: another reload is being prepared; reading the file again after it") }
            worker.pending = true
            return
        }
        let decided = service.readForReload(now: time)
        guard case .apply(let config, let changes) = decided else {
            return service.endReload(decided, now: time)
        }
        do {
            try worker.start(config: config, changes: changes)
        } catch {
            service.logger.warning("reload: \(error); decoding the icons in the loop instead")
            try finishReload(decided, at: time)
        }
    }

    /// The worker is done: swap in the prepared configuration, unless a newer reload was asked
    /// for meanwhile (then the file is read again and this one is dropped).
    func reloadPrepared(_ config: KioskConfig, _ changes: ConfigReload.Changes, at time: Double) throws {
        guard let service, let worker = service.reloadWorker else { return }
        if worker.pending {
            worker.pending = false
            service.logger.info("reload: a newer reload came while this one was prepared; reading the file again")
            return try startReload(worker, service, at: time)
        }
        try finishReload(.apply(config, changes), at: time)
        // The old menu's icons go; the new painter holds its own.
        let job = worker.job(service.config)
        worker.icons.keepOnly(paths: job.paths, box: job.box)
    }

    /// After a dial change that made no events of its own (start, reload, new scene): the
    /// event lines that bring clients' view of the menu to the dial's (`KioskService.resync`).
    func resyncEvents(at time: Double, previousMenu: MenuTree? = nil) {
        guard let service, let menu = dial as? MenuDial else { return }
        service.resync(ring: menu.ring, selected: menu.selectedPath, now: time, previousMenu: previousMenu)
    }
}
