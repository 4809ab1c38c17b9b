import DialCore
import Glibc
import Testing
@testable import KioskRuntime
@testable import KioskConfiguration
@testable import KioskReporting
@testable import KioskFeatures
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
        // Prepared in the turn that asks (no frame loop here to poll a worker).
        let scenes = RunScenes(items: 5, painter: .flat, rotation: .none, panelSize: { (160, 120) }, offTheLoop: false)
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let service = try LegacyService(config: scenes.adjusted(try ConfigLoader.load(path: path)), configPath: path,
                                       controlPath: nil, environment: [:],
                                       logger: JournalLogger(format: LogFormat(journalPrefixes: false)) { _ in },
                                       eventsFD: devNull, now: 0, scenes: scenes)
        defer { service.stop(reason: "test", now: .nan) }
        #expect(service.config.items.count == 5)

        // The file as it was: no change (compared as it runs, not with its own two items).
        #expect(service.requestReload(at: 1).isEmpty)
        #expect(service.reloads.parsed == 1 && service.lastReloadFailure == nil)

        // Another change in the file: applied, and the service's items are still the five the dial shows.
        writeFile(path, "items: [{id: a, label: A}, {id: b, label: B}]\nbehaviour: {return_after_seconds: 5}\n")
        let requests = service.requestReload(at: 2)
        #expect(service.config.behaviour.returnAfter == 5)
        #expect(service.config.items.count == 5)
        guard case .replaceScene(let make, _)? = requests.first else { Issue.record("no new scene: \(requests)"); return }
        #expect((try make(nil).dial as? MenuDial)?.dial.items.count == 5)
    }
}
