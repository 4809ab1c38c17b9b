import Glibc
import Testing
import KioskTestSupport

/// scripts/install.sh and the package's postinst take the same steps (the user, the backlight
/// rule, enabling the unit) from one script, packaging/system-setup.sh, run here with stand-in
/// tools that record their calls.
@Suite struct SystemSetupTests {
    /// The lines of `text` that are not comments.
    private func code(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("#") }
    }

    @Test func bothInstallersTakeTheStepsFromTheSharedScript() throws {
        let install = code(try #require(readFile(repositoryRoot + "/scripts/install.sh")))
        let postinst = code(try #require(readFile(repositoryRoot + "/packaging/debian/postinst")))
        #expect(install.contains(". \"$here/packaging/system-setup.sh\""))
        #expect(postinst.contains(". \"${DPKG_ROOT:-}/usr/lib/dialkiosk/system-setup.sh\""))
        let package = try #require(readFile(repositoryRoot + "/scripts/package.sh"))
        #expect(package.contains("\"$pkg_repo/packaging/system-setup.sh\" \"$s/usr/lib/dialkiosk/system-setup.sh\""))
        for (name, lines) in [("install.sh", install), ("postinst", postinst)] {
            for step in ["systemd-sysusers", "udevadm", "deb-systemd-helper", "systemctl enable", "--now"] {
                #expect(!lines.contains { $0.contains(step) }, "\(name) calls \(step) itself")
            }
            for shared in ["dk_create_user", "dk_trigger_backlights", "dk_enable_unit"] {
                #expect(lines.contains { $0.hasPrefix(shared) }, "\(name) does not run \(shared)")
            }
        }
    }

    /// A bin directory of stand-ins that append their name and arguments to `log`.
    private func standIns(_ dir: String, _ tools: [String], log: String) {
        _ = mkdir(dir, 0o755)
        for tool in tools { writeFile(dir + "/" + tool, "#!/bin/sh\necho \"${0##*/} $*\" >>\(log)\n", mode: 0o755) }
    }

    private func calls(_ log: String) -> [String] {
        (readFile(log) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func postinstCreatesTheUserAndEnablesTheUnitInAnImage() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let root = dir.path + "/root", log = dir.path + "/calls"
        for part in ["", "/usr", "/usr/lib", "/usr/lib/dialkiosk"] { _ = mkdir(root + part, 0o755) }
        writeFile(root + "/usr/lib/dialkiosk/system-setup.sh", try #require(readFile(repositoryRoot + "/packaging/system-setup.sh")))
        standIns(dir.path + "/bin", ["systemd-sysusers", "udevadm", "deb-systemd-helper", "deb-systemd-invoke", "systemctl"], log: log)
        let run = runToCompletion(["/bin/sh", repositoryRoot + "/packaging/debian/postinst", "configure"],
                                  environment: ["DPKG_ROOT": root, "PATH": dir.path + "/bin"], outputFile: dir.path + "/out")
        #expect(run.status == 0, "\(run.output)")
        // In an image (DPKG_ROOT) nothing is triggered or started.
        #expect(calls(log) == ["systemd-sysusers --root=\(root) dialkiosk.conf", "deb-systemd-helper unmask dialkiosk.service",
                               "deb-systemd-helper --quiet was-enabled dialkiosk.service", "deb-systemd-helper enable dialkiosk.service"])
    }

    @Test func theStepsOnARunningSystem() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let log = dir.path + "/calls", run = dir.path + "/run"
        for part in ["", "/udev", "/systemd", "/systemd/system"] { _ = mkdir(run + part, 0o755) }
        standIns(dir.path + "/bin", ["systemd-sysusers", "udevadm", "systemctl"], log: log)
        let script = ". \(repositoryRoot)/packaging/system-setup.sh; dk_create_user /usr/local/lib/sysusers.d/dialkiosk.conf; "
            + "dk_trigger_backlights; dk_enable_unit source; dk_enable_unit source /stage; dk_enable_unit other || echo refused $? >>\(log)"
        let result = runToCompletion(["/bin/sh", "-c", script], environment: ["dk_run": run, "PATH": dir.path + "/bin"],
                                     outputFile: dir.path + "/out")
        #expect(result.status == 0, "\(result.output)")
        #expect(calls(log) == ["systemd-sysusers /usr/local/lib/sysusers.d/dialkiosk.conf",
                               "udevadm control --reload", "udevadm trigger --subsystem-match=backlight --action=add",
                               "systemctl enable dialkiosk.service", "systemctl --root=/stage enable dialkiosk.service", "refused 64"])
        // Without a running udev or systemd: no trigger, and the symlink only.
        _ = rmdir(run + "/udev")
        _ = rmdir(run + "/systemd/system")
        _ = unlink(log)
        _ = runToCompletion(["/bin/sh", "-c", ". \(repositoryRoot)/packaging/system-setup.sh; dk_trigger_backlights; dk_enable_unit source"],
                            environment: ["dk_run": run, "PATH": dir.path + "/bin"], outputFile: dir.path + "/out")
        #expect(calls(log) == ["systemctl --root=/ enable dialkiosk.service"])
    }
}
