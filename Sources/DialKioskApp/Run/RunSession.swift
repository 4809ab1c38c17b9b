import DialCore
import DialRender
import KMSOutput
import TouchInput
#if canImport(Glibc)
import Glibc
#endif

/// Everything `run` owns, acquired in order and released in reverse: signals, display, console,
/// hotplug monitor, exit timer. `close()` is safe twice and also runs on errors.
final class RunSession: VTSwitching {
    private var signals: SignalWatcher?
    private var display: KMSDisplay?
    private var console: VirtualTerminal?
    private var hotplug: HotplugWatcher?
    private var input: LibinputInputSource?
    private var timer: ExitTimer?
    private let loop: FrameLoop
    private let fling: Double?

    init(options: RunOptions) throws {
        // The configuration first: a bad file fails (78) before the display is touched.
        var config = try ConfigLoader.load(path: options.config)
        if let n = options.items { config.items = DemoMenu.numbered(n) }
        // Signals first, so a SIGTERM during setup is not lost and teardown still runs.
        let signals = try SignalWatcher()
        self.signals = signals
        let display: KMSDisplay
        do {
            display = try OutputOpener.open(device: options.device, connector: options.connector,
                                            mode: options.modeRequest, bufferCount: options.buffers)
        } catch {
            signals.close()
            throw error
        }
        self.display = display
        let sel = display.selection
        let rotation = OutputChoice.rotation(requested: options.rotation, panel: sel.connector.panelOrientation)
        print("run: \(sel.card.path) (\(sel.card.driver)) \(sel.connector.name) \(sel.mode.summary) CRTC \(sel.crtcID), rotation \(rotation.degrees)")

        let logical = rotation.logicalSize(panelWidth: sel.mode.width, panelHeight: sel.mode.height)
        // One setup for run, render and simulate: the same configuration and state paint the
        // same picture (the VM test compares this scanout with `render`).
        let setup = DialSetup(config: config, width: logical.width, height: logical.height)
        let dial = setup.makeDial()
        // The painter works on the logical (upright) frame in RAM; the copy turns it onto the
        // panel, writing the dumb buffer once and never reading it (it may be write-combined).
        let paint: (DialPose, FrameTarget) throws -> Void
        switch options.painter {
        case .dial:
            let painter = try setup.makePainter()
            paint = { pose, target in
                painter.paint(pose)
                DialRender.copy(painter.frame, to: target, rotation: rotation)
            }
        case .flat:
            paint = FlatPainter.paint
        }
        var sources: [DisplayEventSource] = [display]
        if let watcher = try? HotplugWatcher(display: display) {
            hotplug = watcher
            sources.append(watcher)
        }
        // Input after the display: touches map onto the mode's panel size turned by `rotation`.
        let input: LibinputInputSource
        do {
            input = try options.input.makeSource(panelWidth: sel.mode.width, panelHeight: sel.mode.height, rotation: rotation)
        } catch {
            hotplug?.close()
            display.close()
            signals.close()
            throw error
        }
        self.input = input
        loop = FrameLoop(presenter: display, displaySources: sources, inputSources: [input], dial: dial,
                         now: monotonicNow, paint: paint)
        fling = options.demoFling
        loop.signalFD = signals.fd
        loop.readSignals = { signals.drain() }
        if options.stats {
            loop.stats = FrameStats()
            print("stats: frame clock \(display.monotonicTimestamps ? "CLOCK_MONOTONIC flip timestamps" : "read time (no DRM_CAP_TIMESTAMP_MONOTONIC)")")
        }
        if let console = VirtualTerminal(fd: STDIN_FILENO) {
            do {
                try console.enterGraphics(releaseSignal: LoopSignal.vtReleaseSignal, acquireSignal: LoopSignal.vtAcquireSignal)
                self.console = console
                loop.vt = self
            } catch {
                console.restore()
                print("run: console left in text mode: \(error)")
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

    func run() throws -> FrameLoop.Ending {
        try loop.start(at: monotonicNow())
        if let fling, let geometry = (loop.dial as? Dial)?.geometry {
            try loop.inject(DemoFling.events(geometry: geometry, radPerSecond: fling, endTime: monotonicNow()))
        }
        return try loop.run()
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
    }
}
