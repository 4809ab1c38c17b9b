import DialCore
import KioskSeams
import KioskConfiguration
import KioskLoop

/// The service's side of the loop (`LoopService`): control-socket commands act on the loop's
/// dial; each ends in at most one new frame, queued the way input queues one. A reload is
/// Reload.swift's: the service owns the configuration and commits it with the scene prepared
/// off the loop, in one transaction.
extension KioskService: LoopService {
    /// The loop's screen owner: from now on the only screen state the service reads.
    package func attach(screen power: ScreenPower) {
        screen = power
        configureScreen()
    }

    package func handle(_ message: LoopMessage, at time: Double, on loop: any LoopControl) throws -> [LoopRequest] {
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
            guard let menu = loop.dial as? MenuDial else { return [] }
            resync(ring: menu.ring, selected: menu.selectedPath, now: time, previousMenu: previousMenu)
            liveReplaced(previousMenu: previousMenu, on: loop)
        case .hangUp:
            return requestReload(at: time)
        case .sceneShown:
            fleetFrameShown(at: time)
        case .sceneFailed(let why):
            return try sceneFailed(why, at: time)
        }
        return []
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
            try loop.carryOut(requestReload(at: time), at: time)
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
            try loop.carryOut(takeBundle(bytes, at: time), at: time)
        case .configBlob(let sha256, let payload, let length):
            try loop.carryOut(takeBlob(sha256, payload, length: length, at: time), at: time)
        }
        publishState()
        try loop.frameIfDue(at: time)
    }
}
