import Glibc
import Testing
@testable import KioskServiceKit

/// The probe's small ones: a signed brightness, a relative uninstall PREFIX, what a purge leaves.
@Suite struct SmallProbeTests {
    @Test func aSignedBrightnessIsRefusedNotABlankScreen() {
        for text in ["-0", "+5", "-00", "0x10"] {
            guard case .invalid = ControlLine.parse("brightness \(text)") else {
                Issue.record("brightness \(text) was taken")
                continue
            }
        }
        #expect(ControlLine.parse("brightness 0") == .command(.brightness(0)))
    }

    @Test func uninstallRefusesARelativePrefix() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let result = runToCompletion(["bash", repositoryRoot + "/scripts/uninstall.sh"],
                                     environment: ["DESTDIR": dir.path + "/root", "PREFIX": "usr/local"], outputFile: dir.path + "/log")
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.contains("PREFIX must be an absolute path"))
    }

    @Test func postrmPurgeRemovesTheRunDirectory() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let root = dir.path + "/root"
        _ = runToCompletion(["mkdir", "-p", root + "/run/dialkiosk", root + "/etc/dialkiosk"], outputFile: dir.path + "/log")
        writeFile(root + "/run/dialkiosk/backlight-intel_backlight", "200 50\n")
        // Only rm on PATH: the script's systemd helpers are not run against this machine.
        _ = runToCompletion(["mkdir", "-p", dir.path + "/bin"], outputFile: dir.path + "/log")
        symlink("/bin/rm", dir.path + "/bin/rm")
        let result = runToCompletion(["/bin/sh", repositoryRoot + "/packaging/debian/postrm", "purge"],
                                     environment: ["DPKG_ROOT": root, "PATH": dir.path + "/bin"], outputFile: dir.path + "/log")
        #expect(result.status == 0, "\(result.output)")
        #expect(fileMode(root + "/run/dialkiosk") == nil, "purge left /run/dialkiosk")
    }
}
