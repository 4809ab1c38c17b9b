import DialCore
@testable import KioskConfiguration
import Glibc
import LinuxSystem
import MQTTLink
import Testing
@testable import KioskSeams
@testable import KioskRuntime
@testable import KioskReporting
@testable import KioskLoop
@testable import KioskFeatures
import KioskTestSupport

/// A source that, once armed, stands the turn still for `stall` seconds of the fake clock (a
/// slow command) and then hands the dial a fling, so the frame is queued late in the turn.
private final class StallingSource: PollSource {
    var armed: [InputEvent]?
    let stall: Double
    let advance: (Double) -> Void
    init(stall: Double, advance: @escaping (Double) -> Void) {
        self.stall = stall
        self.advance = advance
    }
    var pollDescriptors: [pollfd] { [] }
    func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        guard let events = armed else { return [] }
        armed = nil
        advance(stall)
        return [.input(events)]
    }
}

/// One hostile input must never stop the dial: bounds before decoding, and the loop's own
/// checks measure real time.
@Suite(.serialized) struct ProbeFaultTests {
    @Test func aFrameQueuedAtTheEndOfASlowTurnIsNotOverdueAtTheNextTurn() throws {
        let display = PipeDisplay()
        var clock = 100.0
        var lines: [String] = []
        let g = DialGeometry.fitting(width: 64, height: 48, count: 10)
        let dial = MenuDial(tree: try MenuTree(flat: DemoMenu.items), geometry: { _ in g })
        let stall = StallingSource(stall: 5) { clock += $0 }
        let loop = FrameLoop(output: LoopOutput(presenter: display),
                             sources: FrameLoop.sources(displays: [display]) + [stall],
                             scene: Scene(dial: dial) { _, _ in nil }, now: { clock }, log: { lines.append($0) })
        try loop.start(at: clock)
        clock += 1.0 / 60
        display.report(.frameShown(time: clock))
        _ = try loop.step(timeoutMS: 0)
        #expect(!loop.awaitsFlip)
        stall.armed = DemoFling.events(geometry: g, radPerSecond: 15, endTime: clock)
        _ = try loop.step(timeoutMS: 0)
        #expect(loop.awaitsFlip)
        // The flip was queued 5 s after the turn began; 10 ms later it is not overdue.
        let presentsBefore = display.presents
        clock += 0.01
        _ = try loop.step(timeoutMS: 0)
        #expect(!lines.contains { $0.contains("no flip event") }, "\(lines)")
        #expect(display.presents == presentsBefore)
    }

    @Test func aLogLineQuotingHostileInputIsBoundedAndNeverDropped() {
        var out: [String] = []
        let logger = JournalLogger(format: LogFormat(journalPrefixes: false)) { out.append($0) }
        let huge = "x" + String(repeating: "\u{301}", count: 200_000)
        logger.warning("mqtt: payload '\(huge)' is not one word")
        #expect(out.count == 1)
        #expect(out[0].utf8.count < JournalLogger.messageLimit + 100)
        #expect(out[0].contains("more bytes cut"))
        // The excerpt a refusal quotes counts scalars, not characters.
        #expect(huge.logExcerpt(64).unicodeScalars.count == 65)
    }

    @Test func anOversizedOrRetainedSetSelectIsRefusedUndecodedAndTheDialKeepsTurning() throws {
        let broker = try TestBroker()
        let sub = try TestSubscriber(broker: broker, id: "probe-sub", subscribe: ["dialkiosk/kiosk-test/#"])
        let base = "dialkiosk/kiosk-test"
        // 2 MB of combining marks: one grapheme, which today is copied, trimmed and split.
        let hostile = "drinks/juice" + String(repeating: "\u{301}", count: 1_000_000)
        // Retained before the kiosk connects: it arrives at every connect; retain is checked first.
        try sub.client.publish(topic: base + "/set/select", payload: hostile, qos: 1, retain: true)
        try sub.pump(seconds: 0.5)
        let kiosk = try MQTTKiosk(mqtt: section(broker))
        try kiosk.loop.start(at: kiosk.time.now)
        let online = try kiosk.settle(5, subscriber: sub) { sub.on(base + "/availability").contains("online") }
        #expect(online)
        try kiosk.settle(5, subscriber: sub) { kiosk.bridge.commandsRefused >= 1 }
        #expect(kiosk.logs.contains { $0.contains("set/select: a retained command is not run") }, "\(kiosk.logs.map { $0.prefix(200) })")
        // Clearing it is an empty set/select, refused too.
        try sub.client.publish(topic: base + "/set/select", payload: "", qos: 1, retain: true)
        try kiosk.settle(5, subscriber: sub) { kiosk.bridge.commandsRefused >= 2 }
        kiosk.time.now += 11  // past the refusal log's rate limit
        try sub.publish(base + "/set/select", hostile, qos: 1)
        try kiosk.settle(10, subscriber: sub) { kiosk.bridge.commandsRefused >= 3 }
        #expect(kiosk.bridge.commandsRefused == 3)
        #expect(kiosk.logs.contains { $0.contains("set/select: a payload of 2000012 bytes is over the 4096-byte limit") }, "\(kiosk.logs.map { $0.prefix(200) })")
        #expect(kiosk.logs.allSatisfy { $0.utf8.count < 4096 })
        // The dial still takes a command afterwards.
        try sub.publish(base + "/set/select", "tea", qos: 1)
        let turned = try kiosk.settle(5, subscriber: sub) { sub.on(base + "/event").contains { $0.contains("\"selected\"") && $0.contains("tea") } }
        #expect(turned)
    }
}

/// Reload storms: an unchanged file is not parsed again, however many reloads come.
@Suite struct ReloadStormTests {
    @Test func aFloodOfReloadsOfAnUnchangedFileParsesItOnce() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/k.yaml"
        // 512 items: eight rings of 63 and their eight ring items.
        let items = (0..<8).map { r in
            "  - id: r\(r)\n    label: Ring \(r)\n    items:\n" + (0..<63).map { "      - {id: i\($0), label: Item \(r).\($0)}\n" }.joined()
        }.joined()
        writeFile(path, "items:\n" + items)
        usleep(100_000)  // past the file system's clock tick: the first read's stamp is trusted
        let config = try ConfigLoader.load(path: path)
        var pipeFDs: [Int32] = [-1, -1]
        _ = pipe(&pipeFDs)
        defer { pipeFDs.forEach { close($0) } }
        _ = fcntl(pipeFDs[1], F_SETFL, O_NONBLOCK)
        let service = try LegacyService(config: config, configPath: path, controlPath: nil, environment: [:],
                                       logger: JournalLogger(format: LogFormat(journalPrefixes: false)) { _ in },
                                       eventsFD: pipeFDs[1], now: 0)
        for i in 0..<1000 {
            _ = service.requestReload(at: Double(i))
            if service.config != config { Issue.record("reload \(i) changed the configuration"); break }
        }
        #expect(service.reloads.parsed == 1, "parsed \(service.reloads.parsed) times")
        // A changed file is read again at once.
        writeFile(path, "items:\n" + items.replacing("label: Ring 0", with: "label: Ring Zero"))
        _ = service.requestReload(at: 2000)
        #expect(service.config.items.first?.label == "Ring Zero", "the changed file was applied")
    }
}

/// Lines a remote input causes at will are rate-limited: 20,000 refused selects over MQTT or
/// unchanged reloads log at most one line per 10 s, with the count.
@Suite struct RemoteLogFloodTests {
    @Test func unknownSelectsAndUnchangedReloadsLogOncePerInterval() throws {
        let rig = try LoggedServiceRig()
        let service = rig.service!
        var lines: [String] { rig.lines }
        let request = ControlServer.Request(client: .mqtt, command: .select(path: MenuPath(["nosuch"])))
        for i in 0..<20_000 { service.replyError(request, "no item with id 'nosuch'", now: Double(i) * 0.001) }
        for i in 0..<1000 { _ = service.requestReload(at: Double(i) * 0.001) }
        #expect(lines.count <= 3, "\(lines.count) lines")
        service.replyError(request, "no item with id 'nosuch'", now: 30)
        #expect(lines.last?.contains("more since the last such line") == true)
    }
}
