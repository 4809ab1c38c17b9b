import Glibc
import Testing
@testable import KioskConfiguration
import KioskTestSupport

/// A validator never writes, runs or connects: check-config reads the ALSA device's name and
/// never opens it (ALSA's file plugin truncates a path, `|` runs a command).
@Suite struct CheckConfigActsNotTests {
    private func config(_ dir: TemporaryDirectory, device: String) -> String {
        let path = dir.path + "/k.yaml"
        writeFile(path, "items: [{id: a, label: A}]\naccessibility:\n  speech: off\n  sound_cues: on\n  device: \"\(device)\"\n")
        return path
    }

    @Test func aFileOrPipePluginIsRefusedAndNothingIsWrittenOrRun() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let victim = dir.path + "/victim"
        writeFile(victim, "keep me\n")
        let marker = dir.path + "/ran"
        for (device, status) in [("file:'\(victim)',raw", 0), ("plug:'file:\(victim)'", 78), ("file:'|touch \(marker)'", 78),
                                 ("tee:'default','\(victim)'", 78)] {
            let result = CheckConfigFilesTests().dialkiosk(["check-config", config(dir, device: device)])
            #expect(result.status == Int32(status), "\(device): \(result.output)")
            #expect(result.output.contains("accessibility.device"), "\(result.output)")
            if status == 0 { #expect(result.output.contains("not opened by check-config"), "\(result.output)") }
            #expect(readFile(victim) == "keep me\n", "\(device) wrote to the file")
            #expect(access(marker, F_OK) != 0, "\(device) ran a command")
        }
    }

    @Test func aCardIsLookedUpNotOpenedAndOtherNamesAreSaidUnchecked() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let missing = CheckConfigFilesTests().dialkiosk(["check-config", config(dir, device: "plughw:NoSuchCard9,0")])
        #expect(missing.status == 0, "\(missing.output)")
        #expect(missing.output.contains("sound card 'NoSuchCard9' is not present now"), "\(missing.output)")
        let other = CheckConfigFilesTests().dialkiosk(["check-config", config(dir, device: "default")])
        #expect(other.status == 0)
        #expect(other.output.contains("'default' is not opened by check-config"), "\(other.output)")
    }

    /// ALSA's name parser unescapes and unquotes before it looks for a pipe: every spelling of
    /// one (octal, hex, quoted, concatenated, plain) and other shell characters are refused by
    /// check-config with the file, line and key, and nothing runs.
    @Test func everySpellingOfAPipeIsRefusedLocatedAndNothingRuns() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let marker = dir.path + "/ran"
        let spellings = ["file:'\\\\174touch \(marker)'", "file:'\\\\x7ctouch \(marker)'", "file:\\\"|touch \(marker)\\\"",
                         "file:'|'\\\"touch \(marker)\\\"", "|touch \(marker)", "hw:0,0|touch", "plughw:$(touch \(marker)),0",
                         "hw:0, 0", "default ", "hw:0,0;touch", "plughw:Loop back,0"]
        for device in spellings {
            let result = CheckConfigFilesTests().dialkiosk(["check-config", config(dir, device: device)])
            #expect(result.status == 78, "\(device): \(result.output)")
            #expect(result.output.contains("k.yaml:5: accessibility.device: "), "\(device): \(result.output)")
            #expect(result.output.contains("is not a device name the kiosk opens"), "\(device): \(result.output)")
            #expect(access(marker, F_OK) != 0, "\(device) ran a command")
        }
        for device in ["default", "hw:0", "hw:1,0", "plughw:1,0", "plughw:Loopback,0,0", "hw:CARD_1-x,3", "dmix", "null"] {
            let result = CheckConfigFilesTests().dialkiosk(["check-config", config(dir, device: device)])
            #expect(result.status == 0, "\(device): \(result.output)")
        }
    }
}
