import Glibc
import LinuxSystem
import Testing
@testable import KioskConfiguration
@testable import KioskReporting
@testable import KioskFeatures
import KioskTestSupport

/// Lines a remote input can cause at will go to the journal at most once per 10 s, with the
/// count held back.
@Suite(.serialized) struct RemoteLineFloodTests {
    @Test func speechOnOffFloodsLogOncePerInterval() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        writeFile(dir.path + "/k.yaml", """
            items: [{id: a, label: A}]
            accessibility:
              voice: en
              device: "file:'\(dir.path)/out.raw',raw"

            """)
        let settings = try #require(try ConfigLoader.load(path: dir.path + "/k.yaml").accessibility)
        var lines: [String] = []
        let speech = SpeechBridge(logger: JournalLogger(format: LogFormat(journalPrefixes: false)) { lines.append($0) })
        // 20,000 `speech off` in 2 s, then 20,000 with no accessibility section.
        for i in 0..<20_000 { speech.setSpeech(false, settings: settings, now: Double(i) * 0.0001) }
        for i in 0..<20_000 { speech.setSpeech(i % 2 == 0, settings: nil, now: 100 + Double(i) * 0.0001) }
        #expect(lines.count <= 2, "\(lines.count) lines: \(lines.prefix(3))")
        speech.setSpeech(false, settings: settings, now: 200)
        #expect(lines.last?.contains("more since the last such line") == true, "\(lines.suffix(2))")
        speech.stop()
    }

    @Test func reloadsOfOneBrokenFileLogItsReasonOncePerInterval() throws {
        let rig = try LoggedServiceRig()
        let service = rig.service!, path = rig.path
        var lines: [String] { rig.lines }
        writeFile(path, "items: [{id: a, label: A}, {id: a, label: Again}]\n")
        for i in 0..<1000 {
            let now = Double(i) * 0.005
            _ = service.requestReload(at: now)
        }
        let refusals = lines.filter { $0.contains("keeping the running configuration") }
        #expect(refusals.count == 1, "\(refusals.count) lines")
        // Another reason is said at once.
        writeFile(path, "items: [{id: b, label: B}, {id: b, label: Again}]\n")
        _ = service.requestReload(at: 5.1)
        #expect(lines.filter { $0.contains("keeping the running configuration") }.count == refusals.count + 1)
    }
}
