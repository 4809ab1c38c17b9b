import Glibc
import Testing
import KioskTestSupport

/// scripts/install.sh and scripts/uninstall.sh into a DESTDIR, with a stand-in binary (the
/// release build itself is exercised by the VM test bed, not by unit tests).
@Suite struct InstallScriptTests {
    @Test func installEnableUninstallPurge() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let dest = dir.path + "/root", log = dir.path + "/log", stub = dir.path + "/dialkiosk-stub"
        writeFile(stub, "#!/bin/sh\nexit 0\n", mode: 0o755)
        let env = ["DESTDIR": dest, "PREFIX": "/usr"]

        let install = runToCompletion(["bash", repositoryRoot + "/scripts/install.sh", "--binary", stub, "--enable"],
                                      environment: env, outputFile: log)
        #expect(install.status == 0, "\(install.output)")
        #expect(fileMode(dest + "/usr/bin/dialkiosk").map { $0 & 0o777 } == 0o755)
        #expect(fileMode(dest + "/usr/lib/sysusers.d/dialkiosk.conf").map { $0 & 0o777 } == 0o644)
        #expect(readFile(dest + "/usr/lib/udev/rules.d/70-dialkiosk-backlight.rules")?.contains("RUN+=\"/bin/chgrp video /sys%p/brightness\"") == true)
        #expect(fileMode(dest + "/etc/dialkiosk/config.yaml").map { $0 & 0o777 } == 0o644)
        let unit = readFile(dest + "/usr/lib/systemd/system/dialkiosk.service") ?? ""
        #expect(unit.contains("\nExecStart=/usr/bin/dialkiosk run --config /etc/dialkiosk/config.yaml"))
        #expect(!unit.contains("/usr/local/bin"))
        #expect(fileMode(dest + "/etc/systemd/system/graphical.target.wants/dialkiosk.service").map { $0 & S_IFMT } == S_IFLNK)
        #expect(readFile(dest + "/etc/dialkiosk/config.yaml") == readFile(repositoryRoot + "/systemd/dialkiosk.yaml"))
        #expect(install.output.contains("skipped daemon-reload"))
        #expect(readFile(dest + "/usr/share/man/man5/dialkiosk.yaml.5")?.hasPrefix(".TH DIALKIOSK.YAML 5") == true)

        // A second install keeps the administrator's edited configuration.
        writeFile(dest + "/etc/dialkiosk/config.yaml", "items: [{id: mine}]\n")
        let again = runToCompletion(["bash", repositoryRoot + "/scripts/install.sh", "--binary", stub],
                                    environment: env, outputFile: log)
        #expect(again.status == 0, "\(again.output)")
        #expect(again.output.contains("keeping the existing /etc/dialkiosk/config.yaml"))
        #expect(readFile(dest + "/etc/dialkiosk/config.yaml") == "items: [{id: mine}]\n")

        let uninstall = runToCompletion(["bash", repositoryRoot + "/scripts/uninstall.sh"], environment: env, outputFile: log)
        #expect(uninstall.status == 0, "\(uninstall.output)")
        for path in ["/usr/bin/dialkiosk", "/usr/lib/systemd/system/dialkiosk.service",
                     "/usr/lib/sysusers.d/dialkiosk.conf", "/usr/lib/udev/rules.d/70-dialkiosk-backlight.rules",
                     "/etc/systemd/system/graphical.target.wants/dialkiosk.service", "/usr/share/man/man5/dialkiosk.yaml.5"] {
            #expect(fileMode(dest + path) == nil, "\(path) left behind")
        }
        #expect(readFile(dest + "/etc/dialkiosk/config.yaml") == "items: [{id: mine}]\n")

        let purge = runToCompletion(["bash", repositoryRoot + "/scripts/uninstall.sh", "--purge"], environment: env,
                                    outputFile: log)
        #expect(purge.status == 0)
        #expect(fileMode(dest + "/etc/dialkiosk") == nil)
    }

    @Test func otherPrefixesPutUnitsUnderEtc() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let dest = dir.path + "/root", stub = dir.path + "/stub"
        writeFile(stub, "#!/bin/sh\n", mode: 0o755)
        let result = runToCompletion(["bash", repositoryRoot + "/scripts/install.sh", "--binary", stub],
                                     environment: ["DESTDIR": dest, "PREFIX": "/opt/dialkiosk"], outputFile: dir.path + "/log")
        #expect(result.status == 0, "\(result.output)")
        #expect(readFile(dest + "/etc/systemd/system/dialkiosk.service")?.contains("ExecStart=/opt/dialkiosk/bin/dialkiosk run") == true)
        #expect(fileMode(dest + "/etc/sysusers.d/dialkiosk.conf") != nil)
        #expect(fileMode(dest + "/opt/dialkiosk/bin/dialkiosk") != nil)
    }

    @Test func badArgumentsAreUsageErrors() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let log = dir.path + "/log"
        let unknown = runToCompletion(["bash", repositoryRoot + "/scripts/install.sh", "--bogus"], outputFile: log)
        #expect(unknown.status == 64)
        #expect(unknown.output.contains("unknown option '--bogus'"))
        let relative = runToCompletion(["bash", repositoryRoot + "/scripts/install.sh", "--binary", "/bin/true"],
                                       environment: ["PREFIX": "usr", "DESTDIR": dir.path + "/d"], outputFile: log)
        #expect(relative.status == 64)
        let missing = runToCompletion(["bash", repositoryRoot + "/scripts/install.sh", "--binary", dir.path + "/none"],
                                      environment: ["DESTDIR": dir.path + "/d"], outputFile: log)
        #expect(missing.status == 66)
    }

    /// A PREFIX with a character that sed or systemd's ExecStart= would read:
    /// refused with status 64 before anything is written (no DESTDIR created, no temporary file);
    /// the characters that are plain text everywhere still install, named verbatim in ExecStart=.
    @Test func unsafePrefixesAreRefusedBeforeAnythingIsTouched() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let stub = dir.path + "/stub", log = dir.path + "/log", dest = dir.path + "/root"
        writeFile(stub, "#!/bin/sh\n", mode: 0o755)
        for prefix in ["/opt/my kiosk", "/opt/a&b", "/opt/a#b", "/opt/it's", "/opt/a\"b", "/opt/a\nb", "/opt/50%n",
                       "/opt/$HOME", "/opt/a\\b", "/opt/a;b", "/opt/a\tb"] {
            let result = runToCompletion(["bash", repositoryRoot + "/scripts/install.sh", "--binary", stub],
                                         environment: ["DESTDIR": dest, "PREFIX": prefix], outputFile: log)
            #expect(result.status == 64, "PREFIX \(prefix.debugDescription): \(result.output)")
            #expect(result.output.contains("PREFIX may hold only"), "\(result.output)")
            #expect(fileMode(dest) == nil, "PREFIX \(prefix.debugDescription) touched \(dest)")
        }
        let plain = runToCompletion(["bash", repositoryRoot + "/scripts/install.sh", "--binary", stub],
                                    environment: ["DESTDIR": dest, "PREFIX": "/opt/dial-kiosk_2.0+x/"], outputFile: log)
        #expect(plain.status == 0, "\(plain.output)")
        let unit = readFile(dest + "/etc/systemd/system/dialkiosk.service") ?? ""
        #expect(unit.contains("\nExecStart=/opt/dial-kiosk_2.0+x/bin/dialkiosk run --config"), "\(unit)")
        #expect(fileMode(dest + "/etc/systemd/system/dialkiosk.service.tmp") == nil)
    }

    /// A package from scripts/package.sh goes to apt alone: no source-install options, no
    /// DESTDIR (apt installs into the running system), and a missing file is status 66.
    @Test func aPackageIsInstalledAloneThroughApt() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let log = dir.path + "/log", deb = dir.path + "/dialkiosk_1.0_amd64.deb"
        let missing = runToCompletion(["bash", repositoryRoot + "/scripts/install.sh", deb], outputFile: log)
        #expect(missing.status == 66)
        #expect(missing.output.contains("no package at \(deb)"), "\(missing.output)")
        writeFile(deb, "not really a package\n")
        let withOption = runToCompletion(["bash", repositoryRoot + "/scripts/install.sh", deb, "--enable"], outputFile: log)
        #expect(withOption.status == 64)
        #expect(withOption.output.contains("a .deb is installed alone"), "\(withOption.output)")
        let staged = runToCompletion(["bash", repositoryRoot + "/scripts/install.sh", deb],
                                     environment: ["DESTDIR": dir.path + "/d"], outputFile: log)
        #expect(staged.status == 64)
    }

    /// The real (non-DESTDIR) path, in a private mount namespace so the host stays untouched:
    /// a tmpfs on /usr/local and an overlay on /etc. systemd-sysusers creates the user in the
    /// device groups; uninstall --purge removes everything but the user.
    @Test(.enabled(if: geteuid() == 0 && access("/usr/bin/unshare", X_OK) == 0
                   && access("/usr/bin/systemd-sysusers", X_OK) == 0))
    func realInstallInAPrivateMountNamespace() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let stub = dir.path + "/dialkiosk"
        writeFile(stub, "#!/bin/sh\necho \"stub $*\"\n", mode: 0o755)
        _ = mkdir(dir.path + "/upper", 0o755)
        _ = mkdir(dir.path + "/work", 0o755)
        let script = """
            set -e
            mount --make-rprivate /
            mount -t tmpfs tmpfs /usr/local
            mount -t overlay overlay -o lowerdir=/etc,upperdir=\(dir.path)/upper,workdir=\(dir.path)/work /etc
            bash \(repositoryRoot)/scripts/install.sh --binary \(stub)
            id dialkiosk
            test -f /usr/local/lib/systemd/system/dialkiosk.service
            test -f /etc/dialkiosk/config.yaml
            bash \(repositoryRoot)/scripts/uninstall.sh --purge
            test ! -e /usr/local/bin/dialkiosk && test ! -e /etc/dialkiosk && echo removed
            """
        let result = runToCompletion(["unshare", "--mount", "--fork", "bash", "-c", script], outputFile: dir.path + "/log")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("stub check-config /etc/dialkiosk/config.yaml"))
        let id = result.output.split(separator: "\n").first { $0.hasPrefix("uid=") } ?? ""
        #expect(id.contains("(dialkiosk)") && id.contains("(video)") && id.contains("(input)") && id.contains("(tty)"), "\(id)")
        #expect(result.output.hasSuffix("removed\n"))
    }
}
