import DialCore
import DialRender
import KMSOutput
import KioskSeams
import TouchInput
import Glibc
import LinuxSystem
import KioskReporting
import KioskConfiguration
import KioskLoop
import KioskServiceKit
import RemoteView
import CECLink

/// Everything `run` owns, on one `ResourceStack`: signals, console, display, hotplug monitor, screen power,
/// input, the kiosk service (notify socket, control socket, commands), exit timer. A failure at
/// any step of setup and `close()` release exactly what was set up, in reverse order, through
/// the stack. `close()` is safe twice.
///
/// The console is set up before the display so that the reverse order restores the display
/// first: the saved CRTC (the text console's framebuffer) goes back and master is dropped while
/// the VT is still ours (VT_PROCESS: no switch can slip in while we hold master), and only then
/// KD_TEXT redraws the console onto the framebuffer that is on screen and VT_AUTO hands VT
/// switching back to the kernel. The other way round the console would redraw under our
/// dumb buffer, and a switch in between would find master still held.
final class RunSession {
    /// The setup steps, in the order `init` takes them (teardown is the reverse): the names
    /// on the resource stack.
    enum Step: String, CaseIterable {
        case signals, console, display, hotplug
        /// The backlight back to its saved brightness, the output on (when dimmed or blanked).
        case power = "screen power"
        case input, service
        case remoteView = "remote view"
        /// The wall clock's watch: a clock set while the loop sleeps wakes it.
        case clockWatch = "clock watch"
        /// The HDMI-CEC adapter (`power.cec`): the TV follows the screen.
        case cec = "HDMI-CEC"
        case exitTimer = "exit timer"
    }

    private let resources: ResourceStack
    private let output: RunOutput
    private let service: KioskService
    private let loop: FrameLoop
    private let fling: Double?
    private let logger: JournalLogger
    /// The loop's clock, also for the start, the fling and the service's stop.
    private let clock: () -> Double

    /// - Parameters:
    ///   - config: the loaded configuration (already validated: a bad file never gets here).
    ///   - environment: the process environment (systemd's NOTIFY_SOCKET, WATCHDOG_USEC).
    /// - remote: the remote view to run instead of the configuration's (`preview`).
    init(options: RunOptions, config: KioskConfig, environment: [String: String], logger: JournalLogger,
         remote: RemoteViewServer.Options? = nil, fleet: FleetBridge? = nil) throws {
        self.logger = logger
        let clock: () -> Double = monotonicNow
        self.clock = clock
        // A reader of stdout or stderr that goes away (a closed pipe, a restarted journald) must
        // cost the kiosk its lines, not its life: writes fail with EPIPE instead. For the rest of
        // the process, so the last error message cannot kill it either; item commands get the
        // default back (CommandRunner).
        signal(SIGPIPE, SIG_IGN)
        let resources = ResourceStack()
        self.resources = resources
        do {
            // Signals first, so a SIGTERM during setup is not lost and teardown still runs.
            let signals = try resources.acquire(Step.signals.rawValue, try SignalWatcher()) { $0.close() }
            // A virtual display has no console to switch, no card, no hotplug.
            let output = try options.virtualDisplay.map { spec in
                resources.acquire(Step.display.rawValue, RunOutput.virtual(
                    spec, rotation: .chosen(option: options.rotate, configured: config.display.rotation, panel: nil),
                    origin: clock(), now: clock, logger: logger)) { $0.power.restore() }
            } ?? RunOutput.kms(options: options, config: config, resources: resources,
                                stateDirectory: environment["RUNTIME_DIRECTORY"], logger: logger)
            self.output = output
            let rotation = output.rotation

            // The configuration has one owner, the service; `scenes` builds what it shows, at
            // the start, at a reload (called by the service) and at a new mode.
            let scenes = RunScenes(options: options, output: output)
            let config = scenes.adjusted(config)
            let scene = try scenes.build(config, .index(nil))
            // Input after the display: touches map onto the mode's panel size turned by `rotation`.
            let panel = output.panelSize()
            let input = try resources.acquire(Step.input.rawValue, try RunInput.open(
                options: options, panelWidth: panel.width, panelHeight: panel.height, rotation: rotation,
                config: config.input, origin: clock(), now: clock, logger: logger)) { $0.close() }
            // The service last: a control socket appears only once the display and input work.
            // STOPPING=1 and the `stopping` line go out before the picture is taken down.
            let service = try resources.acquire(Step.service.rawValue, try KioskService(
                config: config, configPath: options.config, controlPath: options.control,
                environment: environment, logger: logger, now: clock(), scenes: scenes)) { $0.stop(reason: "exit", now: clock()) }
            self.service = service
            if let fleet {
                service.fleet = fleet
                service.mqtt?.enableFleet(topic: fleet.settings.topic)
            }
            var serviceSources = service.pollSources
            if let remote = remote ?? config.remote.map(RunRemoteView.options) {
                // Asked for only with a `remote:` section (preview has none): off unless allowed.
                let shots = config.remote.map { _ in ScreenshotWorker(directory: ScreenshotWorker.directory(environment: environment)) }
                // An optional part: a listener that cannot be had is told, and the dial runs on.
                do {
                    let view = try resources.acquire(Step.remoteView.rawValue, try RunRemoteView.start(
                        remote, config: config, rotation: rotation, tap: scenes.tap,
                        service: service, logger: logger, screenshots: shots)) { $0.close() }
                    serviceSources.last.append(view)
                    if let shots { serviceSources.last.append(shots) }
                } catch let error as ReportableError where error.exitStatus != .config {
                    service.partFailed(.remote, RunRemoteView.failure(error))
                }
            }
            // A wall clock set while the loop sleeps (NTP at boot, a resumed VM) wakes it, so the
            // opening hours are looked at again at once rather than at the next deadline.
            if let watch = try? resources.acquire(Step.clockWatch.rawValue, try ClockSetWatch(), release: { $0.close() }) {
                serviceSources.last.append(watch)
            }
            if let setting = config.power.cec {
                serviceSources.last.append(contentsOf: Self.openCEC(setting, output: output, service: service,
                                                                    resources: resources, clock: clock, logger: logger))
            }
            let timer = try options.exitAfter.map { seconds in
                try resources.acquire(Step.exitTimer.rawValue, try ExitTimer(seconds: seconds)) { $0.close() }
            }
            // The mode's refresh period: busy retries, render late's next vblank, latency in periods.
            let period = output.refreshHz > 0 ? 1 / output.refreshHz : 1.0 / 60
            var stats: FrameStats?
            service.speech.statsEnabled = options.stats
            if options.stats {
                stats = FrameStats(refreshPeriod: period, memory: FrameStats.processMemory)
                logger.info("stats: frame clock \(output.clockNote), render late \(options.renderLate.rawValue)")
            }
            let loopOutput = LoopOutput(presenter: output.presenter, vt: output.vt, power: output.power) { width, height, path in
                input.retarget(ScreenTransform(panelWidth: width, panelHeight: height, rotation: rotation))
                return try scenes.build(service.config, .path(path))
            }
            // The presence sensor (`power.presence`): a key that wakes the screen, never the dial's.
            let presence = config.power.presence.map { setting in
                PresenceSource(sensor: PresenceSensor(device: setting.device, key: setting.key, log: { logger.info($0) },
                                                      status: { [weak service] why in
                    if let why { service?.partFailed(.presence, why, log: false) } else { service?.partRecovered(.presence) }
                }))
            }
            loop = FrameLoop(output: loopOutput,
                             sources: FrameLoop.sources(signals: signals, timer: timer, displays: output.events,
                                                        inputs: [input.source], service: serviceSources)
                                 + (presence.map { [$0] } ?? []),
                             scene: scene, now: clock, service: service,
                             pacing: LoopPacing(schedule: FrameSchedule(refreshPeriod: period),
                                                renderLate: options.renderLate == .on ? RenderLateSchedule() : nil, stats: stats),
                             log: { logger.info($0) })
        } catch {
            resources.releaseAll()
            throw error
        }
        fling = options.demoFling
        if options.stats { loop.turns = TurnStats() }
        service.mqtt?.loopFigures = { [weak loop, flips = output.flips] in
            (flips(), loop?.stats?.latencySummary)
        }
    }

    var flipCount: Int { output.flips() }

    /// The CEC adapter `power.cec` names, as a poll source, and ScreenPower's follower; none
    /// (with a `failed` report) when no adapter can be had: the screen is still switched.
    private static func openCEC(_ setting: PowerSettings.CEC, output: RunOutput, service: KioskService,
                                resources: ResourceStack, clock: @escaping () -> Double, logger: JournalLogger) -> [any PollSource] {
        let path: String?
        switch setting {
        case .first: path = nil
        case .path(let given): path = given
        }
        do {
            let display = try resources.acquire(Step.cec.rawValue, try CECDisplay.open(path) { logger.info($0) }) { $0.adapter.close() }
            let source = CECSource(display: display)
            output.power.follower = { [weak source] on in source?.want(on: on, now: clock()) }
            // The kiosk starts lit: the TV switches to it once the logical address is claimed.
            source.want(on: true, now: clock())
            return [source]
        } catch {
            logger.warning("cec: \(error); the TV is not switched")
            service.displayFailed("cec: \(error)", now: clock())
            service.partFailed(.cec, "\(error)", log: false)
            return []
        }
    }

    func run() throws -> FrameLoop.Ending {
        // From here on the loop never waits on stderr: log lines queue, the loop flushes them.
        logger.divert(to: OutputQueue(fd: STDERR_FILENO))
        try loop.start(at: clock())
        if let fling, let geometry = (loop.dial as? MenuDial)?.geometry {
            try loop.inject(DemoFling.events(geometry: geometry, radPerSecond: fling, endTime: clock()))
        }
        let ending = try loop.run()
        service.stop(reason: ending == .signal ? "signal" : "exit-after", now: clock())
        return ending
    }

    /// Releases everything set up, in reverse order (see the type's note); safe twice.
    func close() {
        resources.releaseAll()
        // The last log lines get a moment, never more (systemd's stop timeout is running).
        logger.queue?.drain(within: 0.5)
        logger.divert(to: nil)
    }
}

/// VT switching for the loop: the display stops and drops master before the kernel may switch
/// away, and takes master back after it switched back.
final class ConsoleSwitch: VTSwitching {
    private let display: KMSDisplay
    private let console: VirtualTerminal

    init(display: KMSDisplay, console: VirtualTerminal) {
        self.display = display
        self.console = console
    }

    func release() throws -> [DisplayEvent] {
        let events = display.suspend(.vtReleased)
        try console.allowRelease()
        return events
    }

    func acquire() throws -> [DisplayEvent] {
        try console.acknowledgeAcquire()
        return try display.resume(.vtReleased)
    }
}
