import DialCore
import DialRender
import KMSOutput
import TouchInput
import Glibc
import LinuxSystem

/// Everything `run` owns, on one `ResourceStack`: signals, console, display, hotplug monitor,
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
        case signals, console, display, hotplug, input, service
        case exitTimer = "exit timer"
    }

    private let resources: ResourceStack
    private let display: KMSDisplay
    private let service: KioskService
    private let loop: FrameLoop
    private let fling: Double?
    private let logger: JournalLogger
    /// The loop's clock, also for the start, the fling and the service's stop.
    private let clock: () -> Double

    /// - Parameters:
    ///   - config: the loaded configuration (already validated: a bad file never gets here).
    ///   - environment: the process environment (systemd's NOTIFY_SOCKET, WATCHDOG_USEC).
    init(options: RunOptions, config: KioskConfig, environment: [String: String], logger: JournalLogger) throws {
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
            let console = resources.acquire(Step.console.rawValue, RunSession.graphicsConsole(logger: logger)) { $0?.restore() }
            let output = options.display(with: config.display)
            let display = try resources.acquire(Step.display.rawValue, try OutputOpener.open(
                device: output.device, connector: output.connector, mode: output.mode,
                bufferCount: options.buffers, api: options.kmsAPI)) { $0.close() }
            self.display = display
            let sel = display.selection
            let rotation = OutputChoice.rotation(requested: output.rotation, panel: sel.connector.panelOrientation)
            logger.info("run: \(sel.card.path) (\(sel.card.driver)) \(sel.connector.name) \(sel.mode.summary) CRTC \(sel.crtcID), rotation \(rotation.degrees), KMS API \(display.api.rawValue)")

            let makeScene = { (config: KioskConfig, index: Int?) throws -> Scene in
                // The mode's size now: a hotplug may have set a new one.
                let logical = rotation.logicalSize(panelWidth: display.selection.mode.width, panelHeight: display.selection.mode.height)
                var config = config
                if let n = options.items { config.items = DemoMenu.numbered(n) }
                return try RunSession.scene(config: config, restingOn: index, width: logical.width, height: logical.height,
                                            rotation: rotation, painter: options.painter)
            }
            var config = config
            if let n = options.items { config.items = DemoMenu.numbered(n) }
            let scene = try makeScene(config, nil)
            let hotplug = resources.acquire(Step.hotplug.rawValue, try? HotplugWatcher(display: display)) { $0?.close() }
            // Input after the display: touches map onto the mode's panel size turned by `rotation`.
            let input = try resources.acquire(Step.input.rawValue, try options.input.makeSource(
                panelWidth: sel.mode.width, panelHeight: sel.mode.height, rotation: rotation,
                config: config.input, format: logger.format, logger: logger)) { $0.context.close() }
            // The service last: a control socket appears only once the display and input work.
            // STOPPING=1 and the `stopping` line go out before the picture is taken down.
            let service = try resources.acquire(Step.service.rawValue, try KioskService(
                config: config, configPath: options.config, controlPath: options.control,
                environment: environment, logger: logger, now: clock())) { $0.stop(reason: "exit", now: clock()) }
            self.service = service
            let timer = try options.exitAfter.map { seconds in
                try resources.acquire(Step.exitTimer.rawValue, try ExitTimer(seconds: seconds)) { $0.close() }
            }
            // The mode's refresh period: busy retries, render late's next vblank, latency in periods.
            let period = sel.mode.refreshHz > 0 ? 1 / sel.mode.refreshHz : 1.0 / 60
            var stats: FrameStats?
            if options.stats {
                stats = FrameStats(refreshPeriod: period, memory: FrameStats.processMemory)
                logger.info("stats: frame clock \(display.monotonicTimestamps ? "CLOCK_MONOTONIC flip timestamps" : "read time (no DRM_CAP_TIMESTAMP_MONOTONIC)"), KMS API \(display.api.rawValue)\(display.takesDamageClips ? " (FB_DAMAGE_CLIPS)" : ""), render late \(options.renderLate.rawValue)")
            }
            let displays: [DisplayEventSource] = [display] + (hotplug.map { [$0] } ?? [])
            loop = FrameLoop(presenter: display,
                             sources: FrameLoop.sources(signals: signals, timer: timer, displays: displays,
                                                        inputs: [input], service: service),
                             scene: scene, now: clock, service: service,
                             vt: console.map { ConsoleSwitch(display: display, console: $0) },
                             rebuild: makeScene, stats: stats, schedule: FrameSchedule(refreshPeriod: period),
                             renderLate: options.renderLate == .on ? RenderLateSchedule() : nil,
                             power: ScreenPower.forDisplay(display, logger: logger),
                             resize: { width, height, index in
                                 input.retarget(ScreenTransform(panelWidth: width, panelHeight: height, rotation: rotation))
                                 return try makeScene(service.config, index)
                             },
                             log: { logger.info($0) })
        } catch {
            resources.releaseAll()
            throw error
        }
        fling = options.demoFling
    }

    /// The VT on stdin in graphics mode with VT_PROCESS switching, or nil: not a VT, or the
    /// ioctls failed (the kiosk still runs; the console just is not switched).
    private static func graphicsConsole(logger: JournalLogger) -> VirtualTerminal? {
        guard let console = VirtualTerminal(fd: STDIN_FILENO) else { return nil }
        do {
            try console.enterGraphics(releaseSignal: LoopSignal.vtReleaseSignal, acquireSignal: LoopSignal.vtAcquireSignal)
            return console
        } catch {
            console.restore()
            logger.warning("run: console left in text mode: \(error)")
            return nil
        }
    }

    var flipCount: Int { display.flipCount }

    /// The dial and painter for `config` on a `width` x `height` logical frame, built through
    /// DialSetup (as `render --config` builds them, so both paint the same frame). The painter
    /// works on the upright frame in RAM; the copy turns it onto the panel, writing the dumb
    /// buffer once and never reading it (it may be write-combined).
    static func scene(config: KioskConfig, restingOn index: Int?, width: Int, height: Int,
                      rotation: DisplayRotation, painter choice: PainterChoice) throws -> Scene {
        let setup = DialSetup(config: config, width: width, height: height)
        let dial = setup.makeDial(restingOn: index)
        switch choice {
        case .dial:
            let painter = try setup.makePainter()
            let copier = ScanoutCopy(rotation: rotation)
            return Scene(dial: dial) { pose, target in
                let damage = painter.paint(pose)
                return copier.copy(painter.frame, damage: damage, to: target)
            }
        case .flat:
            return Scene(dial: dial) { FlatPainter.paint($0, into: $1); return nil }
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
        // The backlight back to its saved brightness (a no-op when not dimmed; safe twice).
        loop.power?.restore()
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
