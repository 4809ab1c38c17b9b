import DialCore
import KioskSeams
import KioskConfiguration
import KioskLoop

/// The service's side of the loop (`LoopService`): control-socket commands and reloads act on
/// the loop's dial and scene; each ends in at most one new frame, queued the way input queues
/// one. The service owns the configuration and has the scene for a reload built (`scenes`), so
/// a reload has one owner and one transaction.
extension KioskService: LoopService {
    /// The loop's screen owner: from now on the only screen state the service reads.
    package func attach(screen power: ScreenPower) {
        screen = power
        configureScreen()
    }

    package func handle(_ message: LoopMessage, at time: Double, on loop: any LoopControl) throws {
        switch message {
        case .dialEvents(let events, let frames):
            // Called every frame, events or not: sound cues follow the detents the ring crosses.
            let events = liveFilter(events, pose: loop.dial.pose)
            report(events, frames: frames)
            speech.observe(events, pose: loop.dial.pose, settings: speechSettings, menu: shownMenu, now: time,
                           states: live.items.states)
            try chooseLanguage(from: events, at: time, on: loop)
        case .firstFrameShown:
            started(now: time)
        case .dialReplaced(let previousMenu):
            guard let menu = loop.dial as? MenuDial else { return }
            resync(ring: menu.ring, selected: menu.selectedPath, now: time, previousMenu: previousMenu)
            liveReplaced(previousMenu: previousMenu, on: loop)
        case .hangUp:
            try reload(at: time, on: loop)
        }
    }

    /// `select <path>`, `activate`, `back`, `show`, `hide`, `reload`. Each counts as activity,
    /// so a command also wakes a dark screen.
    package func perform(_ request: ControlServer.Request, at time: Double, on loop: any LoopControl) throws {
        // A screenshot changes nothing on the glass: no activity, no frame.
        if case .screenshot = request.command { return screenshot(request, at: time) }
        lastInput = max(lastInput, time)
        if try performLive(request, at: time, on: loop) { return }
        switch request.command {
        case .setItem, .turn, .screenshot:
            break
        case .language(let code):
            guard let language = config.languages.first(where: { $0.code == code }) else {
                let codes = config.languages.map(\.code)
                replyError(request, codes.isEmpty ? "no languages are configured" : "no language '\(code)'; languages: "
                           + codes.joined(separator: ", "), now: time)
                return
            }
            try loop.apply(wake(now: time), at: time)
            try setLanguage(language.code, at: time, on: loop)
        case .select(let path):
            // Checked first: a path that names nothing must not wake a dark screen.
            guard config.menu.isSlot(path) else {
                let what = path.depth == 1 ? "id" : "path"
                replyError(request, "no item with \(what) '\(path)'", now: time)
                return
            }
            try loop.apply(wake(now: time), at: time)
            loop.report(loop.dial.select(path: path, at: time) ?? [])
        case .back:
            try loop.apply(wake(now: time), at: time)
            loop.report(loop.dial.handle(.command(.back, time: time)))
        case .activate:
            try loop.apply(wake(now: time), at: time)
            loop.report(loop.dial.handle(.command(.activate, time: time)))
        case .show:
            try loop.apply(wake(now: time), at: time)
            loop.dial.setShown(true, at: time)
        case .hide:
            loop.dial.setShown(false, at: time)
        case .reload:
            try reload(at: time, on: loop)
        case .screen(.auto):
            try loop.apply(screenAuto(now: time), at: time)
        case .screen(let request):
            let target: PowerState = request == .on ? .on : request == .dim ? .dim : .off
            try loop.apply(setScreen(target, now: time), at: time)
        case .brightness(let percent):
            try loop.apply(setBrightness(percent, now: time), at: time)
        case .repeatSpeech:
            speech.repeatLast(settings: speechSettings, now: time)
        case .speech(let on):
            speech.setSpeech(on, settings: speechSettings, now: time)
        case .confirmConfig(let serial):
            confirmFleet(request, serial: serial, at: time)
        case .oversizedBundle(let bytes):
            if let fleet {
                _ = fleet.refuseOversized(bytes: bytes)
                reportFleet(now: time)
            }
        case .configBundle(let bytes):
            try takeBundle(bytes, at: time, on: loop)
        }
        publishState()
        try loop.frameIfDue(at: time)
    }

    /// SIGHUP or `reload`: a valid changed file gets a new dial and painter (built the way
    /// `render --config` builds them) resting on the same item when its id still exists, and a
    /// repaint. Everything is built before anything changes, so a file that cannot be built
    /// (a missing font or icon) leaves the running menu whole: picture, items, `select`, event
    /// ids and commands stay the old menu's (the service logged why).
    package func reload(at time: Double, on loop: any LoopControl) throws {
        // With a worker (run), the icons are decoded off the loop first (KioskService+Reload.swift).
        if let worker = reloadWorker { return try startReload(worker, at: time, on: loop) }
        try finishReload(readForReload(now: time), at: time, on: loop)
    }

    /// The second half of a reload: the configuration `decided` (read from the file) becomes a
    /// new dial and painter and is swapped in, in this turn.
    package func finishReload(_ decided: ConfigReload.Outcome, at time: Double, on loop: any LoopControl) throws {
        let oldItems = config.items
        let oldMenu = config.menu
        // Below the top, `selectedIndex` counts in that ring: keep the top item on the way there.
        let ring = loop.dial.pose.ring
        let keptID = ring.ids.first ?? loop.dial.selectedIndex.flatMap { oldItems.indices.contains($0) ? oldItems[$0].id : nil }
        let scenes = self.scenes
        let applied = reload(decided, now: time) { config, _ -> Scene? in
            let index = keptID.flatMap { id in config.items.firstIndex { $0.id == id } }
            return try scenes.scene(for: config, resting: .index(index))
        }
        guard let (scene, changes) = applied else { return }
        if let scene {
            loop.replaceScene(scene, at: time, previousMenu: oldMenu)
            // The new scene is built in the default language: show the current one.
            if language != nil { try loop.carryOut(.language(language), at: time) }
        }
        if changes.needsOutputRestart {
            logger.warning("reload: display settings (device, connector, mode, rotation) take effect at the next start")
        }
        if changes.needsInputRestart {
            logger.warning("reload: input settings (seat, calibration, wheel_click) take effect at the next start")
        }
        if changes.contains(.remote) { remoteChanged?(config.remote) }
        logger.info("reload: \(configPath ?? "demo menu"): \(config.items.count) items")
        // The screen's owner went back to the hours and the new timers (`reload`): the picture
        // follows.
        try loop.repaint(at: time)
    }
}
