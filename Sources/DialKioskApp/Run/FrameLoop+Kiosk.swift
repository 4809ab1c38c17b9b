import DialCore

/// The loop's side of the kiosk service: behaviour timers, control-socket commands and
/// reloads. Each ends in at most one new frame, queued the same way input queues one.
extension FrameLoop {
    /// Carries out what the behaviour timers decided.
    func apply(_ actions: [IdleSchedule.Action], at time: Double) throws {
        for action in actions {
            switch action {
            case .returnToDefault:
                report(dial.returnToTop(at: time))
                try frameIfDue(at: time)
            case .dim, .blank, .wake:
                log("screen: \(action)")
                power?.apply(action)
                try repaint(at: time)
            }
        }
    }

    /// `select <path>`, `activate`, `back`, `show`, `hide`, `reload`. Each counts as activity,
    /// so a command also wakes a dark screen.
    func perform(_ request: ControlServer.Request, at time: Double) throws {
        guard let service else { return }
        switch request.command {
        case .select(let path):
            // Checked first: a path that names nothing must not wake a dark screen.
            guard service.config.menu.isSlot(path) else {
                let what = path.depth == 1 ? "id" : "path"
                service.replyError(request, "no item with \(what) '\(path)'", now: time)
                return
            }
            try apply(service.wake(now: time), at: time)
            report(dial.select(path: path, at: time) ?? [])
        case .back:
            try apply(service.wake(now: time), at: time)
            report(dial.handle(.command(.back, time: time)))
        case .activate:
            try apply(service.wake(now: time), at: time)
            report(dial.handle(.command(.activate, time: time)))
        case .show:
            try apply(service.wake(now: time), at: time)
            dial.setShown(true, at: time)
        case .hide:
            dial.setShown(false, at: time)
        case .reload:
            try reload(at: time)
        case .screen(let request):
            let target: IdleSchedule.Screen = request == .on ? .awake : request == .dim ? .dimmed : .blanked
            try apply(service.setScreen(target, now: time), at: time)
        case .brightness(let percent):
            power?.dimLevel = Double(percent) / 100
            let target: IdleSchedule.Screen = percent == 0 ? .blanked : percent == 100 ? .awake : .dimmed
            service.brightness = percent
            var actions = service.setScreen(target, now: time)
            // Already dimmed at another level: the backlight follows the new one.
            if actions.isEmpty && target == .dimmed { actions = [.dim] }
            try apply(actions, at: time)
        case .repeatSpeech:
            service.speech.repeatLast(settings: service.config.accessibility, now: time)
        case .speech(let on):
            service.speech.setSpeech(on, settings: service.config.accessibility, now: time)
        }
        service.publishState()
        try frameIfDue(at: time)
    }

    /// SIGHUP or `reload`: a valid changed file gets a new dial and painter (built the way
    /// `render --config` builds them) resting on the same item when its id still exists, and a
    /// repaint. Everything is built before anything changes, so a file that cannot be built
    /// (a missing font or icon) leaves the running menu whole: picture, items, `select`, event
    /// ids and commands stay the old menu's (the service logged why).
    func reload(at time: Double) throws {
        guard let service else { return }
        // With a worker (run), the icons are decoded off the loop first (FrameLoop+Reload.swift).
        if let worker = service.reloadWorker { return try startReload(worker, service, at: time) }
        try finishReload(service.readForReload(now: time), at: time)
    }

    /// The second half of a reload: the configuration `decided` (read from the file) becomes a
    /// new dial and painter and is swapped in, in this turn.
    func finishReload(_ decided: ConfigReload.Outcome, at time: Double) throws {
        guard let service else { return }
        let oldItems = service.config.items
        let oldMenu = service.config.menu
        // Below the top, `selectedIndex` counts in that ring: keep the top item on the way there.
        let ring = dial.pose.ring
        let keptID = ring.ids.first ?? dial.selectedIndex.flatMap { oldItems.indices.contains($0) ? oldItems[$0].id : nil }
        let rebuild = self.rebuild
        let applied = service.reload(decided, now: time) { config, _ -> Scene? in
            let index = keptID.flatMap { id in config.items.firstIndex { $0.id == id } }
            return try rebuild?(config, index)
        }
        guard let (scene, changes) = applied else { return }
        if let scene {
            replaceScene(scene)
            resyncEvents(at: time, previousMenu: oldMenu)
        }
        if changes.needsOutputRestart {
            service.logger.warning("reload: display settings (device, connector, mode, rotation) take effect at the next start")
        }
        if changes.needsInputRestart {
            service.logger.warning("reload: input settings (seat, calibration) take effect at the next start")
        }
        service.logger.info("reload: \(service.configPath ?? "demo menu"): \(service.config.items.count) items")
        try repaint(at: time)
    }
}
