import DialCore
import Glibc
import Testing
@testable import DialKioskApp
@testable import KioskConfiguration
@testable import KioskReporting
@testable import KioskServiceKit
import KioskTestSupport

/// The running configuration has one owner (the service) and one place that
/// turns a file into it (`SceneBuilding.adjusted`), so what the service checks commands and
/// names events against is what the dial shows, at the start and after every reload.
@Suite struct ConfigOwnerTests {
    @Test func itemsFromTheCommandLineStayTheRunningItemsThroughAReload() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/config.yaml"
        writeFile(path, "items: [{id: a, label: A}, {id: b, label: B}]\n")
        let options = try RunOptions.parse(["--items", "5", "--painter", "flat"])
        let output = RunOutput.virtual(VirtualDisplaySpec(width: 160, height: 120, refreshHz: 60), rotation: .none,
                                       origin: 0, now: { 0 }, logger: JournalLogger(format: LogFormat(journalPrefixes: false)) { _ in })
        let scenes = RunScenes(options: options, output: output)
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let service = try KioskService(config: scenes.adjusted(try ConfigLoader.load(path: path)), configPath: path,
                                       controlPath: nil, environment: [:],
                                       logger: JournalLogger(format: LogFormat(journalPrefixes: false)) { _ in },
                                       eventsFD: devNull, now: 0, scenes: scenes)
        defer { service.stop(reason: "test", now: .nan) }
        #expect(service.config.items.count == 5)

        // The file as it was: no change (compared as it runs, not with its own two items).
        #expect(service.readForReload(now: 1) == .unchanged)

        // Another change in the file: applied, and the service's items are still the five the dial shows.
        writeFile(path, "items: [{id: a, label: A}, {id: b, label: B}]\nbehaviour: {return_after_seconds: 5}\n")
        let applied = service.reload(now: 2) { config, _ in try scenes.build(config, .index(nil)) }
        #expect(applied?.1 == [.behaviour])
        #expect(service.config.items.count == 5)
        #expect((applied?.0.dial as? MenuDial)?.dial.items.count == 5)
    }
}
