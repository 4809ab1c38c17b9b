import DialCore
import KMSOutput
import KioskSeams
import LinuxSystem
import KioskReporting
import KioskConfiguration
import KioskLoop

/// What `run` paints on and hears from: a DRM card's output (with its hotplug monitor, power
/// switch, backlight and console), or the virtual display of `--display virtual:WxH@Hz`.
package struct RunOutput {
    let presenter: FramePresenter
    /// The flip events (and hotplug) the loop polls.
    let events: [DisplayEventSource]
    /// The mode's size now, in panel pixels (a hotplug may set a new one).
    let panelSize: () -> (width: Int, height: Int)
    let refreshHz: Double
    let rotation: DisplayRotation
    let power: ScreenPower
    let vt: VTSwitching
    /// Flips since start, for the last log line.
    let flips: () -> Int
    /// How the frame clock is read, for `--stats`' first line.
    let clockNote: String

    /// The virtual display, vblank 0 at `origin` on the loop's clock `now`: no console, no
    /// backlight (a dimmed screen is painted), no hotplug; blank switches it off as KMS does.
    /// One buffer: nothing scans it out, so there is no picture on the glass a second buffer
    /// would keep whole while the next is written; each frame's damage is still copied into
    /// it as into a dumb buffer (a second one was a frame of shared memory no one read).
    static func virtual(_ spec: VirtualDisplaySpec, rotation: DisplayRotation, origin: Double,
                        now: @escaping () -> Double, logger: JournalLogger) -> RunOutput {
        let display = VirtualDisplay(width: spec.width, height: spec.height, timing: .init(refresh: spec.refreshHz),
                                     buffers: 1, origin: origin, populate: true, now: now)
        let power = ScreenPower(output: display, backlight: nil, noBacklight: "the virtual display has no backlight") {
            logger.info($0)
        }
        return RunOutput(presenter: display, events: [display], panelSize: { (spec.width, spec.height) },
                         refreshHz: spec.refreshHz, rotation: rotation, power: power, vt: NoConsole(),
                         flips: { display.flips }, clockNote: "virtual display \(spec), flips paced by poll's timeout")
    }

    /// The console, the DRM card's output, its hotplug monitor and its screen power, each on
    /// `resources` (run's steps, in order).
    /// `stateDirectory`: where the backlight keeps the brightness to restore across a restart.
    static func kms(_ request: KMSRequest, settings: Kiosk.Settings, resources: ResourceStack,
                    stateDirectory: String?, logger: JournalLogger) throws -> RunOutput {
        typealias Step = Kiosk.Step
        let config = settings.config
        // `display.on_exit: keep` leaves the dial's last frame in the console's framebuffer:
        // the console stays in graphics mode, or it would draw its text over it.
        let keep = config.display.onExit == .keep
        let console = resources.acquire(Step.console.rawValue, graphicsConsole(logger: logger)) {
            $0?.restore(keepingGraphics: keep)
        }
        let output = request.output(with: config.display)
        let display = try resources.acquire(Step.display.rawValue, try OutputOpener.open(
            device: output.device, connector: output.connector, mode: output.mode,
            bufferCount: request.buffers, api: request.api)) { display in
                display.close()
                switch display.keptFrame {
                case .success(let device): logger.info("run: on exit the last frame stays (copied into \(device))")
                case .failure(let why): logger.warning("run: display.on_exit keep: \(why); the console comes back")
                case nil: break
                }
            }
        display.log = { logger.warning($0) }
        display.onExit = config.display.onExit
        reportFirstFrame(of: display, processStart: ProcessStart.monotonic(), stats: settings.stats, logger: logger)
        let sel = display.selection
        let rotation = DisplayRotation.chosen(option: settings.rotate, configured: config.display.rotation,
                                              panel: sel.connector.panelOrientation?.displayRotation)
        logger.info("run: \(sel.card.path) (\(sel.card.driver)) \(sel.connector.name) \(sel.mode.summary) CRTC \(sel.crtcID), rotation \(rotation.degrees), KMS API \(display.api.rawValue)")
        var hotplug: HotplugWatcher?
        do {
            hotplug = try resources.acquire(Step.hotplug.rawValue, try HotplugWatcher(display: display)) { $0.close() }
        } catch {
            logger.warning("run: no hotplug monitor (\(error)); an unplugged, replugged or re-moded output is not followed")
        }
        let power = resources.acquire(Step.power.rawValue, ScreenPower.forDisplay(display, stateDirectory: stateDirectory, logger: logger)) { $0.restore() }
        let note = "\(display.monotonicTimestamps ? "CLOCK_MONOTONIC flip timestamps" : "read time (no DRM_CAP_TIMESTAMP_MONOTONIC)"), KMS API \(display.api.rawValue)\(display.takesDamageClips ? " (FB_DAMAGE_CLIPS)" : "")"
        return RunOutput(presenter: display, events: [display] + (hotplug.map { [$0] } ?? []),
                         panelSize: { (display.selection.mode.width, display.selection.mode.height) },
                         refreshHz: sel.mode.refreshHz, rotation: rotation,
                         power: power,
                         vt: console.map { ConsoleSwitch(display: display, console: $0) } ?? NoConsole(),
                         flips: { display.flipCount }, clockNote: note)
    }

    /// The VT on stdin in graphics mode with VT_PROCESS switching, or nil: not a VT, or the
    /// ioctls failed (the kiosk still runs; the console just is not switched).
    private static func graphicsConsole(logger: JournalLogger) -> VirtualTerminal? {
        guard let console = VirtualTerminal(fd: StandardDescriptor.input) else { return nil }
        do {
            try console.enterGraphics(releaseSignal: LoopSignal.vtReleaseSignal, acquireSignal: LoopSignal.vtAcquireSignal)
            return console
        } catch {
            console.restore()
            logger.warning("run: console left in text mode: \(error)")
            return nil
        }
    }

    /// Logs how the first frame reached the screen and when: "run: first
    /// frame: flip onto the running mode; on the glass 0.412 s after process start", once, at
    /// its flip event (the clock of `processStart`, CLOCK_MONOTONIC); the same as a `stats:`
    /// line with --stats.
    private static func reportFirstFrame(of display: KMSDisplay, processStart: Double?, stats: Bool, logger: JournalLogger) {
        display.onFirstFrame = { way, time in
            let when = processStart.map { "; on the glass \(fixed(time - $0, 3)) s after process start" } ?? ""
            logger.info("run: \(way)\(when)")
            if stats { logger.info("stats: \(way)\(when)") }
        }
    }
}
