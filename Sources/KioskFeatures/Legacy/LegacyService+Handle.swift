import DialCore
import KioskSeams
import KioskConfiguration
import KioskLoop

/// What the service's own sources found, passed through the loop as `LoopMessage.news` (values
/// only: the service never holds the loop).
package enum KioskNews: ServiceNews {
    /// A control-socket or broker command.
    case command(ControlServer.Request)
    /// Live items' changes of this turn wait for their flush (`liveDue`).
    case liveDue
    /// The language's return time has come (`LanguageSwitch.returnDeadline`; the feature's).
    case languageDue
    /// The presence sensor's key.
    case presence
    /// The display behind the output (an HDMI-CEC TV) did not follow (`displayFailed`); the
    /// reason is logged as a warning.
    case displayFailed(String)
    /// It follows again (`displayFollowed`); `note` is logged.
    case displayFollowed(note: String)
    /// It went to standby on its own (`displayStandby`); `note` is logged.
    case displayStandby(note: String)
}

/// The service's side of the loop (`LoopService`): the loop's news in, the requests it must
/// carry out back; control commands move the dial by `.dial` requests, each ends in at most one
/// new frame, queued the way input queues one. A reload is Reload.swift's: the service owns the
/// configuration and commits it with the scene prepared off the loop, in one transaction.
extension LegacyService: LoopService {
    /// The loop's screen owner: from now on the only screen state the service reads.
    package func attach(screen power: ScreenPower) {
        screen = power
        configureScreen()
    }

    package func handle(_ message: LoopMessage, at time: Double, dial: DialSnapshot) throws -> [LoopRequest] {
        switch message {
        case .dialEvents(let events, let frames):
            // Called every frame, events or not: sound cues follow the detents the ring crosses.
            let events = liveFilter(events)
            report(events, frames: frames)
            speech.observe(events, pose: dial.pose, settings: speechSettings, menu: shownMenu, now: time,
                           states: live.items.states)
        case .firstFrameShown:
            started(now: time)
        case .dialReplaced(let previousMenu):
            guard let ring = dial.ring else { return [] }
            resync(ring: ring, selected: dial.selectedPath, now: time, previousMenu: previousMenu)
            return liveReplaced(previousMenu: previousMenu)
        case .hangUp:
            return requestReload(at: time)
        case .sceneShown:
            fleetFrameShown(at: time)
        case .sceneFailed(let why):
            return try sceneFailed(why, at: time)
        case .input(let event, let admission, let screenChanged):
            input(event, admission: admission, screenChanged: screenChanged)
        case .news(let news):
            guard let news = news as? KioskNews else { return [] }
            return try answer(news, at: time, dial: dial)
        }
        return []
    }

    private func answer(_ news: KioskNews, at time: Double, dial: DialSnapshot) throws -> [LoopRequest] {
        switch news {
        case .command(let request):
            return perform(request, at: time, dial: dial)
        case .liveDue:
            return flushLive(at: time)
        case .languageDue:
            // `LanguageSwitch`'s.
            break
        case .presence:
            return [.apply(presence(now: time))]
        case .displayFailed(let why):
            logger.warning(why)
            displayFailed(why, now: time)
        case .displayFollowed(let note):
            logger.info(note)
            displayFollowed(now: time)
        case .displayStandby(let note):
            logger.info(note)
            return [.apply(displayStandby(now: time))]
        }
        return []
    }

    /// `select <path>`, `activate`, `back`, `show`, `hide`, `reload`. Each counts as activity,
    /// so a command also wakes a dark screen. Returns what the loop must do, in order.
    package func perform(_ request: ControlServer.Request, at time: Double, dial: DialSnapshot) -> [LoopRequest] {
        // A screenshot changes nothing on the glass: no activity, no frame.
        if case .screenshot = request.command {
            screenshot(request, at: time)
            return []
        }
        if let requests = performLive(request, at: time, dial: dial) { return requests }
        var requests: [LoopRequest] = []
        switch request.command {
        case .setItem, .turn, .screenshot:
            break
        case .language(let code):
            guard config.languages.contains(where: { $0.code == code }) else {
                let codes = config.languages.map(\.code)
                replyError(request, codes.isEmpty ? "no languages are configured" : "no language '\(code)'; languages: "
                           + codes.joined(separator: ", "), now: time)
                return []
            }
            // The switch and the command's frame are `LanguageSwitch`'s, after this wake.
            let woke = wake(now: time)
            publishState()
            return [.apply(woke)]
        case .select(let path):
            // Moving the ring elsewhere closes an open value dial first.
            let closing: [LoopRequest] = dial.pose.valueDial != nil ? [.dial(.closeValue)] : []
            // Checked first: a path that names nothing must not wake a dark screen.
            guard config.menu.isSlot(path) else {
                let what = path.depth == 1 ? "id" : "path"
                replyError(request, "no item with \(what) '\(path)'", now: time)
                return closing
            }
            requests += closing + [.apply(wake(now: time)), .dial(.select(path))]
        case .back:
            requests += [.apply(wake(now: time)), .dial(.command(.back))]
        case .activate:
            requests += [.apply(wake(now: time)), .dial(.command(.activate))]
        case .show:
            requests += [.apply(wake(now: time)), .dial(.setShown(true))]
        case .hide:
            requests.append(.dial(.setShown(false)))
        case .reload:
            requests += requestReload(at: time)
        case .screen(.auto):
            requests.append(.apply(screenAuto(now: time)))
        case .screen(let request):
            let target: PowerState = request == .on ? .on : request == .dim ? .dim : .off
            requests.append(.apply(setScreen(target, now: time)))
        case .brightness(let percent):
            requests.append(.apply(setBrightness(percent, now: time)))
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
            requests += takeBundle(bytes, at: time)
        case .configBlob(let sha256, let payload, let length):
            requests += takeBlob(sha256, payload, length: length, at: time)
        }
        publishState()
        return requests + [.frameIfDue]
    }
}
