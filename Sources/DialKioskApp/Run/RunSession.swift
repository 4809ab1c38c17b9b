import DialCore
import DialRender
import KMSOutput
import TouchInput
import Glibc

/// Everything `run` owns, acquired in order and released in reverse: signals, display, hotplug
/// monitor, input, the kiosk service (notify socket, control socket, commands), console, exit
/// timer. `close()` is safe twice and also runs on errors.
final class RunSession: VTSwitching {
    private var signals: SignalWatcher?
    private var display: KMSDisplay?
    private var console: VirtualTerminal?
    private var hotplug: HotplugWatcher?
    private var input: LibinputInputSource?
    private var timer: ExitTimer?
    private var service: KioskService?
    private let loop: FrameLoop
    private let fling: Double?
    private let logger: JournalLogger

    /// - Parameters:
    ///   - config: the loaded configuration (already validated: a bad file never gets here).
    ///   - environment: the process environment (systemd's NOTIFY_SOCKET, WATCHDOG_USEC).
    init(options: RunOptions, config: KioskConfig, environment: [String: String], logger: JournalLogger) throws {
        self.logger = logger
        // A reader of stdout or stderr that goes away (a closed pipe, a restarted journald) must
        // cost the kiosk its lines, not its life: writes fail with EPIPE instead. For the rest of
        // the process, so the last error message cannot kill it either; item commands get the
        // default back (CommandRunner).
        signal(SIGPIPE, SIG_IGN)
        // Signals first, so a SIGTERM during setup is not lost and teardown still runs.
        let signals = try SignalWatcher()
        self.signals = signals
        let output = options.display(with: config.display)
        let display: KMSDisplay
        do {
            display = try OutputOpener.open(device: output.device, connector: output.connector,
                                            mode: output.mode, bufferCount: options.buffers,
                                            api: options.kmsAPI)
        } catch {
            signals.close()
            throw error
        }
        self.display = display
        let sel = display.selection
        let rotation = OutputChoice.rotation(requested: output.rotation, panel: sel.connector.panelOrientation)
        logger.info("run: \(sel.card.path) (\(sel.card.driver)) \(sel.connector.name) \(sel.mode.summary) CRTC \(sel.crtcID), rotation \(rotation.degrees), KMS API \(display.api.rawValue)")

        var config = config
        if let n = options.items { config.items = DemoMenu.numbered(n) }
        let makeScene = { (config: KioskConfig, index: Int?) throws -> Scene in
            // The mode's size now: a hotplug may have set a new one.
            let logical = rotation.logicalSize(panelWidth: display.selection.mode.width, panelHeight: display.selection.mode.height)
            return try RunSession.scene(config: config, restingOn: index, width: logical.width, height: logical.height,
                                 rotation: rotation, painter: options.painter)
        }
        let scene: Scene
        do {
            scene = try makeScene(config, nil)
        } catch {
            display.close()
            signals.close()
            throw error
        }
        var sources: [DisplayEventSource] = [display]
        if let watcher = try? HotplugWatcher(display: display) {
            hotplug = watcher
            sources.append(watcher)
        }
        // Input after the display: touches map onto the mode's panel size turned by `rotation`.
        let input: LibinputInputSource
        do {
            input = try options.input.makeSource(panelWidth: sel.mode.width, panelHeight: sel.mode.height, rotation: rotation,
                                                 config: config.input, format: logger.format, logger: logger)
        } catch {
            hotplug?.close()
            display.close()
            signals.close()
            throw error
        }
        self.input = input
        loop = FrameLoop(presenter: display, displaySources: sources, inputSources: [input], dial: scene.dial,
                         now: monotonicNow, paint: scene.paint)
        loop.log = { logger.info($0) }
        fling = options.demoFling
        loop.signalFD = signals.fd
        loop.readSignals = { signals.drain() }
        // The service last: a control socket appears only once the display and input work.
        do {
            service = try KioskService(config: config, configPath: options.config, controlPath: options.control,
                                       environment: environment, logger: logger, now: monotonicNow())
        } catch {
            close()
            throw error
        }
        loop.service = service
        loop.power = ScreenPower.forDisplay(display, logger: logger)
        loop.resize = { [unowned self] width, height, index in
            self.input?.retarget(ScreenTransform(panelWidth: width, panelHeight: height, rotation: rotation))
            return try self.loop.rebuild?(self.service?.config ?? config, index) ?? makeScene(config, index)
        }
        loop.rebuild = { config, index in
            var config = config
            if let n = options.items { config.items = DemoMenu.numbered(n) }
            return try makeScene(config, index)
        }
        if options.stats {
            loop.stats = FrameStats()
            logger.info("stats: frame clock \(display.monotonicTimestamps ? "CLOCK_MONOTONIC flip timestamps" : "read time (no DRM_CAP_TIMESTAMP_MONOTONIC)"), KMS API \(display.api.rawValue)\(display.takesDamageClips ? " (FB_DAMAGE_CLIPS)" : "")")
        }
        if let console = VirtualTerminal(fd: STDIN_FILENO) {
            do {
                try console.enterGraphics(releaseSignal: LoopSignal.vtReleaseSignal, acquireSignal: LoopSignal.vtAcquireSignal)
                self.console = console
                loop.vt = self
            } catch {
                console.restore()
                logger.warning("run: console left in text mode: \(error)")
            }
        }
        if let seconds = options.exitAfter {
            let timer = try ExitTimer(seconds: seconds)
            self.timer = timer
            loop.timerFD = timer.fd
            loop.timerExpired = { timer.expired() }
        }
    }

    var flipCount: Int { display?.flipCount ?? 0 }

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
        try loop.start(at: monotonicNow())
        if let fling, let geometry = (loop.dial as? Dial)?.geometry {
            try loop.inject(DemoFling.events(geometry: geometry, radPerSecond: fling, endTime: monotonicNow()))
        }
        let ending = try loop.run()
        service?.stop(reason: ending == .signal ? "signal" : "exit-after", now: monotonicNow())
        return ending
    }

    // MARK: VTSwitching

    func release() throws -> [DisplayEvent] {
        let events = display?.suspend(.vtReleased) ?? []
        try console?.allowRelease()
        return events
    }

    func acquire() throws -> [DisplayEvent] {
        try console?.acknowledgeAcquire()
        return try display?.resume(.vtReleased) ?? []
    }

    /// Reverse order of acquisition.
    func close() {
        // STOPPING=1 and the `stopping` line first, while the picture is still up.
        service?.stop(reason: "exit", now: monotonicNow())
        service = nil
        loop.power?.restore()
        timer?.close()
        timer = nil
        input?.context.close()
        input = nil
        hotplug?.close()
        hotplug = nil
        console?.restore()
        console = nil
        display?.close()
        display = nil
        signals?.close()
        signals = nil
        // The last log lines get a moment, never more (systemd's stop timeout is running).
        logger.queue?.drain(within: 0.5)
        logger.divert(to: nil)
    }
}
