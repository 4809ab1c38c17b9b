import DialCore
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

/// Keys while a value dial is open, through the loop with the real service: the dial's value
/// mode takes them, not the ring; when it closes they turn the ring again.
@Suite struct ValueDialInputTests {
    static let config = """
        items:
          - id: volume
            label: Volume
            value: {min: 0, max: 100, step: 5, unit: "%"}
          - {id: tea, label: Tea}

        """

    @Test func keysTurnTheOpenValueDialNotTheRingAndTheRingAgainOnceItCloses() throws {
        let config = try ConfigParser.parse(Self.config, file: "value.yaml")
        let clock = FakeClock(now: 10)
        let display = PipeDisplay(width: 160, height: 120, fill: 0), input = PipeInput()
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        defer { close(fds[0]); close(fds[1]) }
        let service = try LegacyService(config: config, configPath: nil, controlPath: nil, environment: [:],
                                       logger: JournalLogger(format: LogFormat(journalPrefixes: false)) { _ in },
                                       eventsFD: fds[1], now: clock.now)
        defer { service.stop(reason: "test", now: .nan) }
        let scene = try SceneRecipe.scene(config: config, resting: .index(nil), width: 160, height: 120,
                                          rotation: .none, painter: .flat)
        let loop = FrameLoop(output: LoopOutput(presenter: display),
                             sources: FrameLoop.sources(displays: [display], inputs: [input], service: service.pollSources),
                             scene: scene, now: { clock.now }, service: service, log: { _ in })
        func settle() throws {
            for _ in 0..<600 where loop.awaitsFlip {
                clock.now += 1.0 / 60
                display.report(.frameShown(time: clock.now))
                _ = try loop.step(timeoutMS: 0)
            }
        }
        func command(_ command: ControlCommand) throws {
            try loop.handle(.message(.news(KioskNews.command(ControlServer.Request(client: .mqtt, command: command)))),
                            at: clock.now)
            try settle()
        }
        func key(_ step: StepCommand) throws {
            clock.now += 0.5
            input.send([.command(step, time: clock.now)])
            _ = try loop.step(timeoutMS: 0)
            try settle()
        }
        try loop.start(at: clock.now)
        try settle()
        try command(.select(path: ["volume"]))
        try command(.activate)
        let menu = try #require(loop.dial as? MenuDial)
        #expect(menu.values.open == ["volume"], "the value dial opened")
        #expect(service.live.open == ["volume"], "and the service heard of it")

        let before = menu.values.setpoints[["volume"]]?.shown
        try key(.step(1))
        #expect(menu.values.setpoints[["volume"]]?.shown != before, "the key turned the value dial")
        #expect(loop.dial.selectedPath == ["volume"], "and not the ring")

        try key(.back)
        #expect(service.live.open == nil)
        #expect(menu.values.open == nil)
        try key(.step(1))
        #expect(loop.dial.selectedPath == ["tea"], "closed, the key turns the ring")
    }
}
