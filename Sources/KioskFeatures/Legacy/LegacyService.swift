import DialCore
import KioskSeams
import KioskReporting
import KioskConfiguration
import KioskLoop
import OpeningHours
import LinuxSystem

/// The part of the service not yet split into features (`FeatureRouter` holds it beside them):
/// event lines on stdout and the control socket, the behaviour timers, the screen's policy,
/// MQTT, live items, speech, the fleet and the reload. It owns the notifier (which the router
/// sends the features' notifications through) and the control server; `stop` tears them down
/// in reverse order and is safe to call twice. What it tells the features goes on the bus
/// (`takeNews`: item commands for `ItemCommands`, activated items for `LanguageSwitch`); what
/// they tell it comes back by `hear` (the language shown).
package final class LegacyService {
    package internal(set) var config: KioskConfig
    package let configPath: String?
    package let logger: JournalLogger
    private let notifier: SystemdNotifier
    /// News for the features, taken by the router after each message (`takeNews`).
    private var outbox: [FeatureNews] = []
    private let control: ControlServer?
    /// Event lines on stdout, never waited on: a reader that stops loses lines (counted and
    /// logged), the kiosk goes on.
    private let events: OutputQueue
    package internal(set) var idle: IdleSchedule
    private var stopped = false
    /// The broker link (the `mqtt:` section); nil without one.
    package let mqtt: MQTTBridge?
    /// Live items' states and the open value dial (LegacyService+Live.swift).
    package let live = LiveService()
    /// Speech and sound cues (the `accessibility:` section; silent without it).
    package let speech: SpeechBridge
    /// A resync's lines made before the first frame was shown (the start on the default item):
    /// they follow `started` (nil once it went).
    private var beforeStart: [(KioskEvent, MenuTree?)]? = []
    /// The screen's one owner (the loop's, handed over by `attach`): the service changes its
    /// policy and reports its state.
    package internal(set) var screen: ScreenPower = .painted()
    /// Told of a reloaded `remote:` section (the remote view, which the service does not know).
    package var remoteChanged: ((RemoteSettings?) -> Void)?
    /// The opening hours on the wall clock, and the last power state told (LegacyService+Screen).
    var hours: HoursWatch
    /// Why the display behind the output (an HDMI-CEC TV) did not follow; nil while it does.
    var displayFailure: String?
    /// The optional parts that cannot work now (LegacyService+Problems.swift).
    package internal(set) var problems = PartProblems()
    /// The ring options Home Assistant's select was last given (discovery is rebuilt only when they change).
    private var discoveredOptions: [String]?
    /// The remote entities discovery last announced (nil: none; true: with screenshots).
    private var discoveredRemote: Bool??
    /// The language codes discovery last announced (their select, with two or more).
    private var discoveredLanguages: [String]?
    /// Remote viewers connected now (their `viewer` lines), for `<base>/state`.
    package internal(set) var viewers = 0
    /// When the last screenshot was taken (ISO 8601, UTC), for `<base>/state`.
    package internal(set) var screenshotAt: String?
    /// Starts a screenshot for a client (the remote view's, set by the app): nil when it is
    /// being taken, else why it cannot be.
    package var takeScreenshot: ((ControlServer.ClientID) -> String?)?
    /// Builds the scene of each configuration the service takes on (`run`: DialSetup's dial and
    /// painter at the mode's size), and holds the reload worker when there is one.
    package let scenes: SceneBuilding
    /// The reload in preparation, and the file's last stamp (Reload.swift).
    package let reloads: Reload
    /// Pushed configurations (the `fleet:` section); nil without one. Set before the loop starts.
    package var fleet: FleetBridge?
    /// Why the last reload (or pushed configuration) was not swapped in; nil when it was.
    package internal(set) var lastReloadFailure: String?
    /// Lines a remote input can cause at will (an MQTT command for an unknown item, a reload of an
    /// unchanged file): at most one per 10 s, with the count held back.
    var remoteLog = LogRateLimit(interval: 10)
    /// The reason of the last refused reload: the same again is rate-limited.
    var lastRefusal: String?
    var refusalLog = LogRateLimit(interval: 10)
    /// What the event lines told clients of the menu so far: the open ring and the selected slot.
    package private(set) var told = EventStreamView()
    /// The language the texts are shown and spoken in, as `LanguageSwitch` last said
    /// (`languageShown`; nil: the configuration's default, or it has no `languages:`), and the
    /// menu with its texts in it (event lines, speech, state).
    package internal(set) var language: String?
    package internal(set) var shownMenu: MenuTree
    /// The loop-clock time the service was made (the language's return counts from it).
    package let createdAt: Double

    /// - Parameters:
    ///   - environment: the process environment (NOTIFY_SOCKET, WATCHDOG_USEC, JOURNAL_STREAM).
    ///   - controlPath: `--control PATH`, or nil for no socket.
    ///   - eventsFD: where event lines go (stdout, 1).
    ///   - config: the configuration as it runs (`scenes.adjusted` already applied).
    ///   - scenes: how a configuration becomes the loop's scene (none: a reload keeps the scene).
    ///   - wallClock: seconds since 1970 (CLOCK_REALTIME) and the local zone, for the opening
    ///     hours; tests pass a fake.
    package init(config: KioskConfig, configPath: String?, controlPath: String?, environment: [String: String],
         logger: JournalLogger, eventsFD: Int32 = 1, now: Double, scenes: SceneBuilding = KeepingScene(),
         wallClock: @escaping () -> Double = HoursWatch.realtime, localClock: LocalClock = LocalClock()) throws {
        self.config = config
        shownMenu = config.menu
        createdAt = now
        hours = HoursWatch(wallClock: wallClock, local: localClock, environment: environment)
        self.scenes = scenes
        reloads = Reload(offTheLoop: scenes.preparesOffTheLoop)
        self.configPath = configPath
        self.logger = logger
        notifier = SystemdNotifier(environment: environment)
        control = try controlPath.map { try ControlServer(path: $0, logger: logger) }
        events = OutputQueue(fd: eventsFD)
        events.report = { [logger] report in
            switch report {
            case .dropped(let lines):
                logger.warning("events: dropped \(lines) event lines: standard output was not being read")
            case .closed(let code):
                logger.warning(SystemCallError("write event lines to standard output", errno: code.rawValue).description
                               + "; no more event lines go there")
            }
        }
        idle = Self.timers(config.behaviour, start: now)
        speech = SpeechBridge(logger: logger)
        mqtt = config.mqtt.map { settings in
            // A password that cannot be read holds the connection until a reload reads it.
            let password = Result { try MQTTBridge.password(settings, environment: environment) }
            let bridge = MQTTBridge(settings: settings, password: try? password.get(), machineID: MQTTBridge.machineID(),
                                    logger: logger, now: now)
            if case .failure(let error) = password { bridge.holdForPassword(settings, environment: environment, why: error) }
            bridge.bindLive(config.menu)
            return bridge
        }
        mqtt?.guardedReports = { [live] in live.guardedReports }
        speech.onProblem = { [weak self] why in
            if let why { self?.partFailed(.speech, why, log: false) } else { self?.partRecovered(.speech) }
        }
        checkZone()
    }

    deinit { stop(reason: "exit", now: .nan) }

    /// The first frame is on the glass: systemd may call the service started.
    package func started(now: Double) {
        emit(.started(time: now, items: config.items.count))
        let held = beforeStart ?? []
        beforeStart = nil
        for (event, menu) in held { emit(event, menu: menu) }
        // The hours decide from the first frame on (a blank before it would switch off an
        // output not yet lit): the next tick looks at them.
        hours.started = true
        screenNews(at: now)
        if let fleet, let mqtt {
            mqtt.publishRetained(topic: mqtt.topics.base + "/config/state", payload: fleet.stateLine.text)
            publishFleetDiscovery()
        }
    }

    /// Reports the dial's events; an `activated` item's command is started (found by its path:
    /// ids repeat across rings).
    package func report(_ dialEvents: [DialEvent], frames: Int) {
        for event in dialEvents {
            // Behind a resync line still held for `started`: clients read where the dial rested
            // first, then what moved it (input can come before the first flip).
            guard event.hasLine else { continue }
            if let held = beforeStart, !held.isEmpty {
                beforeStart!.append((.dial(event, frames: frames), shownMenu))
            } else {
                emit(.dial(event, frames: frames))
            }
            told.apply(event)
            if case .activated(_, let path, let time) = event, let item = config.menu.node(at: path)?.item {
                outbox.append(.runCommand(item, path: path, at: time, timeout: item.commandTimeout ?? config.behaviour.commandTimeout,
                                          extra: [:]))
                outbox.append(.activated(item, path: path, at: time))
            }
        }
        if !dialEvents.isEmpty { publishState() }
    }

    /// Housekeeping on every loop turn (after poll returns): the behaviour timers and the
    /// hours. Returns the behaviour actions that came due.
    package func tick(now: Double) -> [BehaviourAction] {
        var actions: [BehaviourAction] = []
        for signal in idle.advance(to: now) {
            switch signal {
            case .returnToDefault: actions.append(.returnToDefault)
            case .idle: if screen.change({ $0.idled() }) { actions.append(.repaint) }
            }
        }
        actions += checkHours(now: now)
        if !actions.isEmpty { screenNews(at: now) }
        return actions
    }

    /// The latest time the loop may sleep until (for poll's timeout or a timerfd), or nil.
    package func nextWakeup(now: Double) -> Double? {
        var times: [Double] = []
        if let deadline = idle.nextDeadline { times.append(deadline) }
        if let deadline = hours.deadline { times.append(deadline) }
        if let due = live.nextWakeup() { times.append(max(now, due)) }
        return times.min()
    }

    /// An input event as the screen's owner admitted it, before the dial gets what
    /// `InputRoute` gives it: activity for the idle timers, speech stops, and the speech keys (the audio side's, never the dial's) act.
    package func input(_ event: InputEvent, admission: ScreenPolicy.Admission, screenChanged: Bool) {
        switch admission {
        case .dial(let activity):
            if activity { idle.activity(at: event.time) }
        case .woke:
            idle.activity(at: event.time)
        case .swallowed:
            break
        }
        if screenChanged { screenNews(at: event.time) }
        speech.touched(now: event.time)
        if case .command(.speech(let what), let time) = event {
            switch what {
            case .repeatLast: speech.repeatLast(settings: speechSettings, now: time)
            case .toggle: speech.setSpeech(nil, settings: speechSettings, now: time)
            }
        }
    }

    /// `screen on|off|dim`: the screen goes there now (`on` counts as activity).
    package func setScreen(_ target: PowerState, now: Double) -> [BehaviourAction] {
        if target == .on { idle.activity(at: now) }
        let changed = screen.change { $0.request(target) }
        screenNews(at: now)
        return changed ? [.repaint] : []
    }

    /// `brightness N`: 0 is off, 100 on, between dims to N percent.
    package func setBrightness(_ percent: Int, now: Double) -> [BehaviourAction] {
        if percent == 100 { idle.activity(at: now) }
        let changed = screen.setBrightness(percent)
        screenNews(at: now)
        return changed ? [.repaint] : []
    }

    /// The retained `<base>/state` and Home Assistant's select options, from `told` (what the
    /// event lines said): the options first when they changed, so the state never names an
    /// option the select entity does not have yet.
    package func publishState() {
        guard let mqtt else { return }
        var state = MQTTState(path: told.selected, menu: shownMenu, screen: screen.state.state, brightness: screen.brightness)
        state.language = config.languages.isEmpty ? nil : (language ?? config.languages[0].code)
        state.reason = displayFailure == nil ? screen.state.reason : .failed
        state.viewers = config.remote == nil ? nil : viewers
        state.screenshotAt = screenshotAt
        state.problems = problems.lines
        let remote = config.remote.map(\.screenshots)
        let languages = config.languages.map(\.code)
        if let prefix = mqtt.discoveryPrefix,
           state.ringOptions != discoveredOptions || remote != discoveredRemote || languages != discoveredLanguages {
            discoveredOptions = state.ringOptions
            discoveredRemote = remote
            discoveredLanguages = languages
            mqtt.announce(.dial, HomeAssistantDiscovery.configs(prefix: prefix, topics: mqtt.topics,
                                                                ringOptions: state.ringOptions,
                                                                languages: languages, remote: remote))
        }
        mqtt.publishState(state.line)
    }

    /// The queues the loop flushes when their descriptors become writable: event lines, and the
    /// log lines while the logger is diverted.
    package var outputQueues: [OutputQueue] { [events] + (logger.queue.map { [$0] } ?? []) }

    /// The control socket's descriptors, for poll.
    package var pollDescriptors: [PollDescriptor] { control?.pollDescriptors ?? [] }

    /// This turn's commands from the control socket (`ready`: its descriptors after poll), at
    /// most one `reload` among them. `show` also wakes the screen (its actions come back
    /// through `wake`).
    package func handleControl(_ ready: [PollDescriptor], now: Double) -> [ControlServer.Request] {
        control?.turn(ready, now: now) ?? []
    }

    /// Control-socket lines wait that an earlier turn's budget left: poll must not sleep.
    package var hasControlBacklog: Bool { control?.hasBacklog ?? false }

    /// Tells one control client a command failed (for example `select` of an unknown id).
    package func replyError(_ request: ControlServer.Request, _ message: String, now: Double) {
        if request.client == .mqtt {
            if let heldBack = remoteLog.admit(now: now) { logger.warning("mqtt: \(message); nothing changed" + LogRateLimit.suffix(heldBack)) }
            return
        }
        control?.reply(to: request.client, .kiosk(.error(time: now, message: message), menu: .empty))
    }

    /// One line to one control-socket client.
    func reply(to client: ControlServer.ClientID, _ line: EventLine) {
        control?.reply(to: client, line)
    }

    /// An outside wake-up (`show`).
    package func wake(now: Double) -> [BehaviourAction] {
        idle.activity(at: now)
        let changed = screen.change { $0.wake() }
        if changed { screenNews(at: now) }
        return changed ? [.repaint] : []
    }

    /// The dial changed without events of its own (a start on a nested item, a reload, a new
    /// scene): prints what brings clients' view to `ring` with `selected` at the top (`closed`
    /// per ring left, `opened` per ring entered, `selected`). `previousMenu` words the `closed`
    /// lines of rings that a reload took away.
    package func resync(ring: MenuPath, selected: MenuPath?, now: Double, previousMenu: MenuTree? = nil) {
        for event in told.events(toReach: ring, selected: selected, at: now, index: { config.menu.index(of: $0) }) {
            if case .closed = event, let previousMenu {
                emitAfterStart(.dial(event, frames: 0), menu: previousMenu)
            } else {
                emitAfterStart(.dial(event, frames: 0))
            }
            told.apply(event)
        }
        publishState()
    }

    /// On the way out (after the router's STOPPING=1): the `stopping` line, then the control
    /// socket closes.
    package func stop(reason: String, now: Double) {
        guard !stopped else { return }
        stopped = true
        let held = beforeStart ?? []
        beforeStart = nil
        for (event, menu) in held { emit(event, menu: menu) }
        if now.isFinite { emit(.stopping(time: now, reason: reason)) }
        // The last lines get a moment, never more: systemd's stop timeout is running.
        events.drain(within: 0.5)
        speech.stop()
        mqtt?.stop()
        control?.close()
        notifier.close()
    }

    /// A resync's line: before the first frame it waits for `started`.
    private func emitAfterStart(_ event: KioskEvent, menu: MenuTree? = nil) {
        guard beforeStart == nil else { return beforeStart!.append((event, menu ?? shownMenu)) }
        emit(event, menu: menu)
    }

    /// A value item's command, with the value in its environment: news for `ItemCommands`.
    func runCommand(_ item: MenuItem, path: MenuPath, now: Double, extra: [String: String]) {
        outbox.append(.runCommand(item, path: path, at: now, timeout: item.commandTimeout ?? config.behaviour.commandTimeout,
                                  extra: extra))
    }

    /// The news left for the features since the last call.
    package func takeNews() -> [FeatureNews] {
        defer { outbox.removeAll() }
        return outbox
    }

    func emit(_ event: KioskEvent, menu: MenuTree? = nil) {
        emit(EventLine.kiosk(event, menu: menu ?? shownMenu))
    }

    /// An event line of another part of the kiosk (the remote view's `viewer` lines): on
    /// stdout, to control-socket clients and to the broker, as the dial's own lines go.
    package func emit(_ line: EventLine) {
        events.append(line: line.text)
        control?.broadcast(line)
        mqtt?.publishEvent(line)
    }

    /// Sends systemd notifications (the router's and the reload's).
    package func notify(_ messages: [NotifyMessage]) {
        do {
            try notifier.send(messages)
        } catch {
            logger.warning("\(error)")
        }
    }
}
