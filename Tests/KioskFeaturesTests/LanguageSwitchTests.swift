import Glibc
import DialCore
import KioskSeams
import KioskVocabulary
import Testing
import KioskLoop
@testable import KioskReporting
@testable import KioskConfiguration
@testable import KioskFeatures
import KioskTestSupport

/// The language switch on the bus: driven by the loop's messages and the remainder's news, its
/// requests and news asserted; then once through the router, for the lines the remainder writes.
@Suite struct LanguageSwitchTests {
    static let text = """
        languages:
          - {code: en, voice: en, name: English}
          - {code: de, voice: de, name: Deutsch}
        behaviour:
          language_return_after_seconds: 30
        items:
          - {id: coffee, label: {en: Coffee, de: Kaffee}}
          - {id: tea, label: {en: Tea, de: Tee}}
        """

    static func config(_ text: String = Self.text) throws -> KioskConfig { try ConfigParser.parse(text, file: "lang.yaml") }

    static let dial: DialSnapshot = {
        let g = DialGeometry.fitting(width: 64, height: 48, count: 2)
        return DialSnapshot(pose: PoseBuilder(layout: DialLayout(count: 2), geometry: g).pose(rotation: 0, visibility: .shown, time: 0),
                            selectedPath: MenuPath(["tea"]), ring: MenuPath([]))
    }()

    static func view(_ config: KioskConfig) -> FeatureView { FeatureView(dial: dial, config: config, screen: (.on, .schedule)) }

    static func command(_ command: ControlCommand) -> LoopMessage {
        .news(KioskNews.command(ControlServer.Request(client: .mqtt, command: command)))
    }

    /// The requests by name: `language <code>`, `frame`, anything else by its case.
    static func names(_ output: FeatureOutput) -> [String] {
        output.requests.map { request in
            switch request {
            case .language(let code): "language \(code ?? "-")"
            case .frameIfDue: "frame"
            default: "other"
            }
        }
    }

    /// The news by what they say: `shown <code> <language> <selected> <time>`.
    static func said(_ output: FeatureOutput) -> [String] {
        output.news.map { news in
            switch news {
            case .languageShown(let code, let language, let selected, let at):
                "shown \(code) \(language ?? "-") \(selected.map { "\($0)" } ?? "-") \(at)"
            default: "other"
            }
        }
    }

    @Test func aCommandSwitchesOnceAndEndsInOneFrame() throws {
        let config = try Self.config()
        let feature = LanguageSwitch(since: 0)
        let first = feature.handle(Self.command(.language("de")), at: 2, view: Self.view(config))
        #expect(Self.names(first) == ["language de", "frame"])
        #expect(Self.said(first) == ["shown de de tea 2.0"])
        #expect(feature.language == "de")
        // The same language again: only the command's frame.
        let again = feature.handle(Self.command(.language("de")), at: 3, view: Self.view(config))
        #expect(Self.names(again) == ["frame"] && again.news.isEmpty)
        // An unknown code is the remainder's to refuse: nothing here.
        let unknown = feature.handle(Self.command(.language("fr")), at: 4, view: Self.view(config))
        #expect(unknown.requests.isEmpty && unknown.news.isEmpty)
        // The default by its code: the texts' language is nil, the loop gets the code.
        let back = feature.handle(Self.command(.language("en")), at: 5, view: Self.view(config))
        #expect(Self.names(back) == ["language en", "frame"])
        #expect(Self.said(back) == ["shown en - tea 5.0"])
        #expect(feature.language == nil)
    }

    @Test func aLanguagesItemActivatedSwitches() throws {
        let config = try Self.config()
        let feature = LanguageSwitch(since: 0)
        _ = feature.handle(.dialEvents([], frames: 0), at: 1, view: Self.view(config))
        var plain = MenuItem(id: "tea", label: "Tea", color: RGBColor(hex: 0))
        #expect(feature.hear(.activated(plain, path: MenuPath(["tea"]), at: 1), at: 1).requests.isEmpty)
        plain.languageCode = "de"
        let output = feature.hear(.activated(plain, path: MenuPath(["languages", "de"]), at: 1.5), at: 1.5)
        #expect(Self.names(output) == ["language de"])
        #expect(Self.said(output) == ["shown de de tea 1.5"])
    }

    @Test func itReturnsToTheDefaultAfterTheLastInput() throws {
        let config = try Self.config()
        let feature = LanguageSwitch(since: 0)
        #expect(feature.returnDeadline == nil)
        _ = feature.handle(Self.command(.language("de")), at: 2, view: Self.view(config))
        #expect(feature.returnDeadline == 32)
        #expect(feature.nextWakeup(now: 2) == 32)
        // A touch moves it; a screenshot does not.
        let touch = InputEvent.command(.step(1), time: 10)
        _ = feature.handle(.input(touch, admission: .dial(activity: true), screenChanged: false), at: 10, view: Self.view(config))
        _ = feature.handle(Self.command(.screenshot), at: 20, view: Self.view(config))
        #expect(feature.returnDeadline == 40)
        #expect(feature.handle(.news(KioskNews.languageDue), at: 39.9, view: Self.view(config)).requests.isEmpty)
        let due = feature.handle(.news(KioskNews.languageDue), at: 40, view: Self.view(config))
        #expect(Self.names(due) == ["language en"])
        #expect(Self.said(due) == ["shown en - tea 40.0"])
        #expect(feature.returnDeadline == nil)
    }

    /// A reload whose file lacks the language shown: the default, with no switch and no return.
    @Test func aConfigurationWithoutTheLanguageKeepsTheDefault() throws {
        let feature = LanguageSwitch(since: 0)
        _ = feature.handle(Self.command(.language("de")), at: 2, view: Self.view(try Self.config()))
        let french = try Self.config("""
            languages:
              - {code: en, voice: en, name: English}
              - {code: fr, voice: fr, name: French}
            behaviour:
              language_return_after_seconds: 30
            items:
              - {id: coffee, label: {en: Coffee, fr: Café}}
            """)
        let output = feature.handle(.news(KioskNews.languageDue), at: 100, view: Self.view(french))
        #expect(output.requests.isEmpty && output.news.isEmpty)
        #expect(feature.language == nil && feature.returnDeadline == nil)
    }

    /// Through the router: the remainder's wake, then the switch, then the command's frame; the
    /// `language` line and `selected` in German, and the router's deadline for the return.
    @Test func throughTheRouterTheLinesFollowInOrder() throws {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        defer { close(fds[0]); close(fds[1]) }
        let router = FeatureRouter(legacy: try LegacyService(config: try Self.config(), configPath: nil, controlPath: nil, environment: [:],
                                                             logger: JournalLogger(format: LogFormat(journalPrefixes: false)) { _ in },
                                                             eventsFD: fds[1], now: 0),
                                   environment: [:])
        defer { router.stop(reason: "test", now: .nan) }
        _ = try router.handle(.firstFrameShown, at: 1, dial: Self.dial)
        let requests = try router.handle(Self.command(.language("de")), at: 2, dial: Self.dial)
        let names = requests.map { request -> String in
            switch request {
            case .apply: "apply"
            case .language(let code): "language \(code ?? "-")"
            case .frameIfDue: "frame"
            default: "other"
            }
        }
        #expect(names == ["apply", "language de", "frame"])
        #expect(router.legacy.language == "de")
        router.legacy.outputQueues.forEach { $0.flush() }
        let lines = drainText(fds[0]).split(separator: "\n").map(String.init)
        let switched = try #require(lines.firstIndex { $0.contains("\"event\": \"language\"") }, "\(lines)")
        #expect(lines[switched].contains("\"code\": \"de\""))
        #expect(lines[switched + 1].contains("\"event\": \"selected\"") && lines[switched + 1].contains("\"label\": \"Tee\""), "\(lines)")
        #expect(router.nextWakeup(now: 2) == 32)
        #expect(!router.languageDue(now: 31.9) && router.languageDue(now: 32))
        _ = try router.handle(.news(KioskNews.languageDue), at: 32, dial: Self.dial)
        #expect(router.legacy.language == nil)
    }
}
