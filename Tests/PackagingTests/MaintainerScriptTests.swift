import Glibc
import Testing
import KioskTestSupport

/// The package's maintainer scripts as the package build writes them: packaging/debhelper.sh runs
/// debhelper's helpers (the host's here; Debian 13's in the build root, where
/// `scripts/debian13.sh test` runs this too) over a small staged tree, and the scripts it writes
/// are run with stand-in tools that record their calls.
@Suite(.enabled(if: access("/usr/bin/dh_installdeb", X_OK) == 0, "needs debhelper (scripts/install-deps.sh)"))
struct MaintainerScriptTests {
    /// The DEBIAN directory debhelper.sh writes for a tree holding the example configuration.
    private func generated(_ dir: TemporaryDirectory) throws -> String {
        let tree = dir.path + "/tree"
        for part in ["", "/usr", "/usr/share", "/usr/share/dialkiosk"] { _ = mkdir(tree + part, 0o755) }
        writeFile(tree + "/usr/share/dialkiosk/config.yaml", "items: [{id: example}]\n")
        let unit = try #require(readFile(repositoryRoot + "/systemd/dialkiosk.service"))
        writeFile(dir.path + "/dialkiosk.service", unit)
        let run = runToCompletion(["bash", repositoryRoot + "/packaging/debhelper.sh", tree, "amd64", dir.path + "/dialkiosk.service",
                                   "shlibs:Depends=libc6 (>= 2.38)", "swift:Depends=libswiftlang (>= 6.0.3)",
                                   "dlopen:Recommends=libmosquitto1"],
                                  environment: ["TMPDIR": dir.path], outputFile: dir.path + "/dh.log")
        #expect(run.status == 0, "\(run.output)")
        return tree + "/DEBIAN"
    }

    private func standIns(_ dir: String, _ tools: [String], log: String) {
        _ = mkdir(dir, 0o755)
        for tool in tools { writeFile(dir + "/" + tool, "#!/bin/sh\necho \"${0##*/} $*\" >>\(log)\n", mode: 0o755) }
    }

    private func calls(_ log: String) -> [String] {
        (readFile(log) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func theHelpersWriteTheSystemdAndSysusersPartsAndTheControlFile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let debian = try generated(dir)
        let postinst = try #require(readFile(debian + "/postinst"))
        let prerm = try #require(readFile(debian + "/prerm"))
        let postrm = try #require(readFile(debian + "/postrm"))
        #expect(postinst.contains("Automatically added by dh_installsysusers"))
        #expect(postinst.contains("Automatically added by dh_installsystemd"))
        #expect(postrm.contains("Automatically added by dh_installsystemd") && postrm.contains("deb-systemd-helper purge 'dialkiosk.service'"))
        // No stop before an upgrade and one try-restart after it: the service restarts once.
        #expect(access(debian + "/preinst", F_OK) != 0, "a preinst stops the kiosk before the upgrade")
        #expect(postinst.components(separatedBy: "deb-systemd-invoke try-restart 'dialkiosk.service'").count == 2)
        #expect(!postinst.contains("deb-systemd-invoke restart"))
        #expect(postinst.components(separatedBy: "deb-systemd-invoke start 'dialkiosk.service'").count == 2, "the one start is postinst's own")
        #expect(prerm.contains("[ \"$1\" = remove ]") && prerm.contains("deb-systemd-invoke stop 'dialkiosk.service'"))
        for script in [postinst, prerm, postrm] { #expect(!script.contains("#DEBHELPER#")) }
        // The user comes first, the configuration before the unit is enabled, the start last.
        let order = ["dk_install_config", "systemd-sysusers", "deb-systemd-helper enable", "deb-systemd-invoke start"]
        let positions = try order.map { try #require(postinst.range(of: $0), "\($0)").lowerBound }
        #expect(positions == positions.sorted())
        // The control file: the substvars, dh_installsysusers' alternatives, nothing invented.
        let control = try #require(readFile(debian + "/control"))
        #expect(control.contains("\nArchitecture: amd64\n") && control.contains("\nVersion: "))
        #expect(control.contains("\nDepends: libc6 (>= 2.38), libswiftlang (>= 6.0.3), fonts-dejavu-core, systemd | systemd-standalone-sysusers | systemd-sysusers"))
        #expect(control.contains("\nRecommends: libmosquitto1\n") && control.contains("\nSuggests: novnc\n"))
        #expect(!control.contains("Homepage:"))
        #expect(access(debian + "/conffiles", F_OK) != 0)
        #expect(try #require(readFile(debian + "/md5sums")).contains("usr/lib/sysusers.d/dialkiosk.conf"))
    }

    /// In an image (DPKG_ROOT, no systemd running): the configuration made from the example, the
    /// user created in the image, the unit enabled, nothing triggered or started; an upgrade
    /// there keeps an edited configuration byte for byte.
    @Test func postinstInAnImage() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let debian = try generated(dir)
        let root = dir.path + "/root", log = dir.path + "/calls"
        for part in ["", "/usr", "/usr/lib", "/usr/lib/dialkiosk", "/usr/share", "/usr/share/dialkiosk"] { _ = mkdir(root + part, 0o755) }
        writeFile(root + "/usr/lib/dialkiosk/system-setup.sh", try #require(readFile(repositoryRoot + "/packaging/system-setup.sh")))
        writeFile(root + "/usr/share/dialkiosk/config.yaml", "items: [{id: example}]\n")
        standIns(dir.path + "/bin", ["systemd-sysusers", "udevadm", "deb-systemd-helper", "deb-systemd-invoke", "systemctl"], log: log)
        let env = ["DPKG_ROOT": root, "PATH": dir.path + "/bin:/usr/bin:/bin"]
        var run = runToCompletion(["/bin/sh", debian + "/postinst", "configure"], environment: env, outputFile: dir.path + "/out")
        #expect(run.status == 0, "\(run.output)")
        #expect(readFile(root + "/etc/dialkiosk/config.yaml") == "items: [{id: example}]\n")
        #expect(fileMode(root + "/etc/dialkiosk/config.yaml").map { $0 & 0o777 } == 0o644)
        #expect(fileMode(root + "/etc/dialkiosk").map { $0 & 0o777 } == 0o755)
        let made = calls(log)
        #expect(made.first == "systemd-sysusers --root=\(root) dialkiosk.conf", "\(made)")
        #expect(made.contains("deb-systemd-helper enable dialkiosk.service"), "\(made)")
        #expect(!made.contains { $0.hasPrefix("deb-systemd-invoke") || $0.hasPrefix("udevadm") || $0.hasPrefix("systemctl") }, "\(made)")

        writeFile(root + "/etc/dialkiosk/config.yaml", "items: [{id: edited}]\n")
        run = runToCompletion(["/bin/sh", debian + "/postinst", "configure", "0.1.0"], environment: env, outputFile: dir.path + "/out")
        #expect(run.status == 0, "\(run.output)")
        #expect(readFile(root + "/etc/dialkiosk/config.yaml") == "items: [{id: edited}]\n")
        #expect(!calls(log).contains { $0.hasPrefix("deb-systemd-invoke") })
    }
}
