import ArgumentParser
import Glibc
import Testing
@testable import DialKioskApp
@testable import KioskRuntime
@testable import KioskReporting
@testable import KioskConfiguration
import KioskTestSupport

/// `splash`: a Plymouth theme whose picture is `render`'s at the same options.
@Suite struct SplashCommandTests {
    private func bytes(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        return out
    }

    private func run(_ arguments: [String]) throws {
        var command = try DialKioskCommand.parseAsRoot(arguments)
        try command.run()
    }

    @Test(arguments: [(["--size", "320x240"], ["--size", "320x240"]),
                      (["--size", "240x320", "--rotate", "90"], ["--size", "240x320", "--rotate", "90"])])
    func thePictureIsRendersAtTheSameOptions(splash: [String], render: [String]) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.path + "/config.yaml"
        writeFile(config, "items:\n  - id: tea\n    label: Tea\n  - id: soup\n    label: Soup\n    color: \"#E05A5A\"\n")
        try run(["splash", "--out", dir.path + "/theme", "--config", config] + splash)
        try run(["render", "--out", dir.path + "/render.png", "--config", config] + render)
        let picture = try #require(bytes(dir.path + "/theme/dial.png"))
        #expect(picture.count > 100)
        // A Bool, so a failure does not print both files byte by byte.
        let samePicture = picture == bytes(dir.path + "/render.png")
        #expect(samePicture, "dial.png differs from render's PNG")
    }

    @Test func theThemeFilesNameThePluginThePictureAndTheInstalledPaths() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try run(["splash", "--out", dir.path + "/theme", "--size", "800x480"])
        let theme = try #require(readFile(dir.path + "/theme/dialkiosk.plymouth"))
        let lines = theme.split(separator: "\n").map(String.init)
        for line in ["[Plymouth Theme]", "ModuleName=script", "[script]",
                     "ImageDir=/usr/share/plymouth/themes/dialkiosk",
                     "ScriptFile=/usr/share/plymouth/themes/dialkiosk/dialkiosk.script"] {
            #expect(lines.contains(line), "missing \(line)")
        }
        #expect(theme.contains("800x480"))
        let script = try #require(readFile(dir.path + "/theme/dialkiosk.script"))
        #expect(script.contains("Image(\"dial.png\")"))
        // Unscaled: the picture is never passed through Scale().
        #expect(!script.contains("Scale"))
        #expect(script.contains("Sprite(dial.image)"))
    }

    @Test func withoutAnOutputItAsksForTheSize() {
        do {
            _ = try SplashCommand.connectedOutput(KioskConfig.Display(device: "/nonexistent/card9"))
            Issue.record("an output was found")
        } catch let error as CommandFailure {
            #expect(error.description.contains("--size WxH"), "\(error.description)")
            #expect(error.exitStatus == .noDevice)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aBadRotationIsAUsageError() {
        #expect(throws: (any Error).self) { try DialKioskCommand.parseAsRoot(["splash", "--out", "/tmp/x", "--rotate", "45"]) }
    }
}

/// `splash --out DIR` into a directory where someone planted links under the theme's names:
/// the links are replaced, the files they point to are untouched; `--size` is bounded.
@Suite struct SplashLinksTests {
    @Test func plantedLinksAreReplacedNotFollowed() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let out = dir.path + "/theme"
        mkdir(out, 0o755)
        let theme = PlymouthTheme(width: 64, height: 48)
        var victims: [String] = []
        for name in [theme.themeFileName, theme.scriptFileName, PlymouthTheme.pictureFile] {
            let victim = dir.path + "/victim-" + name
            writeFile(victim, "precious\n")
            symlink(victim, out + "/" + name)
            victims.append(victim)
        }
        var command = try DialKioskCommand.parseAsRoot(["splash", "--out", out, "--size", "64x48"])
        try command.run()
        for victim in victims { #expect(readFile(victim) == "precious\n", "\(victim) was written through a link") }
        for name in [theme.themeFileName, theme.scriptFileName, PlymouthTheme.pictureFile] {
            var st = stat()
            #expect(lstat(out + "/" + name, &st) == 0 && st.st_mode & S_IFMT == S_IFREG, "\(name) is not a regular file")
        }
    }

    @Test func aSizePastAnEightKPanelIsRefused() {
        #expect(throws: (any Error).self) { _ = try DialKioskCommand.parseAsRoot(["splash", "--out", "/tmp/x", "--size", "16384x16384"]) }
        #expect(throws: (any Error).self) { _ = try DialKioskCommand.parseAsRoot(["render", "--out", "/tmp/x.png", "--size", "16384x16384"]) }
    }
}
