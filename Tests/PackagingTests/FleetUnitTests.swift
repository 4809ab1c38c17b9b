import Testing
import KioskTestSupport

/// The unit gets exactly one new writable place: its state folder.
@Suite struct FleetUnitTests {
    @Test func stateDirectoryIsTheOnlyWritableAddition() throws {
        let text = try #require(readFile(SystemdUnitTests.unitPath))
        let lines = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
        #expect(lines.contains("StateDirectory=dialkiosk"))
        let directories = lines.filter { $0.contains("Directory=") && !$0.contains("DirectoryMode=") && !$0.contains("DirectoryPreserve=") }
        #expect(directories == ["RuntimeDirectory=dialkiosk", "CacheDirectory=dialkiosk", "StateDirectory=dialkiosk"], "\(directories)")
        #expect(lines.contains("ProtectSystem=strict"))
    }

    /// `uninstall.sh --purge` removes the pushed configurations with the rest; a plain one keeps them.
    @Test func purgeRemovesTheStateDirectory() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let dest = dir.path + "/root", log = dir.path + "/log"
        #expect(runToCompletion(["mkdir", "-p", dest + "/var/lib/dialkiosk"], outputFile: log).status == 0)
        writeFile(dest + "/var/lib/dialkiosk/current.bundle", "x")
        let env = ["DESTDIR": dest, "PREFIX": "/usr"]
        #expect(runToCompletion(["bash", repositoryRoot + "/scripts/uninstall.sh"], environment: env, outputFile: log).status == 0)
        #expect(fileMode(dest + "/var/lib/dialkiosk/current.bundle") != nil, "a plain uninstall keeps the state")
        #expect(runToCompletion(["bash", repositoryRoot + "/scripts/uninstall.sh", "--purge"], environment: env, outputFile: log).status == 0)
        #expect(fileMode(dest + "/var/lib/dialkiosk") == nil, "--purge left the state directory")
        #expect(fileMode(dest + "/var/lib") != nil, "only dialkiosk's own directory goes")
    }
}
