import DialCore
import KMSOutput
import KioskConfiguration
import KioskSeams
import RemoteView
import FleetConfig
import KioskFeatures
import KioskReporting

extension Kiosk {
    /// What a kiosk is asked to be, as plain values: the CLI maps its options here (`run`,
    /// `preview`), a test writes them by hand. The devices it runs on are `Devices`.
    package struct Settings {
        /// The configuration as loaded (validated; a fleet's pushed one already overlaid).
        package var config: KioskConfig
        /// `--config`: the file a reload reads again (nil: the built-in menu).
        package var configPath: String?
        /// `--items N`: N numbered items instead of the configuration's menu.
        package var items: Int?
        /// `--rotate`: over the configuration's and the panel's rotation.
        package var rotate: DisplayRotation?
        /// `--control PATH`: the control socket (nil: none).
        package var control: String?
        package var stats = false
        /// `--exit-after`: leave cleanly after this many seconds.
        package var exitAfter: Double?
        /// `--demo-fling`: start with a fling of this many radians per second.
        package var demoFling: Double?
        package var painter: PainterChoice = .dial
        package var renderLate: RenderLateChoice = .on
        /// The remote view to run instead of the configuration's (`preview`).
        package var remote: RemoteViewServer.Options?
        /// Pushed configurations (the `fleet:` section), opened by `FleetStart`.
        package var fleet: FleetBridge?

        package init(config: KioskConfig, configPath: String? = nil) {
            self.config = config
            self.configPath = configPath
        }
    }

    /// What a kiosk paints on and hears from, and the process around it.
    package struct Devices {
        /// A DRM card's output, or the virtual display paced by a timer.
        package enum Display {
            case kms(KMSRequest)
            case virtual(VirtualDisplaySpec)
        }
        /// libinput on a seat, or a touch script timed from the start.
        package enum Input {
            case libinput(InputSettings)
            case script(path: String)
        }
        package var display: Display
        package var input: Input
        /// The process environment (NOTIFY_SOCKET, WATCHDOG_USEC, RUNTIME_DIRECTORY, ...).
        package var environment: [String: String]
        package var logger: JournalLogger
        /// Where the event lines go (the process's standard output).
        package var eventsFD: Int32 = 1

        package init(display: Display, input: Input, environment: [String: String], logger: JournalLogger) {
            self.display = display
            self.input = input
            self.environment = environment
            self.logger = logger
        }
    }
}

/// `--render-late on|off`.
package enum RenderLateChoice: String, CaseIterable, Sendable {
    case on, off
}

/// The DRM output to open: card, connector and mode where given (nil: the configuration's,
/// else the first connected and its preferred mode), the scanout buffers and the KMS API.
package struct KMSRequest {
    package var device: String?
    package var connector: String?
    package var mode: ModeRequest?
    package var buffers = 2
    package var api: KMSAPI.Request = .auto

    package init(device: String? = nil, connector: String? = nil, mode: ModeRequest? = nil,
                 buffers: Int = 2, api: KMSAPI.Request = .auto) {
        self.device = device
        self.connector = connector
        self.mode = mode
        self.buffers = buffers
        self.api = api
    }

    /// Each of card, connector and mode from the request where given, else from the
    /// configuration's `display` section. The rotation is not decided here: it needs the panel
    /// (`DisplayRotation.chosen`, once the output is open).
    package func output(with config: KioskConfig.Display) -> OutputRequest {
        OutputRequest(device: device ?? config.device, connector: connector ?? config.connector, mode: mode ?? config.mode)
    }
}

/// Which output `run` opens, after the command line and the configuration are merged.
package struct OutputRequest: Equatable {
    package var device: String?
    package var connector: String?
    package var mode: ModeRequest?

    package init(device: String? = nil, connector: String? = nil, mode: ModeRequest? = nil) {
        self.device = device
        self.connector = connector
        self.mode = mode
    }
}
