import DialCore
import DialRender
import KMSOutput
import KioskSeams
import TouchInput
import LinuxSystem
import KioskReporting
import KioskConfiguration
import KioskLoop
import KioskFeatures
import FleetConfig
import RemoteView
import CECLink

/// A whole kiosk, assembled from its settings and devices (what `run` and `preview` start, and
/// what a test starts in one line through `VirtualKiosk`): everything it owns on one
/// `ResourceStack`: signals, console, display, hotplug monitor, screen power, input, the
/// service (notify socket, control socket, commands), the remote view, the exit timer. A
/// failure at any step of setup and `close()` release exactly what was set up, in reverse
/// order, through the stack. `close()` is safe twice.
///
/// The console is set up before the display so that the reverse order restores the display
/// first: the saved CRTC (the text console's framebuffer) goes back and master is dropped while
/// the VT is still ours (VT_PROCESS: no switch can slip in while we hold master), and only then
/// KD_TEXT redraws the console onto the framebuffer that is on screen and VT_AUTO hands VT
/// switching back to the kernel. The other way round the console would redraw under our
/// dumb buffer, and a switch in between would find master still held.
package final class Kiosk {
    /// The setup steps, in the order `init` takes them (teardown is the reverse): the names
    /// on the resource stack.
    package enum Step: String, CaseIterable {
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
    /// The loop's service: the features on their bus.
    package let router: FeatureRouter
    package let loop: FrameLoop
    private let fling: Double?
    private let logger: JournalLogger
    /// The loop's clock, also for the start, the fling and the service's stop.
    private let clock: () -> Double

    /// Assembles the kiosk `settings` describe on `devices`. `settings.config` is the loaded
    /// configuration (already validated: a bad file never gets here).
    package init(settings: Settings, devices: Devices) throws {
        logger = devices.logger
        let clock: () -> Double = monotonicNow
        self.clock = clock
        // A reader of stdout or stderr that goes away (a closed pipe, a restarted journald) must
        // cost the kiosk its lines, not its life: writes fail with EPIPE instead. For the rest of
        // the process, so the last error message cannot kill it either; item commands get the
        // default back (CommandRunner).
        SignalDisposition.ignoreBrokenPipes()
        let resources = ResourceStack()
        self.resources = resources
        do {
            // Signals first, so a SIGTERM during setup is not lost and teardown still runs.
            let signals = try resources.acquire(Step.signals.rawValue, try SignalWatcher()) { $0.close() }
            output = try Self.openOutput(settings, devices, resources: resources, clock: clock)
            let parts = try Self.openParts(settings, devices, output: output, resources: resources, clock: clock)
            router = parts.router
            loop = try Self.makeLoop(settings, parts: parts, signals: signals, output: output, resources: resources,
                                     clock: clock, logger: logger)
        } catch {
            resources.releaseAll()
            throw error
        }
        fling = settings.demoFling
        if settings.stats { loop.turns = TurnStats() }
        router.legacy.mqtt?.loopFigures = { [weak loop, flips = output.flips] in
            (flips(), loop?.stats?.latencySummary)
        }
    }

    package var flipCount: Int { output.flips() }

    /// The CEC adapter `power.cec` names, as a poll source, and ScreenPower's follower; none
    /// (with a `failed` report) when no adapter can be had: the screen is still switched.
    static func openCEC(_ setting: PowerSettings.CEC, output: RunOutput, service: LegacyService,
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

    package func run() throws -> FrameLoop.Ending {
        // From here on the loop never waits on stderr: log lines queue, the loop flushes them.
        logger.divert(to: OutputQueue(fd: StandardDescriptor.error))
        try loop.start(at: clock())
        if let fling, let geometry = (loop.dial as? MenuDial)?.geometry {
            try loop.inject(DemoFling.events(geometry: geometry, radPerSecond: fling, endTime: clock()))
        }
        let ending = try loop.run()
        router.stop(reason: ending == .signal ? "signal" : "exit-after", now: clock())
        return ending
    }

    /// Releases everything set up, in reverse order (see the type's note); safe twice.
    package func close() {
        resources.releaseAll()
        // The last log lines get a moment, never more (systemd's stop timeout is running).
        logger.queue?.drain(within: 0.5)
        logger.divert(to: nil)
    }
}

/// VT switching for the loop: the display stops and drops master before the kernel may switch
/// away, and takes master back after it switched back.
package final class ConsoleSwitch: VTSwitching {
    private let display: KMSDisplay
    private let console: VirtualTerminal

    init(display: KMSDisplay, console: VirtualTerminal) {
        self.display = display
        self.console = console
    }

    package func release() throws -> [DisplayEvent] {
        let events = display.suspend(.vtReleased)
        try console.allowRelease()
        return events
    }

    package func acquire() throws -> [DisplayEvent] {
        try console.acknowledgeAcquire()
        return try display.resume(.vtReleased)
    }
}
