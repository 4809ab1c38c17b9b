import DialCore
import DialRender
import KioskSeams
import LinuxSystem
import KioskReporting
import KioskConfiguration
import KioskLoop
import KioskFeatures
import RemoteView
import TouchInput

/// The steps of `Kiosk.init`, in its order: the output, then what paints on it and hears from
/// it (scenes, input, the service and its sources), then the loop over all of them.
extension Kiosk {
    /// What the loop is built over, made after the output.
    struct Parts {
        let scenes: RunScenes
        let scene: Scene
        let input: RunInput
        let router: FeatureRouter
        let sources: ServiceSources
        let presence: PresenceSource?
    }

    /// The virtual display, or the console, the card's output, its hotplug monitor and its
    /// screen power.
    static func openOutput(_ settings: Settings, _ devices: Devices, resources: ResourceStack,
                           clock: @escaping () -> Double) throws -> RunOutput {
        let config = settings.config
        switch devices.display {
        case .virtual(let spec):
            // A virtual display has no console to switch, no card, no hotplug.
            return resources.acquire(Step.display.rawValue, RunOutput.virtual(
                spec, rotation: .chosen(option: settings.rotate, configured: config.display.rotation, panel: nil),
                origin: clock(), now: clock, logger: devices.logger)) { $0.power.restore() }
        case .kms(let request):
            return try RunOutput.kms(request, settings: settings, resources: resources,
                                     stateDirectory: devices.environment["RUNTIME_DIRECTORY"], logger: devices.logger)
        }
    }

    /// The scenes, the first scene, input and the service with its sources (the remote view,
    /// the clock watch, HDMI-CEC and the presence sensor among them).
    static func openParts(_ settings: Settings, _ devices: Devices, output: RunOutput, resources: ResourceStack,
                          clock: @escaping () -> Double) throws -> Parts {
        let logger = devices.logger, environment = devices.environment
        // The configuration has one owner, the service; `scenes` builds what it shows, at
        // the start, at a reload (called by the service) and at a new mode.
        let scenes = RunScenes(items: settings.items, painter: settings.painter, rotation: output.rotation, panelSize: output.panelSize)
        let config = scenes.adjusted(settings.config)
        let scene = try scenes.build(config, .index(nil))
        // Input after the display: touches map onto the mode's panel size turned by the rotation.
        let panel = output.panelSize()
        let input = try resources.acquire(Step.input.rawValue, try RunInput.open(
            devices.input, panelWidth: panel.width, panelHeight: panel.height, rotation: output.rotation,
            config: config.input, origin: clock(), now: clock, logger: logger)) { $0.close() }
        // The service last: a control socket appears only once the display and input work.
        // STOPPING=1 and the `stopping` line go out before the picture is taken down.
        let router = try resources.acquire(Step.service.rawValue, FeatureRouter(legacy: try LegacyService(
            config: config, configPath: settings.configPath, controlPath: settings.control,
            environment: environment, logger: logger, eventsFD: devices.eventsFD, now: clock(), scenes: scenes),
            environment: environment)) { $0.stop(reason: "exit", now: clock()) }
        let service = router.legacy
        if let fleet = settings.fleet {
            service.fleet = fleet
            service.mqtt?.enableFleet(topic: fleet.settings.topic)
        }
        service.speech.statsEnabled = settings.stats
        var sources = router.pollSources
        if let remote = settings.remote ?? config.remote.map(RunRemoteView.options) {
            sources.last += try openRemoteView(remote, config: config, output: output, scenes: scenes, service: service,
                                           resources: resources, environment: environment, logger: logger)
        }
        // A wall clock set while the loop sleeps (NTP at boot, a resumed VM) wakes it, so the
        // opening hours are looked at again at once rather than at the next deadline.
        if let watch = try? resources.acquire(Step.clockWatch.rawValue, try ClockSetWatch(), release: { $0.close() }) {
            sources.last.append(watch)
        }
        if let setting = config.power.cec {
            sources.last += openCEC(setting, output: output, service: service, resources: resources, clock: clock, logger: logger)
        }
        // The presence sensor (`power.presence`): a key that wakes the screen, never the dial's.
        let presence = config.power.presence.map { setting in
            PresenceSource(sensor: PresenceSensor(device: setting.device, key: setting.key, log: { logger.info($0) },
                                                  status: { [weak service] why in
                if let why { service?.partFailed(.presence, why, log: false) } else { service?.partRecovered(.presence) }
            }))
        }
        return Parts(scenes: scenes, scene: scene, input: input, router: router, sources: sources, presence: presence)
    }

    /// The remote view and its screenshot worker as poll sources; none when the listener cannot
    /// be had (an optional part: it is told, and the dial runs on); a configuration error throws.
    static func openRemoteView(_ remote: RemoteViewServer.Options, config: KioskConfig, output: RunOutput, scenes: RunScenes,
                               service: LegacyService, resources: ResourceStack, environment: [String: String],
                               logger: JournalLogger) throws -> [any PollSource] {
        // Asked for only with a `remote:` section (preview has none): off unless allowed.
        let shots = config.remote.map { _ in ScreenshotWorker(directory: ScreenshotWorker.directory(environment: environment)) }
        do {
            let view = try resources.acquire(Step.remoteView.rawValue, try RunRemoteView.start(
                remote, config: config, rotation: output.rotation, tap: scenes.tap,
                service: service, logger: logger, screenshots: shots)) { $0.close() }
            return [view] + (shots.map { [$0] } ?? [])
        } catch let error as ReportableError where error.exitStatus != .config {
            service.partFailed(.remote, RunRemoteView.failure(error))
            return []
        }
    }

    /// The frame loop over the output, the input, the service's sources and the exit timer.
    static func makeLoop(_ settings: Settings, parts: Parts, signals: SignalWatcher, output: RunOutput, resources: ResourceStack,
                         clock: @escaping () -> Double, logger: JournalLogger) throws -> FrameLoop {
        let timer = try settings.exitAfter.map { seconds in
            try resources.acquire(Step.exitTimer.rawValue, try ExitTimer(seconds: seconds)) { $0.close() }
        }
        // The mode's refresh period: busy retries, render late's next vblank, latency in periods.
        let period = output.refreshHz > 0 ? 1 / output.refreshHz : 1.0 / 60
        var stats: FrameStats?
        if settings.stats {
            stats = FrameStats(refreshPeriod: period, memory: FrameStats.processMemory)
            logger.info("stats: frame clock \(output.clockNote), render late \(settings.renderLate.rawValue)")
        }
        let rotation = output.rotation, input = parts.input, scenes = parts.scenes, service = parts.router.legacy
        let loopOutput = LoopOutput(presenter: output.presenter, vt: output.vt, power: output.power) { width, height, path in
            input.retarget(ScreenTransform(panelWidth: width, panelHeight: height, rotation: rotation))
            return try scenes.build(service.config, .path(path))
        }
        return FrameLoop(output: loopOutput,
                         sources: FrameLoop.sources(signals: signals, timer: timer, displays: output.events,
                                                    inputs: [input.source], service: parts.sources)
                             + (parts.presence.map { [$0] } ?? []),
                         scene: parts.scene, now: clock, service: parts.router,
                         pacing: LoopPacing(schedule: FrameSchedule(refreshPeriod: period),
                                            renderLate: settings.renderLate == .on ? RenderLateSchedule() : nil, stats: stats),
                         log: { logger.info($0) })
    }
}
