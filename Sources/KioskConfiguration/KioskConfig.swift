import DialCore
import DialRender
import KioskSeams

/// Everything the configuration file can say, as plain values. Every field has a default, so an
/// empty file (or no file at all) is the demo menu on the first connected output.
package struct KioskConfig: Sendable, Equatable {
    /// The top ring's items (a flat menu's only ring). Setting them alone (the demo menu,
    /// `--items N`) makes the menu that one ring.
    package var items: [MenuItem] {
        didSet { if let nested, nested.top.map(\.item) != items { self.nested = nil } }
    }
    package var theme: Theme
    package var physics: Physics
    package var display: Display
    package var input: Input
    package var behaviour: Behaviour
    /// The `mqtt:` section; nil (absent) is no MQTT.
    package var mqtt: MQTTSettings?
    /// The `power:` section: opening hours (none: always open).
    package var power = PowerSettings()
    /// The `accessibility:` section's speech and sound; nil (absent) is a silent kiosk.
    package var accessibility: AccessibilitySettings?
    /// The `remote:` section; nil (absent) is no remote view and no socket.
    package var remote: RemoteSettings?
    /// The `fleet:` section (signed configurations pushed over MQTT); nil: none taken.
    package var fleet: FleetSettings?
    /// The `lock:` section (lockdown and the admin menu behind a PIN); nil: not locked.
    package var lock: LockSettings?
    /// `languages:`, the first the default; empty: one language, the file's plain texts.
    package var languages: [Language] = []
    /// `text:`: the title above the dial and the hint below it.
    package var texts = DialTexts()
    /// What `check-config` warns about (a missing translation, a text that cannot fit).
    package var warnings: [String] = []

    package init(items: [MenuItem] = DemoMenu.items, theme: Theme = Theme(), physics: Physics = Physics(),
                display: Display = Display(), input: Input = Input(), behaviour: Behaviour = Behaviour()) {
        self.items = items
        self.theme = theme
        self.physics = physics
        self.display = display
        self.input = input
        self.behaviour = behaviour
    }

    /// The menu with every ring: `items` is its top ring; a file's nested `items:` are kept here.
    package var menu: MenuTree {
        get { nested ?? Self.flatMenu(items) }
        set {
            items = newValue.top.map(\.item)
            nested = newValue.ringPaths.count > 1 ? newValue : nil
        }
    }

    /// A menu with rings below the top, while its top ring is still `items` (nil for a flat
    /// one, so a flat file's configuration equals the same items set in code).
    private var nested: MenuTree?

    /// `items` as a one-ring menu. Only a list built in code can break MenuTree's rules (the
    /// parser refuses repeated and path-breaking ids): such items are left out, first one kept,
    /// rather than failing.
    private static func flatMenu(_ items: [MenuItem]) -> MenuTree {
        if let tree = try? MenuTree(flat: items) { return tree }
        var seen = Set<String>()
        let kept = items.filter { MenuTree.problems(in: [MenuNode($0)]).isEmpty && seen.insert($0.id).inserted }
        return (try? MenuTree(flat: kept)) ?? MenuTree.empty
    }

    /// The configuration used when no file is given: the demo menu with every default.
    package static let demo = KioskConfig()

    /// The ring's motion (docs/architecture.md: the exact coast between flip timestamps), decoded straight
    /// into DialCore's types, whose defaults are the configuration's.
    package struct Physics: Sendable, Equatable {
        /// `decay` (velocity kept per 60 Hz frame), `min_fling_speed`, `snap_duration`.
        package var motion: PhysicsSettings
        /// `inflate_min` and `inflate_max`: item scale far from 12 o'clock and at 12 o'clock.
        package var inflate: Inflate

        package init(motion: PhysicsSettings = PhysicsSettings(), inflate: Inflate = Inflate()) {
            self.motion = motion
            self.inflate = inflate
        }
    }

    /// Which card, connector and mode to drive, and how the panel is mounted.
    package struct Display: Sendable, Equatable {
        /// A DRM card path such as /dev/dri/card0; nil picks the first card with a connected output.
        package var device: String?
        /// A connector name such as HDMI-A-1 or Virtual-1; nil picks the first connected one.
        package var connector: String?
        /// A mode; nil uses the connector's preferred mode.
        package var mode: ModeRequest?
        package var rotation: DisplayRotation
        /// What the screen shows after the program exits: the CRTC as it was before (the
        /// console), or the last dial frame (for a shutdown).
        package var onExit: ExitScreen
        /// The panel's shape: a round one keeps the dial inside its inscribed circle.
        package var shape: DisplayShape = .rectangle
        /// Whether Ctrl-Alt-Fn may switch away from the kiosk's VT (off: a locked kiosk stays).
        package var vtSwitch = false

        package init(device: String? = nil, connector: String? = nil, mode: ModeRequest? = nil,
                    rotation: DisplayRotation = .none, onExit: ExitScreen = .restore) {
            self.device = device
            self.connector = connector
            self.mode = mode
            self.rotation = rotation
            self.onExit = onExit
        }
    }

    /// Which seat's touch devices to read, and how the digitizer maps onto the panel.
    package struct Input: Sendable, Equatable {
        package var seat: String
        /// libinput's calibration matrix (the first two rows, normalized); nil keeps the device's own.
        package var calibration: CalibrationMatrix?
        /// What the wheel's or encoder's click (`BTN_MIDDLE`) does: back a ring, or activate.
        package var wheelClick: WheelClick

        package init(seat: String = "seat0", calibration: CalibrationMatrix? = nil, wheelClick: WheelClick = .back) {
            self.seat = seat
            self.calibration = calibration
            self.wheelClick = wheelClick
        }
    }

    /// What the kiosk does on its own: where it starts, when it goes back, when the screen sleeps.
    package struct Behaviour: Sendable, Equatable {
        /// The item selected at start and after `returnAfter`; nil is the first item.
        package var defaultItem: String?
        /// Seconds without touch after which the ring turns back to the default item; nil never.
        package var returnAfter: Double?
        package var start: StartState
        package var idle: IdleAction
        /// Minutes without touch before `idle` applies; nil never.
        package var idleAfterMinutes: Double?
        /// A touch on a dimmed or blanked screen wakes it (and is not passed to the dial).
        package var wakeOnTouch: Bool
        /// Seconds an item's command may run before its process group gets SIGTERM (then
        /// SIGKILL): a command that hangs must not disable its item until a restart.
        package var commandTimeout: Double = 30
        /// Seconds without input after which the menu goes back to the default language; nil never.
        package var languageReturnAfter: Double?

        package init(defaultItem: String? = nil, returnAfter: Double? = nil, start: StartState = .expanded,
                    idle: IdleAction = .dim, idleAfterMinutes: Double? = nil, wakeOnTouch: Bool = true) {
            self.defaultItem = defaultItem
            self.returnAfter = returnAfter
            self.start = start
            self.idle = idle
            self.idleAfterMinutes = idleAfterMinutes
            self.wakeOnTouch = wakeOnTouch
        }
    }

    /// Whether the dial starts collapsed into the hub or fanned out.
    package enum StartState: String, Sendable, Equatable, CaseIterable {
        case collapsed, expanded
    }

    /// What an idle screen does.
    package enum IdleAction: String, Sendable, Equatable, CaseIterable {
        /// Keep drawing at reduced brightness.
        case dim
        /// Show black (the CRTC stays on, so waking is one frame).
        case blank
        /// Stay as it is.
        case none
    }
}
