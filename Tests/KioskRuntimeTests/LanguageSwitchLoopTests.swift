import DialCore
import DialRender
import Glibc
import KioskVocabulary
import Testing
@testable import KioskSeams
@testable import KioskRuntime
@testable import KioskFeatures
@testable import KioskConfiguration
@testable import KioskLoop
@testable import KioskReporting
import KioskTestSupport

/// A language switch in the middle of a spin, on the virtual display in virtual time, through
/// the service's own switch (what `language de`, `<base>/set/language` and the languages ring
/// call): the next frame shows the new labels, the spin goes on, no vblank is missed, and the
/// event lines say `language` and then `selected` in the new language.
@Suite struct LanguageSwitchLoopTests {
    static let config = """
        languages:
          - {code: en, voice: en, name: English}
          - {code: de, voice: de, name: Deutsch}
        items:
          - {id: coffee, label: {en: Coffee, de: Kaffee}, description: {en: Fresh, de: Frisch}}
          - {id: tea, label: {en: Tea, de: Tee}}
          - {id: water, label: {en: Water, de: Wasser}}
          - {id: juice, label: {en: Juice, de: Saft}}
          - {id: milk, label: {en: Milk, de: Milch}}
        """

    /// What a source hands the loop at virtual times (no descriptor, a deadline).
    final class Script: PollSource {
        var steps: [(time: Double, events: () -> [LoopEvent])]
        init(_ steps: [(time: Double, events: () -> [LoopEvent])]) { self.steps = steps }
        var pollDescriptors: [pollfd] { [] }
        func wakeUp(now: Double) -> Double? { steps.first?.time }
        func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
            guard let step = steps.first, now >= step.time else { return [] }
            steps.removeFirst()
            return step.events()
        }
    }

    struct Frame {
        var time: Double
        var pose: DialPose
        var pixels: [UInt32]
    }

    @Test func aSwitchMidSpinRelabelsTheNextFrameAndMissesNone() throws {
        let width = 320, height = 240
        let config = try ConfigParser.parse(Self.config, file: "lang.yaml")
        let clock = VirtualClock()
        let display = VirtualDisplay(width: width, height: height, timing: .init(refresh: 60)) { clock.now }
        var frames: [Frame] = []
        var shown: [Double] = []
        let base = try SceneRecipe.scene(config: config, resting: .index(nil), width: width, height: height,
                                        rotation: .none, painter: .dial)
        var scene = Scene(dial: base.dial) { pose, target in
            let damage = try base.paint(pose, target)
            var pixels = [UInt32](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width { pixels[y * width + x] = target.base.load(fromByteOffset: y * target.stride + x * 4, as: UInt32.self) }
            }
            frames.append(Frame(time: clock.now, pose: pose, pixels: pixels))
            return damage
        }
        scene.setLanguage = base.setLanguage
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        defer { close(fds[0]); close(fds[1]) }
        let service = try LegacyService(config: config, configPath: nil, controlPath: nil, environment: [:],
                                       logger: JournalLogger(format: LogFormat(journalPrefixes: false)) { _ in },
                                       eventsFD: fds[1], now: 0)
        let router = FeatureRouter(legacy: service, environment: [:])
        defer { router.stop(reason: "test", now: .nan) }
        let switchAt = 1.1
        var switchIndex = 0
        let script = Script([
            // Three items on: a spin of about half a second.
            (1.0, { [.requests([.dial(.select(["juice"])), .frameIfDue])] }),
            (switchAt, {
                switchIndex = frames.count
                return [.message(.news(KioskNews.command(ControlServer.Request(client: .mqtt, command: .language("de")))))]
            }),
        ])
        let loop = FrameLoop(output: LoopOutput(presenter: display),
                             sources: FrameLoop.sources(displays: [display], service: router.pollSources) + [script],
                             scene: scene, now: { clock.now }, service: router,
                             pacing: LoopPacing(schedule: FrameSchedule(refreshPeriod: display.refreshPeriod)))
        struct Recorder: LoopWaiter {
            let display: VirtualDisplay
            let inner: VirtualWaiter
            let note: (Double) -> Void
            func wait(_ fds: inout [pollfd], until deadline: Double?, now: Double) throws -> FrameLoop.Ending? {
                if let t = display.lastShown { note(t) }
                return try inner.wait(&fds, until: deadline, now: now)
            }
        }
        try loop.start(at: 0)
        _ = try loop.run(waiter: Recorder(display: display, inner: VirtualWaiter(clock: clock, horizon: 10)) { t in
            if shown.last != t { shown.append(t) }
        })

        // The frames of the spin: the last before the switch in English, the first after in German.
        try #require(switchIndex > 2 && switchIndex < frames.count)
        let before = frames[switchIndex - 1], after = frames[switchIndex]
        #expect(before.time > 1.0, "the spin had begun")
        #expect(after.pose.rotation != before.pose.rotation, "the spin goes on")
        #expect(frames.last!.time > after.time + 0.1, "and on, after the switch")
        func reference(_ language: String?, _ pose: DialPose) throws -> [UInt32] {
            let painter = try DialSetup(config: config, width: width, height: height, language: language).makePainter()
            var buffer = PixelBuffer(width: width, height: height)
            painter.paint(pose, into: &buffer)
            var out = [UInt32](repeating: 0, count: width * height)
            for y in 0..<height { for x in 0..<width { out[y * width + x] = buffer[x, y] } }
            return out
        }
        let english = try reference(nil, before.pose), german = try reference("de", after.pose)
        let afterInEnglish = try reference(nil, after.pose)
        #expect(before.pixels == english)
        #expect(after.pixels == german, "the first frame after the switch shows the German labels")
        #expect(after.pixels != afterInEnglish)
        // Every frame of the spin was shown one refresh after the one before.
        let spin = shown.filter { $0 > 1.0 }
        let gaps = zip(spin, spin.dropFirst()).map { Int((($1 - $0) * 60).rounded()) }
        #expect(gaps.count > 10 && gaps.allSatisfy { $0 == 1 }, "\(gaps)")

        // The event lines: language, then selected in German for the item at the top, and the
        // spin's own rest on juice in German.
        service.outputQueues.forEach { $0.flush() }
        let lines = drainText(fds[0]).split(separator: "\n").map(String.init)
        let switched = try #require(lines.firstIndex { $0.contains("\"event\": \"language\"") }, "\(lines)")
        #expect(lines[switched].contains("\"code\": \"de\""))
        #expect(lines[switched + 1].contains("\"event\": \"selected\"") && lines[switched + 1].contains("\"label\": \""), "\(lines)")
        #expect(lines.last { $0.contains("\"event\": \"selected\"") }?.contains("\"label\": \"Saft\"") == true, "\(lines)")
        #expect((loop.dial as? MenuDial)?.language == "de")
    }

    /// `language <code>` on the control socket: an unknown code gets an error line and changes
    /// nothing; a configured one switches (the broadcast `language` line); the same parse serves
    /// `<base>/set/language`, and Home Assistant gets a select of the codes.
    @Test func controlSocketLanguageCommand() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = try ConfigParser.parse(Self.config + "\nbehaviour:\n  language_return_after_seconds: 30\n", file: "lang.yaml")
        let clock = VirtualClock()
        let display = VirtualDisplay(width: 160, height: 120, timing: .init(refresh: 60)) { clock.now }
        let scene = try SceneRecipe.scene(config: config, resting: .index(nil), width: 160, height: 120,
                                         rotation: .none, painter: .dial)
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let service = try LegacyService(config: config, configPath: nil, controlPath: dir.path + "/control.sock", environment: [:],
                                       logger: JournalLogger(format: LogFormat(journalPrefixes: false)) { _ in },
                                       eventsFD: devNull, now: 0)
        let router = FeatureRouter(legacy: service, environment: [:])
        defer { router.stop(reason: "test", now: .nan) }
        let loop = FrameLoop(output: LoopOutput(presenter: display),
                             sources: FrameLoop.sources(displays: [display], service: router.pollSources),
                             scene: scene, now: { clock.now }, service: router,
                             pacing: LoopPacing(schedule: FrameSchedule(refreshPeriod: display.refreshPeriod)))
        try loop.start(at: 0)
        _ = try loop.run(waiter: VirtualWaiter(clock: clock, horizon: 1))
        let client = connectStream(dir.path + "/control.sock")
        defer { close(client) }
        _ = try loop.run(waiter: VirtualWaiter(clock: clock, horizon: 2))
        let commands = "language fr\nlanguage de\n"
        _ = commands.withCString { write(client, $0, strlen($0)) }
        _ = try loop.run(waiter: VirtualWaiter(clock: clock, horizon: 3))
        let replies = readAvailable(client)
        #expect(replies.contains("\"event\": \"error\", \"message\": \"no language 'fr'; languages: en, de\""), "\(replies)")
        #expect(replies.contains("\"event\": \"language\", \"code\": \"de\""), "\(replies)")
        #expect(replies.contains("\"label\": \"Kaffee\""), "\(replies)")
        #expect(service.language == "de")
        // Thirty seconds after the last input, back to the default.
        #expect(router.languages.returnDeadline.map { $0 > 30 && $0 <= 33 } == true)
        _ = try loop.run(waiter: VirtualWaiter(clock: clock, horizon: 40))
        #expect(service.language == nil)
        #expect(readAvailable(client).contains("\"event\": \"language\", \"code\": \"en\""))

        #expect(ControlLine.parse("language de") == .command(.language("de")))
        if case .invalid = ControlLine.parse("language") {} else { Issue.record("language without a code parsed") }
        #expect(MQTTCommand.parse(name: "language", payload: "de\n") == .success(.language("de")))
        let topics = MQTTTopics(base: "dialkiosk/k1", clientID: "k1")
        let select = HomeAssistantDiscovery.configs(prefix: "homeassistant", topics: topics, ringOptions: [], languages: ["en", "de"])
            .first { $0.topic == "homeassistant/select/k1/language/config" }
        #expect(select?.payload.text.contains("\"options\": [\"en\", \"de\"]") == true)
        #expect(select?.payload.text.contains("dialkiosk/k1/set/language") == true)
        #expect(HomeAssistantDiscovery.configs(prefix: "homeassistant", topics: topics, ringOptions: [], languages: ["en"])
            .allSatisfy { !$0.topic.contains("language") })
    }
}
