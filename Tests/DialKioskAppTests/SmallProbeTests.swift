import ArgumentParser
import Glibc
import KioskVocabulary
import Testing
@testable import DialKioskApp
@testable import KioskRuntime
@testable import KioskConfiguration
@testable import KioskFeatures
import KioskTestSupport

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

    @Test func aHugeConfigIsNamedByItsRealSize() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/huge.yaml"
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        #expect(ftruncate(fd, 300 << 20) == 0)  // sparse: no disk taken
        close(fd)
        do {
            _ = try ConfigLoader.load(path: path)
            Issue.record("a 300 MB file was taken")
        } catch {
            #expect("\(error)".contains("\(300 << 20) bytes"), "\(error)")
        }
    }

    @Test func aControlSocketInAMissingDirectoryIsAUsageError() {
        #expect(throws: (any Error).self) {
            _ = try DialKioskCommand.parseAsRoot(["run", "--display", "virtual", "--control", "/nonexistent-dialkiosk/dir/control.sock"])
        }
        let exit = DialKioskCommand.exitCode(for: ValidationError("x"))
        #expect(exit.rawValue == 64)
    }
}

/// Values check-config once took that can never work.
@Suite struct NeverWorkingValuesTests {
    @Test func topicsWithC1ControlsOrNoncharactersAreRefused() {
        #expect(MQTTSettings.topicProblem("kiosk/\u{85}lobby") != nil)
        for value: UInt32 in [0xFDD0, 0xFFFF, 0x1FFFE] {
            let topic = "kiosk/" + String(Character(Unicode.Scalar(value)!))
            #expect(MQTTSettings.topicProblem(topic) != nil, "U+\(String(value, radix: 16))")
        }
        #expect(MQTTSettings.topicProblem("kiosk/lobby-ü") == nil)
    }

    @Test func aBrokerNameTheHostsFileDoesNotListIsSaid() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        writeFile(dir.path + "/hosts", "127.0.0.1 localhost\n10.0.0.5 broker.lan broker # the hall\n")
        #expect(MQTTSettings.hostProblem("broker", hostsFile: dir.path + "/hosts") == nil)
        #expect(MQTTSettings.hostProblem("10.0.0.9", hostsFile: dir.path + "/hosts") == nil)
        #expect(MQTTSettings.hostProblem("::1", hostsFile: dir.path + "/hosts") == nil)
        let said = MQTTSettings.hostProblem("mqtt.example.com", hostsFile: dir.path + "/hosts")
        #expect(said?.contains("looked up in DNS") == true, "\(said ?? "nil")")
        #expect(MQTTSettings.hostProblem("the", hostsFile: dir.path + "/hosts") != nil)  // a comment's word
    }

    @Test func aCAFileThatIsNotPEMIsSaid() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        writeFile(dir.path + "/ca.pem", "not a certificate\n")
        let settings = MQTTSettings(host: "h", tls: MQTTSettings.TLS(caFile: dir.path + "/ca.pem", certFile: nil, keyFile: nil))
        #expect(settings.fileProblems.contains { $0.contains("holds no PEM certificate") }, "\(settings.fileProblems)")
    }
}
