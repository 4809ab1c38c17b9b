import Glibc
import Testing
import KioskTestSupport

/// The shipped unit: `systemd-analyze verify` accepts it, its exposure stays at or below 3.0
///, and the directives the service relies on are present.
@Suite struct SystemdUnitTests {
    static let unitPath = repositoryRoot + "/systemd/dialkiosk.service"
    static let hasAnalyze = access("/usr/bin/systemd-analyze", X_OK) == 0

    /// A copy whose ExecStart names an executable that exists here (verify checks it).
    private func runnableCopy(in dir: TemporaryDirectory) -> String {
        let text = readFile(Self.unitPath) ?? ""
        let copy = dir.path + "/dialkiosk.service"
        writeFile(copy, text.replacingOccurrences("/usr/local/bin/dialkiosk", with: "/bin/true"))
        return copy
    }

    @Test(.enabled(if: hasAnalyze)) func verifyPasses() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // --man=no: Documentation= names the package's man pages, not installed here
        // (scripts/package.sh checks each is in the package).
        let result = runToCompletion(["systemd-analyze", "verify", "--man=no", runnableCopy(in: dir)], outputFile: dir.path + "/log")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.isEmpty, "\(result.output)")
    }

    @Test(.enabled(if: hasAnalyze)) func exposureIsAtMostThree() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let result = runToCompletion(["systemd-analyze", "security", "--offline=yes", "--no-pager", runnableCopy(in: dir)],
                                     outputFile: dir.path + "/log")
        let line = try #require(result.output.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let figure = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
        #expect(figure <= 3.0, "\(line)")
    }

    @Test func directivesTheServiceReliesOn() throws {
        let text = try #require(readFile(Self.unitPath))
        let lines = Set(text.split(separator: "\n").map(String.init))
        for required in ["Type=notify", "NotifyAccess=main", "RestartPreventExitStatus=64 66 78", "Restart=always",
                         "ExecReload=/bin/kill -HUP $MAINPID", "User=dialkiosk", "Conflicts=getty@tty1.service",
                         "TTYPath=/dev/tty1", "DeviceAllow=char-drm rw", "DeviceAllow=char-input rw",
                         "DeviceAllow=char-alsa rw", "DeviceAllow=char-cec rw", "SupplementaryGroups=audio",
                         "RestrictAddressFamilies=AF_UNIX AF_NETLINK", "StandardOutput=journal", "NoNewPrivileges=yes",
                         "CapabilityBoundingSet=", "ProtectSystem=strict"] {
            #expect(lines.contains(required), "missing \(required)")
        }
        #expect(lines.contains { $0.hasPrefix("WatchdogSec=") })
        // Devices must stay reachable.
        #expect(!lines.contains("PrivateDevices=yes"))
        #expect(!lines.contains("PrivateNetwork=yes"))
    }

    /// No directory of /sys is writable, only the brightness files the
    /// ExecStartPre links in the runtime directory at each start, as many as it links at most.
    @Test func onlyTheBacklightsBrightnessFilesAreWritable() throws {
        let text = try #require(readFile(Self.unitPath))
        let lines = text.split(separator: "\n").map(String.init)
        let writable = lines.filter { $0.hasPrefix("ReadWritePaths=") }
            .flatMap { $0.dropFirst("ReadWritePaths=".count).split(separator: " ").map(String.init) }
        #expect(writable == (0..<4).map { "-/run/dialkiosk/brightness/\($0)" }, "\(writable)")
        #expect(!lines.contains { $0.hasPrefix("BindPaths=") && $0.contains("/sys") })
        #expect(lines.contains("ProtectKernelTunables=yes"))

        // The ExecStartPre's script, run as the unit runs it but on a fake sysfs tree.
        let pre = try #require(lines.first { $0.hasPrefix("ExecStartPre=+/bin/sh -c '") })
        let quoted = pre.split(separator: "'", omittingEmptySubsequences: false)
        try #require(quoted.count == 3)
        #expect(quoted[2] == " sh /sys/class/backlight /run/dialkiosk/brightness")
        let script = String(quoted[1]).replacingOccurrences("$$", with: "$")
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let devices = dir.path + "/devices", classDir = dir.path + "/class", out = dir.path + "/run/brightness"
        _ = mkdir(devices, 0o755)
        _ = mkdir(classDir, 0o755)
        // Five backlights (one more than the unit opens) and a class entry without brightness.
        let names = ["acpi_video0", "amdgpu_bl1", "intel_backlight", "rpi_backlight", "zz_extra"]
        for name in names + ["no_attr"] {
            _ = mkdir("\(devices)/\(name)", 0o755)
            if name != "no_attr" { writeFile("\(devices)/\(name)/brightness", "7\n") }
            symlink("../devices/\(name)", "\(classDir)/\(name)")
        }
        // A stale link from an earlier start goes.
        _ = mkdir(dir.path + "/run", 0o755)
        _ = mkdir(out, 0o755)
        symlink("/nonexistent", out + "/3")
        let result = runToCompletion(["/bin/sh", "-c", script, "sh", classDir, out], outputFile: dir.path + "/log")
        #expect(result.status == 0, "\(result.output)")
        for (slot, name) in names.prefix(4).enumerated() {
            let target = readLink(out + "/\(slot)")
            #expect(target == "\(devices)/\(name)/brightness", "slot \(slot): \(target ?? "none")")
        }
        #expect(readLink(out + "/4") == nil)

        // No backlight at all: an empty directory, and the start goes on.
        let empty = runToCompletion(["/bin/sh", "-c", script, "sh", dir.path + "/none", out], outputFile: dir.path + "/log")
        #expect(empty.status == 0, "\(empty.output)")
        #expect(readLink(out + "/0") == nil)
        #expect(fileMode(out).map { $0 & S_IFMT } == S_IFDIR)
    }

    private func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The splash hands over like a display manager's (README "Boot"). Plymouth is
    /// deactivated before the program opens the card and quit (keeping its last frame) only
    /// after READY=1; both ignore a missing or idle Plymouth ("-") and run as root ("+"), which
    /// plymouthd requires. Nothing waits for the splash to end or for udev to settle, and no tty
    /// reset switches the VT back to text (the console) before the first frame.
    @Test func handsOverFromTheBootSplash() throws {
        let text = try #require(readFile(Self.unitPath))
        let lines = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
        let set = Set(lines)
        for required in ["ExecStartPre=-+/usr/bin/plymouth deactivate",
                         "ExecStartPost=-+/usr/bin/plymouth quit --retain-splash",
                         "Conflicts=plymouth-quit.service", "OnFailure=plymouth-quit.service",
                         "TTYReset=no", "TTYVTDisallocate=no"] {
            #expect(set.contains(required), "missing \(required)")
        }
        let after = lines.filter { $0.hasPrefix("After=") }.flatMap { $0.dropFirst(6).split(separator: " ").map(String.init) }
        #expect(after.contains("plymouth-start.service"))
        #expect(!after.contains("plymouth-quit-wait.service"))
        #expect(!after.contains("plymouth-quit.service"))
        #expect(!lines.contains { $0.contains("systemd-udev-settle") })
        // Deactivate comes before the program, quit after it (ExecStartPost runs after READY=1).
        let pre = try #require(lines.firstIndex { $0.hasPrefix("ExecStartPre=") })
        let main = try #require(lines.firstIndex { $0.hasPrefix("ExecStart=") })
        #expect(pre < main)
        #expect(set.contains("Type=notify"))
    }

    @Test func sysusersPutsTheUserInTheDeviceGroups() throws {
        let text = try #require(readFile(repositoryRoot + "/systemd/dialkiosk.conf"))
        let entries = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
        #expect(entries == ["u dialkiosk -", "m dialkiosk video", "m dialkiosk input", "m dialkiosk tty", "m dialkiosk audio"])
    }
}

extension String {
    func replacingOccurrences(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
