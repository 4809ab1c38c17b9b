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
}
