import DialCore
import DialRender
import Testing
@testable import KioskSeams
@testable import KioskRuntime
@testable import KioskConfiguration
import KioskTestSupport

/// Every field's default, reached both by an empty file and by a file that only sets other keys.
@Suite struct ConfigDefaultsTests {
    @Test func emptyFileIsTheDemoMenuWithDefaults() throws {
        for text in ["", "# only a comment\n", "---\n"] {
            let config = try ConfigParser.parse(text, file: "c.yaml")
            #expect(config == KioskConfig.demo)
            #expect(config.items == DemoMenu.items)
        }
    }

    @Test func noPathIsTheDemo() throws {
        #expect(try ConfigLoader.load(path: nil) == KioskConfig.demo)
    }

    @Test func themeDefaults() {
        let theme = KioskConfig.demo.theme
        #expect(theme == Theme())
        #expect(theme.backgroundBottom == RGBColor(hex: 0x0A0D13))
        #expect(theme.ringColor == RGBColor(hex: 0x2E3949))
        #expect(theme.hubColor == RGBColor(hex: 0x1A212D))
        #expect(theme.lightLabelColor == RGBColor(hex: 0xFFFFFF))
        #expect(theme.fontName == "DejaVu Sans" && theme.hubFontName == "DejaVu Sans:bold")
        #expect(theme.labelPixels == nil)  // proportional to the item size
    }

    @Test func physicsDefaults() {
        let physics = KioskConfig.demo.physics
        #expect(physics.motion.decayPerFrame60 == 0.92)
        #expect(physics.motion.minFlingSpeed == 1.5)
        #expect(physics.motion.snapDuration == 0.2...0.4)
        #expect(physics.inflate.minScale == 0.66)
        #expect(physics.inflate.maxScale == 1.33)
        // The defaults are DialCore's own.
        #expect(physics == KioskConfig.Physics(motion: PhysicsSettings(), inflate: Inflate()))
    }

    @Test func displayInputBehaviourDefaults() {
        let config = KioskConfig.demo
        #expect(config.display.device == nil)
        #expect(config.display.connector == nil)
        #expect(config.display.mode == nil)
        #expect(config.display.rotation == .none)
        #expect(config.display.onExit == .restore)
        #expect(config.input.seat == "seat0")
        #expect(config.input.calibration == nil)
        #expect(config.behaviour.defaultItem == nil)
        #expect(config.behaviour.returnAfter == nil)
        #expect(config.behaviour.start == .expanded)
        #expect(config.behaviour.idle == .dim)
        #expect(config.behaviour.idleAfterMinutes == nil)
        #expect(config.behaviour.wakeOnTouch == true)
    }

    @Test func sectionsPresentButEmptyKeepDefaults() throws {
        let text = "theme: {}\nphysics: {}\ndisplay:\ninput: ~\nbehaviour: {}\n"
        #expect(try ConfigParser.parse(text, file: "c.yaml") == KioskConfig.demo)
    }

    @Test func itemFieldDefaults() throws {
        let config = try ConfigParser.parse("items:\n  - id: a\n  - id: b\n", file: "c.yaml")
        #expect(config.items.map(\.label) == ["a", "b"])
        #expect(config.items[1].color == DemoMenu.numbered(2)[1].color)
        #expect(config.items[0].iconPath == nil)
        #expect(config.items[0].command == nil)
    }

    @Test func everyFieldIsRead() throws {
        let text = """
            items:
              - {id: tea, label: "Green tea", color: "#00ff00", icon: /i/tea.png, command: [/bin/echo, hi]}
              - id: no
                label: yes
            theme: {background: "#000001", ring: "#000002", hub: "#000003", label: "#000004",
                    font: /usr/share/fonts/x.ttf, label_size: 22.5}
            physics: {decay: 0.85, min_fling_speed: 2.5, snap_duration: 0.25, inflate_min: 0.5, inflate_max: 1.5}
            display: {device: /dev/dri/card1, connector: HDMI-A-1, mode: 800x480@59.94, rotation: 270, on_exit: keep}
            input: {seat: seat1, calibration: "0 1 0 -1 0 1"}
            behaviour: {default_item: no, return_after_seconds: 30, start: collapsed, idle: blank,
                        idle_after_minutes: 5, wake_on_touch: false}
            """
        let c = try ConfigParser.parse(text, file: "c.yaml")
        #expect(c.items == [
            MenuItem(id: "tea", label: "Green tea", color: RGBColor(hex: 0x00FF00), iconPath: "/i/tea.png",
                     command: ["/bin/echo", "hi"]),
            MenuItem(id: "no", label: "yes", color: DemoMenu.numbered(2)[1].color),
        ])
        var theme = Theme(background: RGBColor(hex: 1), ring: RGBColor(hex: 2), hub: RGBColor(hex: 3), label: RGBColor(hex: 4))
        theme.setFont("/usr/share/fonts/x.ttf")
        theme.labelPixels = 22.5
        #expect(c.theme == theme)
        #expect(c.theme.hubFontName == "/usr/share/fonts/x.ttf")
        #expect(c.physics.motion == PhysicsSettings(decayPerFrame60: 0.85, minFlingSpeed: 2.5, snapDuration: 0.25...0.25))
        #expect(c.physics.inflate == Inflate(minScale: 0.5, maxScale: 1.5))
        #expect(c.defaultIndex == 1)
        #expect(c.startsHidden)
        #expect(c.index(ofItem: "tea") == 0)
        #expect(c.index(ofItem: "coffee") == nil)
        #expect(c.display == KioskConfig.Display(device: "/dev/dri/card1", connector: "HDMI-A-1",
                                                 mode: ModeRequest(width: 800, height: 480, refreshHz: 59.94),
                                                 rotation: .threeQuarters, onExit: .keep))
        #expect(c.input == KioskConfig.Input(seat: "seat1", calibration: CalibrationMatrix(0, 1, 0, -1, 0, 1)))
        #expect(c.behaviour == KioskConfig.Behaviour(defaultItem: "no", returnAfter: 30, start: .collapsed,
                                                     idle: .blank, idleAfterMinutes: 5, wakeOnTouch: false))
    }

    @Test func snapDurationRange() throws {
        let c = try ConfigParser.parse("physics:\n  snap_duration: [0.15, 0.5]\n", file: "c.yaml")
        #expect(c.physics.motion.snapDuration == 0.15...0.5)
    }

    @Test func dialFromConfig() throws {
        let c = try ConfigParser.parse("items: [{id: a}, {id: b}, {id: c}]\nbehaviour: {default_item: c}\n", file: "c.yaml")
        let dial = DialSetup(config: c, width: 800, height: 480).makeDial()
        #expect(dial.dial.items.map(\.id) == ["a", "b", "c"])
        #expect(dial.selectedIndex == 2)
        #expect(KioskConfig.demo.defaultIndex == 0)
        #expect(!KioskConfig.demo.startsHidden)
    }

    @Test func zeroMeansNever() throws {
        let c = try ConfigParser.parse("behaviour: {return_after_seconds: 0, idle_after_minutes: 0}", file: "c.yaml")
        #expect(c.behaviour.returnAfter == nil)
        #expect(c.behaviour.idleAfterMinutes == nil)
    }

    @Test func valueForms() {
        #expect(ConfigValues.color("#A0b1C2") == RGBColor(r: 0xA0, g: 0xB1, b: 0xC2))
        #expect(ConfigValues.color("A0B1C2") == nil)
        #expect(ConfigValues.color("#A0B1C") == nil)
        #expect(ConfigValues.color("#GGGGGG") == nil)
        #expect(ConfigValues.number("nan") == nil)
        #expect(ConfigValues.number("0x10") == nil)
    }
}
