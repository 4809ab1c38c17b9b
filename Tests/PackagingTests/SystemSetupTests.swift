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
        // The package's user and enabling are debhelper's snippets (MaintainerScriptTests), put
        // where the postinst's token stands; the steps no helper takes come from the shared script.
        let all = try #require(readFile(repositoryRoot + "/packaging/debian/postinst")).split(separator: "\n")
        #expect(all.contains("#DEBHELPER#"))
        for (name, lines) in [("install.sh", install), ("postinst", postinst)] {
            for step in ["systemd-sysusers", "udevadm", "deb-systemd-helper", "systemctl enable", "--now"] {
                #expect(!lines.contains { $0.contains(step) }, "\(name) calls \(step) itself")
            }
        }
        for shared in ["dk_create_user", "dk_trigger_backlights", "dk_enable_unit source"] {
            #expect(install.contains { $0.hasPrefix(shared) }, "install.sh does not run \(shared)")
        }
        for shared in ["dk_install_config", "dk_trigger_backlights"] {
            #expect(postinst.contains { $0.hasPrefix(shared) }, "postinst does not run \(shared)")
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

    /// The configuration is made once, when missing: an edited one (an upgrade's case) is kept
    /// byte for byte, and nothing is left beside it.
    @Test func theConfigurationIsMadeOnlyWhenMissing() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        writeFile(dir.path + "/example.yaml", "items: [{id: example}]\n")
        let target = dir.path + "/etc/dialkiosk/config.yaml"
        let script = ". \(repositoryRoot)/packaging/system-setup.sh; dk_install_config \(dir.path)/example.yaml \(target)"
        var result = runToCompletion(["/bin/sh", "-c", script], outputFile: dir.path + "/out")
        #expect(result.status == 0, "\(result.output)")
        #expect(readFile(target) == "items: [{id: example}]\n")
        writeFile(target, "items: [{id: edited}]\n")
        result = runToCompletion(["/bin/sh", "-c", script], outputFile: dir.path + "/out")
        #expect(result.status == 0, "\(result.output)")
        #expect(readFile(target) == "items: [{id: edited}]\n")
        #expect(access(target + ".dpkg-new-tmp", F_OK) != 0)
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
