import DialCore
import Glibc
import KioskVocabulary
import LinuxSystem
import Testing
@testable import KioskReporting
@testable import KioskConfiguration
@testable import KioskFeatures
import KioskTestSupport

/// The `accessibility:` section's speech and sound keys, items' speech texts, the speech
/// control commands and the bridge from dial events to the real audio worker.
@Suite struct AccessibilityConfigTests {
    private func parse(_ section: String) throws -> AccessibilitySettings? {
        try ConfigParser.parse("accessibility:\n" + section, file: "k.yaml").accessibility
    }

    private func error(_ text: String) -> String {
        do {
            _ = try ConfigParser.parse(text, file: "k.yaml")
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func absentIsSilentPresentSpeaksWithoutCues() throws {
        let none = try ConfigParser.parse("items: [{id: a, label: A}]\n", file: "k.yaml").accessibility
        #expect(none == nil)
        let parsed = try parse("  device: default\n")
        let settings = try #require(parsed)
        #expect(settings.speech && !settings.soundCues)
        #expect(settings.voice == "en" && settings.rate == 175 && settings.volume == 100 && settings.cueVolume == 50)
    }

    @Test func everyKey() throws {
        let parsed = try parse("""
              speech: off
              voice: de
              rate: 220
              volume: 150
              sound_cues: on
              cue_volume: 30
              device: plughw:Loopback,0,0
              menu_speech: Hauptmenü
              items_speech: Einträge
              activated_speech: gewählt
              back_speech: Zurück

            """)
        let s = try #require(parsed)
        #expect(!s.speech && s.voice == "de" && s.rate == 220 && s.volume == 150 && s.soundCues && s.cueVolume == 30)
        #expect(s.device == "plughw:Loopback,0,0")
        #expect(s.words == SpeechWords(topRing: "Hauptmenü", items: "Einträge", activated: "gewählt", back: "Zurück"))
    }

    @Test func aVoiceEspeakDoesNotHaveIsRefusedAtItsLine() {
        #expect(error("items: [{id: a, label: A}]\naccessibility:\n  speech: on\n  voice: qq-nowhere\n")
                    .hasPrefix("k.yaml:4: accessibility.voice: espeak-ng has no voice 'qq-nowhere'"))
        #expect(error("accessibility:\n  voice: fr-fr\n") == "no error")
    }

    @Test func onlyVariantsEspeakShipsPassTheCheck() {
        #expect(error("accessibility:\n  voice: en+f3\n") == "no error")
        #expect(error("accessibility:\n  voice: en+nosuchvariant\n").hasPrefix("k.yaml:2: accessibility.voice: espeak-ng has no voice"))
        #expect(error("accessibility:\n  voice: en+" + String(repeating: "x", count: 37) + "\n").hasPrefix("k.yaml:2: accessibility.voice:"))
    }

    @Test func badValuesNameTheirKey() {
        #expect(error("accessibility:\n  rate: 20\n").hasPrefix("k.yaml:2: accessibility.rate: expected a number of words per minute"))
        #expect(error("accessibility:\n  volume: 201\n").hasPrefix("k.yaml:2: accessibility.volume:"))
        #expect(error("accessibility:\n  cue_volume: 50.5\n").hasPrefix("k.yaml:2: accessibility.cue_volume:"))
        #expect(error("accessibility:\n  speech: loud\n").hasPrefix("k.yaml:2: accessibility.speech: expected true or false"))
        #expect(error("accessibility:\n  voices: en\n").contains("accessibility.voices"))
    }

    @Test func itemsCarryTheirSpeechTexts() throws {
        let config = try ConfigParser.parse("""
            items:
              - id: drinks
                label: Drinks
                speech: Hot drinks
                ring_speech: The drinks menu
                items: [{id: tea, label: Tea}]

            """, file: "k.yaml")
        let item = try #require(config.menu.node(at: ["drinks"])?.item)
        #expect(item.speech == "Hot drinks" && item.ringSpeech == "The drinks menu")
        #expect(error("items:\n  - id: a\n    label: A\n    speech: \"\"\n").hasPrefix("k.yaml:4: items[0].speech:"))
    }

    @Test func speechControlCommands() {
        #expect(ControlLine.parse("repeat") == .command(.repeatSpeech))
        #expect(ControlLine.parse("speech on") == .command(.speech(true)))
        #expect(ControlLine.parse("speech off") == .command(.speech(false)))
        #expect(ControlLine.parse("speech loud") == .invalid("speech needs on or off"))
        #expect(ControlLine.parse("repeat now") == .invalid("repeat takes no arguments"))
    }

    @Test func aToggleHoldsWhileInputComesThenTheDefaultReturns() {
        let bridge = SpeechBridge(logger: JournalLogger(format: LogFormat(journalPrefixes: false)) { _ in })
        defer { bridge.stop() }
        let settings = AccessibilitySettings(speech: true, device: "null")
        #expect(bridge.speechOn(settings, now: 0))
        bridge.setSpeech(false, settings: settings, now: 10)
        #expect(!bridge.speechOn(settings, now: 11))
        bridge.touched(now: 100)
        #expect(!bridge.speechOn(settings, now: 100 + SpeechBridge.overrideLasts - 1))
        #expect(bridge.speechOn(settings, now: 100 + SpeechBridge.overrideLasts))
        #expect(!bridge.speechOn(nil, now: 0))
    }

    /// Through the real worker, espeak-ng and libasound's file plugin: a rest speaks, speech off
    /// is silent, repeat says it again.
    @Test func restSpeaksSpeechOffIsSilentRepeatSpeaksAgain() throws {
        let path = "/tmp/dialkiosk-bridge-\(getpid()).raw"
        defer { unlink(path) }
        var logs: [String] = []
        let worker = StartedAudioWorker()
        let bridge = SpeechBridge(logger: JournalLogger(format: LogFormat(journalPrefixes: false)) { logs.append($0) },
                                  startWorker: worker.start)
        defer { bridge.stop() }
        var settings = AccessibilitySettings(device: "file:'\(path)',raw")
        let config = try ConfigParser.parse("items: [{id: a, label: Apple}, {id: b, label: Bread}]\n", file: "k.yaml")
        let pose = DialPose(geometry: DialGeometry.fitting(width: 800, height: 480, count: 2), items: [], selected: 1,
                            rotation: 0, visibility: 1)
        bridge.observe([.selected(index: 1, path: ["b"], time: monotonicNow())], pose: pose, settings: settings,
                       menu: config.menu, now: 1)
        #expect(bridge.lastUtterance == "Bread")
        worker.waitUntilIdle()
        let spoken = fileSize(path)
        #expect(spoken > 5000, "\(spoken) bytes")
        settings.speech = false
        bridge.observe([.selected(index: 0, path: ["a"], time: 2)], pose: pose, settings: settings, menu: config.menu, now: 2)
        #expect(bridge.lastUtterance == "Bread")
        settings.speech = true
        bridge.repeatLast(settings: settings, now: 3)
        worker.waitUntilIdle()
        bridge.serve()
        #expect(fileSize(path) > spoken)
        #expect(!logs.contains { $0.contains("audio:") }, "\(logs)")
    }

    private func fileSize(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : -1
    }
}
