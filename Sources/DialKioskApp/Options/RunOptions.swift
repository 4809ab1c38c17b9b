import ArgumentParser
import DialCore
import KMSOutput
import KioskSeams
import KioskConfiguration
import KioskReporting
import KioskRuntime
import LinuxSystem

extension PainterChoice: ExpressibleByArgument {}
extension KMSAPI.Request: ExpressibleByArgument {}

extension RenderLateChoice: ExpressibleByArgument {}

/// `dialkiosk run`'s options.
struct RunOptions: ParsableArguments {
    /// --seat and --touch-calibration: where touches, mice, wheels and keys come from.
    @OptionGroup var input: TouchInputOptions

    /// --config, --items and --rotate, as the other commands that build a scene take them.
    @OptionGroup var scene: SceneOptions<RunSceneUse>
    var config: String? { scene.config }
    var items: Int? { scene.items }
    var rotate: DisplayRotation? { scene.rotate }

    @Option(help: ArgumentHelp("Create a control socket here (mode 0660): it streams the event lines and takes select <id or path>, activate, back, show, hide, reload.", valueName: "path"))
    var control: String?

    @Option(help: "DRM card node to use (default: the first card with a connected display).")
    var device: String?

    @Option(help: "Connector by its kernel name, e.g. HDMI-A-1, eDP-1, DSI-1, Virtual-1 (default: the first connected).")
    var connector: String?

    @Option(help: ArgumentHelp("Mode as WxH or WxH@Hz, e.g. 1920x1080@60 (default: the connector's preferred mode).",
                               valueName: "WxH[@Hz]"))
    var mode: ModeRequest?

    @Flag(help: "Log flips per second and paint time once a second while frames flow, and a line when idle.")
    var stats = false

    @Option(name: .customLong("exit-after"), help: "Leave cleanly after this many seconds (a timerfd, not a sleep).")
    var exitAfter: Double?

    @Option(name: .customLong("demo-fling"), help: ArgumentHelp(
        "Start with a fling of this many radians per second (for trying run without a touchscreen).",
        valueName: "rad/s"))
    var demoFling: Double?

    @Option(help: ArgumentHelp("What to paint: dial, or flat (one colour per frame, to measure the display path alone).",
                               valueName: "dial|flat"))
    var painter: PainterChoice = .dial

    @Option(help: "Number of scanout buffers: 2 or 3.")
    var buffers = 2

    @Option(name: .customLong("kms-api"), help: ArgumentHelp(
        "Atomic commits or the legacy SetCrtc/PageFlip calls (auto: atomic where the driver has it).",
        valueName: "auto|atomic|legacy"))
    var kmsAPI: KMSAPI.Request = .auto

    @Option(name: .customLong("render-late"), help: ArgumentHelp(
        "While frames flow, start each paint as late as it still makes the next vblank (the recent paint times plus a margin before it), so input arriving meanwhile is in that frame; off paints as soon as the flip event comes.",
        valueName: "on|off"))
    var renderLate: RenderLateChoice = .on

    @Option(name: .customLong("display"), help: ArgumentHelp(
        "Instead of a DRM card, a virtual display with no device whose flips a timer paces at that rate (for development and CI: no GPU needed).",
        valueName: "virtual:WxH@Hz"))
    var displaySpec: String?

    @Option(name: .customLong("input-script"), help: ArgumentHelp(
        "Instead of libinput, a touch script (the JSON Lines `simulate` reads), timed from the start; after its last sample the kiosk runs on untouched until stopped.",
        valueName: "file"))
    var inputScript: String?

    @Option(name: .customLong("state-dir"), help: ArgumentHelp(
        "The folder of pushed configurations, with a fleet: section (default: $STATE_DIRECTORY, else /var/lib/dialkiosk).",
        valueName: "dir"))
    var stateDir: String?

    /// `--display virtual:WxH@Hz`; nil drives a DRM card.
    var virtualDisplay: VirtualDisplaySpec? { displaySpec.flatMap { try? VirtualDisplaySpec(parsing: $0) } }


    /// The output to drive: each of card, connector and mode from the command line where
    /// given, else from the configuration's `display` section.
    func display(with config: KioskConfig.Display) -> OutputRequest { kms.output(with: config) }

    /// The DRM output these options ask for.
    var kms: KMSRequest { KMSRequest(device: device, connector: connector, mode: mode, buffers: buffers, api: kmsAPI) }

    /// The kiosk these options ask for, running `config`.
    func settings(config: KioskConfig) -> Kiosk.Settings {
        var settings = Kiosk.Settings(config: config, configPath: self.config)
        settings.items = items
        settings.rotate = rotate
        settings.control = control
        settings.stats = stats
        settings.exitAfter = exitAfter
        settings.demoFling = demoFling
        settings.painter = painter
        settings.renderLate = renderLate
        return settings
    }

    /// The devices these options name (a virtual display or a card; a touch script or libinput).
    func devices(environment: [String: String], logger: JournalLogger) -> Kiosk.Devices {
        Kiosk.Devices(display: virtualDisplay.map { .virtual($0) } ?? .kms(kms),
                      input: inputScript.map { .script(path: $0) } ?? .libinput(input.settings),
                      environment: environment, logger: logger)
    }

    func validate() throws {
        if let exitAfter, !(exitAfter > 0 && exitAfter < 1e7) {
            throw ValidationError("--exit-after \(exitAfter) must be a positive number of seconds")
        }
        try ItemCount.validate(items)
        if let demoFling, !demoFling.isFinite || abs(demoFling) > 200 {
            throw ValidationError("--demo-fling \(demoFling) must be a speed within ±200 rad/s")
        }
        if !(2...3).contains(buffers) {
            throw ValidationError("--buffers \(buffers) must be 2 or 3")
        }
        if let config, config.isEmpty {
            throw ValidationError("--config needs a file name")
        }
        if let control {
            guard !control.isEmpty, control.utf8.count < 108 else {
                throw ValidationError("--control '\(control)' must be a socket path of 1 to 107 bytes")
            }
            // A missing directory is a usage error (64), not a failure to retry forever.
            let directory = control.contains("/") ? String(control[..<control.lastIndex(of: "/")!]) : "."
            guard case .success(let info) = FileStatus.of(directory.isEmpty ? "/" : directory), info.kind == .directory else {
                throw ValidationError("--control '\(control)': the directory '\(directory.isEmpty ? "/" : directory)' does not exist")
            }
        }
        if let displaySpec {
            _ = try VirtualDisplaySpec(parsing: displaySpec)
            if device != nil || connector != nil || mode != nil {
                throw ValidationError("--display virtual excludes --device, --connector and --mode")
            }
        }
        if let inputScript, inputScript.isEmpty {
            throw ValidationError("--input-script needs a file name")
        }
        if let device, device.isEmpty {
            throw ValidationError("--device needs a DRM card node such as /dev/dri/card0")
        }
        if let connector, connector.isEmpty {
            throw ValidationError("--connector needs a name such as HDMI-A-1")
        }
    }
}
