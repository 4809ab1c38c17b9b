import DialCore
import DialRender
import Foundation
import Testing
@testable import DialKioskApp
@testable import KioskRuntime
@testable import KioskReporting
@testable import KioskConfiguration
import KioskTestSupport

/// The command-line side of the hostile-file checks: `check-config` loads icons and
/// fonts as `run` does and warns about paths the unit's sandbox hides; a FIFO or a device where a
/// file is expected is refused at once with a message saying so.
@Suite struct CheckConfigFilesTests {
    /// A 65-byte PNG whose header declares 60000x60000 RGBA pixels (valid IHDR CRC, a tiny
    /// IDAT): `run` used to abort on it (status 134) while `check-config` said OK.
    static let bombPNG: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
        0xEA, 0x60, 0x00, 0x00, 0xEA, 0x60, 0x08, 0x06, 0x00, 0x00, 0x00, 0x80, 0xD2, 0x75, 0x42, 0x00, 0x00, 0x00,
        0x08, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01, 0x48, 0x06, 0x89, 0xD2, 0x00,
        0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    /// Runs the built `dialkiosk` under timeout(1), stdout and stderr together: code that
    /// blocks on a FIFO is killed after `seconds` (status 124) and the test fails instead of
    /// hanging the suite.
    func dialkiosk(_ arguments: [String], seconds: Int = 20) -> (status: Int32, output: String) {
        let log = "/tmp/dialkiosk-check-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
        defer { unlink(log) }
        return runToCompletion(["timeout", "--kill-after=5", String(seconds), builtKioskPath] + arguments, outputFile: log)
    }

    @Test func checkConfigLoadsIconsAndFontsAsRunDoes() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let bomb = dir.path + "/bomb.png"
        _ = FileManager.default.createFile(atPath: bomb, contents: Data(Self.bombPNG))
        let junk = dir.path + "/junk.ttf"
        writeFile(junk, String(repeating: "not a font ", count: 400))
        let cases: [(String, String)] = [
            ("items:\n  - {id: a, icon: \(bomb)}\n", "icon of item 'a' from \(bomb): declared size 60000x60000"),
            ("items:\n  - {id: a, icon: \(dir.path)/none.png}\n", "icon of item 'a' from \(dir.path)/none.png: No such file"),
            ("theme:\n  font: \(dir.path)/none.ttf\n", "load font \(dir.path)/none.ttf: No such file"),
            ("theme:\n  font: \(junk)\n", "load font \(junk): not a font file FreeType knows (unknown file format) (FreeType error 2)"),
            ("theme:\n  font: No Such Family Sans\n", "load font 'No Such Family Sans': no installed font has this family"),
        ]
        for (text, message) in cases {
            let config = dir.path + "/config.yaml"
            writeFile(config, text)
            let r = dialkiosk(["check-config", config])
            #expect(r.status == ExitStatus.noInput.rawValue, "\(text)")
            #expect(r.output.contains(message) && !r.output.contains("OK"), "\(r.output)")
        }
    }

    @Test func checkConfigWarnsAboutFilesTheServiceCannotSee() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let icon = dir.path + "/tea.png"
        try PNGWriter.write(PixelBuffer(width: 8, height: 8, fill: 0x00FF00), to: icon)
        let config = dir.path + "/config.yaml"
        writeFile(config, "items:\n  - {id: a}\n  - {id: tea, icon: \(icon)}\n")
        let r = dialkiosk(["check-config", config])
        #expect(r.status == 0)
        #expect(r.output.hasPrefix(
            "dialkiosk: warning: items[1].icon: \(icon) is under /tmp, which PrivateTmp=yes in dialkiosk.service hides from the service\n"
            + "\(config): OK: 2 items"), "\(r.output)")
    }

    @Test func sandboxedPathsAreTheOnesTheUnitHides() throws {
        #expect(ServiceSandbox.problem("/home/kiosk/tea.png") == "under /home, which ProtectHome=yes in dialkiosk.service hides from the service")
        #expect(ServiceSandbox.problem("/root/x.ttf")?.contains("ProtectHome=yes") == true)
        #expect(ServiceSandbox.problem("/run/user/1000/x.png")?.contains("ProtectHome=yes") == true)
        #expect(ServiceSandbox.problem("/var/tmp/x.png")?.contains("PrivateTmp=yes") == true)
        #expect(ServiceSandbox.problem("/tmp")?.contains("PrivateTmp=yes") == true)
        #expect(ServiceSandbox.problem("/homework/x.png") == nil)
        #expect(ServiceSandbox.problem("/usr/share/dialkiosk/tea.png") == nil)
        let config = KioskConfig(items: [MenuItem(id: "a", label: "A", color: RGBColor(hex: 0), iconPath: "/home/a.png"),
                                         MenuItem(id: "b", label: "B", color: RGBColor(hex: 0), iconPath: "/usr/b.png")])
        #expect(ServiceSandbox.warnings(config: config, fontFiles: ["/root/.fonts/f.ttf", "/usr/share/f.ttf", "/root/.fonts/f.ttf"])
            == ["items[0].icon: /home/a.png is under /home, which ProtectHome=yes in dialkiosk.service hides from the service",
                "theme.font: /root/.fonts/f.ttf is under /root, which ProtectHome=yes in dialkiosk.service hides from the service"])
        // The warnings name the unit's settings: they must be there.
        let unit = try String(contentsOfFile: repositoryRoot + "/systemd/dialkiosk.service", encoding: .utf8)
        let lines = Set(unit.split(separator: "\n").map(String.init))
        for (_, setting) in ServiceSandbox.hidden { #expect(lines.contains(setting), "\(setting) is not in the unit") }
    }

    @Test func fifoConfigIconOrFontIsRefusedAtOnce() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fifo = dir.path + "/fifo"
        #expect(mkfifo(fifo, 0o644) == 0)
        let config = dir.path + "/config.yaml"
        let r = dialkiosk(["check-config", fifo])
        #expect(r.status == ExitStatus.noInput.rawValue)
        #expect(r.output == "dialkiosk: \(fifo): cannot open: is not a regular file (a FIFO)\n")
        writeFile(config, "items:\n  - {id: a, icon: \(fifo)}\n")
        let icon = dialkiosk(["render", "--size", "64x64", "--config", config, "--out", dir.path + "/x.png"])
        #expect(icon.status == ExitStatus.noInput.rawValue)
        #expect(icon.output.contains("icon of item 'a' from \(fifo): is not a regular file (a FIFO)"), "\(icon.output)")
        writeFile(config, "theme:\n  font: \(fifo)\n")
        let font = dialkiosk(["check-config", config])
        #expect(font.status == ExitStatus.noInput.rawValue)
        #expect(font.output.contains("load font \(fifo): is not a regular file (a FIFO)"), "\(font.output)")
    }

    @Test func libinputRecordThatIsNoFileSaysWhatItIs() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let directory = dialkiosk(["simulate", "--libinput-record", dir.path])
        #expect(directory.status == ExitStatus.noInput.rawValue)
        #expect(directory.output == "dialkiosk: \(dir.path): is a directory\n")
        let zero = dialkiosk(["simulate", "--libinput-record", "/dev/zero"])
        #expect(zero.status == ExitStatus.noInput.rawValue)
        #expect(zero.output == "dialkiosk: /dev/zero: is not a regular file (a character device)\n")
        let missing = dialkiosk(["simulate", "--libinput-record", dir.path + "/none.yml"])
        #expect(missing.output == "dialkiosk: \(dir.path)/none.yml: no such libinput record file\n")
    }
}

