import Glibc
import Testing
@testable import KMSOutput

/// A fake sysfs in a temporary directory, shaped like the kernel's: class/drm/card0-eDP-1 is a
/// link into devices/, and class/backlight/NAME/device links to the backlight's parent device.
private final class FakeSysfs {
    let root: String

    init() {
        var template = Array("/tmp/dialkiosk-sysfs-XXXXXX".utf8CString)
        root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { _ = system("rm -rf '\(root)'") }

    func mkdirs(_ path: String) { _ = system("mkdir -p '\(root)/\(path)'") }

    func write(_ path: String, _ text: String) {
        let fd = open("\(root)/\(path)", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        close(fd)
    }

    func read(_ path: String) -> String {
        let fd = open("\(root)/\(path)", O_RDONLY)
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return String(decoding: bytes[0..<max(n, 0)], as: UTF8.self)
    }

    /// A connector `card-name` whose device directory lives under devices/.
    func connector(_ card: String, _ name: String) {
        mkdirs("devices/pci0000:00/0000:00:02.0/drm/\(card)/\(card)-\(name)")
        mkdirs("class/drm")
        symlink("../../devices/pci0000:00/0000:00:02.0/drm/\(card)/\(card)-\(name)", "\(root)/class/drm/\(card)-\(name)")
    }

    /// A backlight `name` at `brightness` of `max`; `device`: the path (under the root) its
    /// device link points to, nil for none.
    func backlight(_ name: String, brightness: Int, max: Int, device: String?) {
        let dir = "devices/backlights/\(name)"
        mkdirs(dir)
        write(dir + "/max_brightness", "\(max)\n")
        write(dir + "/brightness", "\(brightness)\n")
        if let device { symlink("\(root)/\(device)", "\(root)/\(dir)/device") }
        mkdirs("class/backlight")
        symlink("../../\(dir)", "\(root)/class/backlight/\(name)")
    }
}

@Suite struct BacklightTests {
    private let eDP = "devices/pci0000:00/0000:00:02.0/drm/card0/card0-eDP-1"

    @Test func theBacklightWhoseDeviceIsTheConnectorIsChosen() throws {
        let sys = FakeSysfs()
        sys.connector("card0", "eDP-1")
        sys.connector("card0", "HDMI-A-1")
        sys.backlight("acpi_video0", brightness: 5, max: 10, device: nil)
        sys.backlight("intel_backlight", brightness: 800, max: 1000, device: eDP)
        let light = try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "eDP-1").get()
        #expect(light.directory == sys.root + "/class/backlight/intel_backlight")
        #expect(light.maxBrightness == 1000)
        // Two backlights, neither the HDMI connector's: none (the lone-backlight rule needs one).
        #expect(throws: Backlight.Unavailable.none(connector: "HDMI-A-1")) {
            try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "HDMI-A-1").get()
        }
    }

    @Test func aLoneBacklightBelongsToAnInternalPanelOnly() throws {
        let sys = FakeSysfs()
        sys.connector("card0", "DSI-1")
        sys.backlight("pwm-backlight", brightness: 200, max: 255, device: nil)
        let light = try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "DSI-1").get()
        #expect(light.directory.hasSuffix("/pwm-backlight"))
        #expect(throws: Backlight.Unavailable.none(connector: "HDMI-A-1")) {
            try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "HDMI-A-1").get()
        }
        #expect(Backlight.isInternal("eDP-1") && Backlight.isInternal("LVDS-1") && !Backlight.isInternal("Virtual-1"))
    }

    @Test func dimWritesAQuarterAndRestorePutsTheSavedValueBack() throws {
        let sys = FakeSysfs()
        sys.connector("card0", "eDP-1")
        sys.backlight("intel_backlight", brightness: 800, max: 1000, device: eDP)
        let light = try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "eDP-1").get()
        try light.dim(fraction: 0.25)
        #expect(sys.read("class/backlight/intel_backlight/brightness") == "200\n")
        #expect(light.saved == 800)
        try light.dim(fraction: 0.25)
        #expect(light.saved == 800, "a second dim keeps the first saved value")
        try light.restore()
        #expect(sys.read("class/backlight/intel_backlight/brightness") == "800\n")
        #expect(light.saved == nil)
        try light.restore()
        #expect(sys.read("class/backlight/intel_backlight/brightness") == "800\n", "restore when not dimmed writes nothing")
    }

    @Test func theDimmedValueIsNeverZeroNorAboveTheCurrentOne() {
        #expect(Backlight.dimmed(current: 800, max: 1000, fraction: 0.25) == 200)
        #expect(Backlight.dimmed(current: 2, max: 7, fraction: 0.25) == 1)
        #expect(Backlight.dimmed(current: 0, max: 7, fraction: 0.25) == 0)
    }

    @Test func anUnwritableBrightnessIsRefusedWithTheRule() throws {
        let sys = FakeSysfs()
        sys.connector("card0", "eDP-1")
        sys.backlight("intel_backlight", brightness: 800, max: 1000, device: eDP)
        // Tests run as root, which writes any plain file: a read-only sysctl (mode 0444) is
        // refused to root too, and reads as a number like a brightness does.
        _ = unlink(sys.root + "/devices/backlights/intel_backlight/brightness")
        _ = symlink("/proc/sys/kernel/ngroups_max", sys.root + "/devices/backlights/intel_backlight/brightness")
        switch Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "eDP-1") {
        case .success:
            Issue.record("a brightness that cannot be written was accepted")
        case .failure(let why):
            guard case .notWritable(let path, _) = why else { Issue.record("\(why)"); return }
            #expect(path == sys.root + "/class/backlight/intel_backlight/brightness")
            #expect(why.description.contains("70-dialkiosk-backlight.rules"))
        }
    }

    @Test func missingSysfsPiecesAreNoBacklight() throws {
        let sys = FakeSysfs()
        #expect(throws: Backlight.Unavailable.none(connector: "eDP-1")) {
            try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "eDP-1").get()
        }
        sys.connector("card0", "eDP-1")
        sys.backlight("intel_backlight", brightness: 800, max: 1000, device: eDP)
        _ = unlink(sys.root + "/devices/backlights/intel_backlight/max_brightness")
        #expect(throws: Backlight.Unavailable.unreadable(path: sys.root + "/class/backlight/intel_backlight")) {
            try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "eDP-1").get()
        }
    }

    /// An eDP panel whose backlight is at 200 of 255, and an empty run/ for the state file.
    private func panelAt200() -> FakeSysfs {
        let sys = FakeSysfs()
        sys.connector("card0", "eDP-1")
        sys.backlight("intel_backlight", brightness: 200, max: 255, device: eDP)
        sys.mkdirs("run")
        return sys
    }

    /// A kiosk killed while dimmed (watchdog, OOM, SIGKILL at the stop
    /// timeout) never runs `restore`. Without the state file each start took the quarter as
    /// normal: 200, 50, 13, 3, 1 after four such restarts.
    @Test func restartsAfterAKillWhileDimmedKeepTheNormalBrightness() throws {
        let sys = panelAt200()
        var seen: [String] = []
        for _ in 0..<4 {
            let light = try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "eDP-1",
                                           stateDirectory: sys.root + "/run").get()
            seen.append(sys.read("class/backlight/intel_backlight/brightness"))
            try light.dim(fraction: 0.25)
            #expect(sys.read("run/backlight-intel_backlight") == "\(light.saved ?? -1) 50\n")
            // Killed: no restore.
        }
        let last = try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "eDP-1",
                                      stateDirectory: sys.root + "/run").get()
        seen.append(sys.read("class/backlight/intel_backlight/brightness"))
        #expect(seen == ["200\n", "200\n", "200\n", "200\n", "200\n"])
        #expect(last.recovered == .restored(200))
        #expect(access(sys.root + "/run/backlight-intel_backlight", F_OK) != 0, "the state file goes after the restore")
    }

    /// The administrator set a brightness while the kiosk was dimmed: neither a restart nor a
    /// wake overwrites it.
    @Test func aBrightnessSetWhileDimmedIsKept() throws {
        let sys = panelAt200()
        let state = sys.root + "/run"
        let first = try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "eDP-1", stateDirectory: state).get()
        try first.dim(fraction: 0.25)
        sys.write("devices/backlights/intel_backlight/brightness", "120\n")
        // Killed; the next start finds 120, not the 50 it dimmed to.
        let second = try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "eDP-1", stateDirectory: state).get()
        #expect(second.recovered == .keptChanged(120))
        #expect(sys.read("class/backlight/intel_backlight/brightness") == "120\n")
        #expect(access(state + "/backlight-intel_backlight", F_OK) != 0)
        // Within one run: dimmed to 30, set to 90 meanwhile, the wake keeps 90.
        try second.dim(fraction: 0.25)
        sys.write("devices/backlights/intel_backlight/brightness", "90\n")
        try second.restore()
        #expect(sys.read("class/backlight/intel_backlight/brightness") == "90\n")
        #expect(access(state + "/backlight-intel_backlight", F_OK) != 0)
    }

    /// A brightness that reads negative (a broken driver, a hand-edited state
    /// file) is never written back.
    @Test func aNegativeBrightnessIsNeverWrittenBack() throws {
        let sys = panelAt200()
        let state = sys.root + "/run"
        sys.write("run/backlight-intel_backlight", "-5 200\n")
        let light = try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "eDP-1", stateDirectory: state).get()
        #expect(light.recovered == .discarded)
        #expect(sys.read("class/backlight/intel_backlight/brightness") == "200\n")
        sys.write("devices/backlights/intel_backlight/brightness", "-3\n")
        #expect(throws: Backlight.Unavailable.unreadable(path: light.directory + "/brightness")) {
            try light.dim(fraction: 0.25)
        }
        #expect(light.saved == nil)
        try light.restore()
        #expect(sys.read("class/backlight/intel_backlight/brightness") == "-3\n", "nothing was saved, nothing written")
        #expect(throws: Backlight.Unavailable.unreadable(path: sys.root + "/class/backlight/intel_backlight")) {
            try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "eDP-1").get()
        }
    }

    /// No state file can be written: no dimming (the dim frame is painted instead).
    @Test func noDimmingWithoutAPlaceForTheValueToRestore() throws {
        let sys = panelAt200()
        let light = try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "eDP-1",
                                       stateDirectory: sys.root + "/missing").get()
        #expect(throws: Backlight.Unavailable.self) { try light.dim(fraction: 0.25) }
        #expect(sys.read("class/backlight/intel_backlight/brightness") == "200\n")
        #expect(light.saved == nil)
    }
}

/// The backlight's saved state is only ever a regular file holding a brightness to go back to:
/// a FIFO there does not hang the start, a saved 0 does not restore an off backlight.
@Suite struct BacklightSavedStateTests {
    @Test func aFIFOInPlaceOfTheStateFileIsDiscardedWithoutWaiting() throws {
        let sys = FakeSysfs()
        sys.connector("card0", "eDP-1")
        sys.backlight("intel_backlight", brightness: 50, max: 255, device: "devices/pci0000:00/0000:00:02.0/drm/card0/card0-eDP-1")
        sys.mkdirs("run")
        #expect(mkfifo(sys.root + "/run/backlight-intel_backlight", 0o600) == 0)
        let light = try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "eDP-1", stateDirectory: sys.root + "/run").get()
        #expect(light.recovered == .discarded)
    }

    @Test func aSavedZeroIsNotRestored() throws {
        let sys = FakeSysfs()
        sys.connector("card0", "eDP-1")
        sys.backlight("intel_backlight", brightness: 50, max: 255, device: "devices/pci0000:00/0000:00:02.0/drm/card0/card0-eDP-1")
        sys.mkdirs("run")
        sys.write("run/backlight-intel_backlight", "0 50\n")
        let light = try Backlight.open(sysfsRoot: sys.root, card: "card0", connector: "eDP-1", stateDirectory: sys.root + "/run").get()
        #expect(light.recovered == .discarded)
        #expect(sys.read("class/backlight/intel_backlight/brightness") == "50\n")
    }
}
