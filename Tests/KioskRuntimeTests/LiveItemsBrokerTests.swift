import Glibc
import DialCore
import KioskVocabulary
import LinuxSystem
import MQTTLink
import Testing
@testable import KioskSeams
@testable import KioskRuntime
@testable import KioskReporting
@testable import KioskConfiguration
@testable import KioskLoop
@testable import KioskFeatures
import KioskTestSupport

/// The kiosk loop as `run` wires it (real dial and painter, real LegacyService, stdout a pipe)
/// against a real mosquitto, with a clock that follows real time (the thermostat stand-in
/// answers in real seconds) and every frame's damage recorded.
final class LiveKiosk {
    let dir = TemporaryDirectory()
    let display = PipeDisplay(width: 320, height: 240, fill: 0)
    /// `offset`: seconds the tests move the clock ahead (it keeps following real time after).
    final class Box { var now = 100.0; var offset = 0.0; var logs: [String] = []; var damage: [[PixelRect]?] = []; var paints: [(at: Double, seconds: Double)] = [] }
    let box = Box()
    let started = monotonicNow()
    var pipeFDs: [Int32] = [-1, -1]
    let service: LegacyService
    let loop: FrameLoop
    var stdout: [String] = []

    init(config text: String) throws {
        _ = pipe(&pipeFDs)
        _ = fcntl(pipeFDs[0], F_SETFL, O_NONBLOCK)
        _ = fcntl(pipeFDs[1], F_SETFL, O_NONBLOCK)
        let path = dir.path + "/config.yaml"
        writeFile(path, text)
        let config = try ConfigLoader.load(path: path)
        let logger = JournalLogger(format: LogFormat(journalPrefixes: false)) { [box] in box.logs.append($0) }
        let makeScene = { [box] (config: KioskConfig, index: Int?) throws -> Scene in
            let scene = try SceneRecipe.scene(config: config, restingOn: index, width: 320, height: 240, rotation: .none,
                                             painter: .dial)
            return Scene(dial: scene.dial) { pose, target in
                let start = monotonicNow()
                let damage = try scene.paint(pose, target)
                box.paints.append((start, monotonicNow() - start))
                box.damage.append(damage)
                return damage
            }
        }
        service = try LegacyService(config: config, configPath: path, controlPath: nil, environment: ["PATH": "/usr/bin:/bin"],
                                   logger: logger, eventsFD: pipeFDs[1], now: box.now,
                                   scenes: ClosureScenes(build: makeScene))
        let start = started
        loop = FrameLoop(output: LoopOutput(presenter: display),
                         sources: FrameLoop.sources(displays: [display], service: service.pollSources),
                         scene: try makeScene(config, nil), now: { [box] in box.now = max(box.now, 100 + box.offset + monotonicNow() - start); return box.now },
                         service: service, log: { _ in })
    }

    deinit {
        service.stop(reason: "test", now: .nan)
        for fd in pipeFDs { close(fd) }
        dir.remove()
    }

    func step() throws {
        _ = try loop.step(timeoutMS: 5)
        if loop.awaitsFlip {
            box.now = max(box.now, 100 + box.offset + monotonicNow() - started)
            display.report(.frameShown(time: box.now))
        }
        stdout += drainText(pipeFDs[0]).split(separator: "\n").map(String.init)
    }

    @discardableResult
    func settle(_ seconds: Double, _ subscriber: TestSubscriber? = nil, until done: () -> Bool = { false }) throws -> Bool {
        let end = monotonicNow() + seconds
        while monotonicNow() < end {
            if done() { return true }
            try step()
            try subscriber?.step(timeoutMS: 1)
        }
        return done()
    }

    func command(_ command: ControlCommand) throws {
        try loop.handle(.message(.news(KioskNews.command(ControlServer.Request(client: .mqtt, command: command)))), at: loop.now())
    }

    func lines(_ event: String) -> [String] { stdout.filter { $0.contains("\"event\": \"\(event)\"") } }
}

func liveMQTTSection(_ broker: TestBroker) -> String {
    """
    mqtt:
      host: 127.0.0.1
      port: \(broker.port)
      username: \(TestBroker.user)
      password_file: \(broker.passwordFile)
      client_id: kiosk-live
      keepalive_seconds: 10

    """
}

/// A number after `"key": ` in a JSON line.
private func number(_ line: String, _ key: String) -> Double? {
    guard let r = line.firstRange(of: "\"\(key)\": ") else { return nil }
    return Double(line[r.upperBound...].prefix { $0.isNumber || $0 == "." || $0 == "-" })
}

private func time(_ line: String) -> Double { number(line, "t") ?? .nan }

@Suite(.serialized) struct LiveItemsBrokerTests {
    @Test func liveItemsFollowTheirTopicsOneLineAndOneRectanglePerFrame() throws {
        let broker = try TestBroker()
        let sub = try TestSubscriber(broker: broker, subscribe: ["home/#"])
        // A retained state from before the start gives the first line.
        try sub.client.publish(topic: "home/kitchen/state", payload: "{\"state\": \"on\", \"attributes\": {\"w\": 7}}",
                               qos: 1, retain: true)
        try sub.pump(seconds: 0.2)
        let kiosk = try LiveKiosk(config: """
            items:
              - id: kitchen
                label: Kitchen
                live: {topic: home/kitchen/state, key: state, format: "light {}", available_topic: home/kitchen/availability}
              - {id: tea, label: Tea, command: [/bin/true]}
              - {id: coffee, label: Coffee}

            """ + liveMQTTSection(broker))
        try kiosk.loop.start(at: kiosk.loop.now())
        let first = try kiosk.settle(5, sub) { kiosk.lines("item").contains { $0.contains("\"light on\"") } }
        #expect(first, "the retained state's item line: \(kiosk.stdout)")

        // A flood on one topic: coalesced, the last value shown, at most one line per frame.
        let framesBefore = kiosk.display.presents, linesBefore = kiosk.lines("item").count
        for i in 0..<200 { try sub.publish("home/kitchen/state", "{\"state\": \"v\(i)\"}", qos: 1) }
        let last = try kiosk.settle(5, sub) { kiosk.lines("item").last?.contains("\"light v199\"") == true }
        #expect(last)
        let lines = kiosk.lines("item").count - linesBefore, frames = kiosk.display.presents - framesBefore
        #expect(lines <= frames + 1, "\(lines) item lines for \(frames) frames")
        #expect(lines < 200)

        // At rest a state change damages the item's rectangle only, not the ring.
        try kiosk.settle(0.5, sub)
        let damageBefore = kiosk.box.damage.count
        try sub.publish("home/kitchen/state", "{\"state\": \"off\"}", qos: 1)
        try kiosk.settle(3, sub) { kiosk.lines("item").last?.contains("\"light off\"") == true && kiosk.box.damage.count > damageBefore }
        let damaged = kiosk.box.damage.dropFirst(damageBefore)
        let rects = Array(damaged.compactMap { $0 }.joined())
        #expect(!damaged.contains { $0 == nil } && !rects.isEmpty)
        // The other items' discs are not in it (kitchen's disc and the hub showing its text are).
        let pose = kiosk.loop.dial.pose
        for i in [1, 2] {
            let c = pose.items[i].center
            #expect(!rects.contains { Double($0.x0) <= c.x && c.x < Double($0.x1) && Double($0.y0) <= c.y && c.y < Double($0.y1) },
                    "item \(i) at \(c) damaged: \(rects)")
        }
        let kitchen = pose.items[0].center
        #expect(rects.contains { Double($0.x0) <= kitchen.x && kitchen.x < Double($0.x1) && Double($0.y0) <= kitchen.y && kitchen.y < Double($0.y1) })

        // Offline: the item's activation runs nothing and says why.
        try sub.publish("home/kitchen/availability", "offline", qos: 1)
        try kiosk.settle(3, sub) { kiosk.lines("item").last?.contains("\"available\": false") == true }
        try kiosk.command(.select(path: ["kitchen"]))
        try kiosk.settle(1, sub)
        try kiosk.command(.activate)
        let refused = try kiosk.settle(3, sub) { !kiosk.lines("refused").isEmpty }
        #expect(refused)
        #expect(kiosk.lines("refused").first?.contains("\"reason\": \"unavailable\", \"id\": \"kitchen\", \"path\": [\"kitchen\"]") == true)
        #expect(kiosk.lines("activated").isEmpty)

        // The same state over <base>/set/item, for an item without a binding; a payload past
        // 1 KiB is refused unread.
        try sub.publish("dialkiosk/kiosk-live/set/item/tea/text", "sold out", qos: 1)
        try sub.publish("home/kitchen/state", String(repeating: "x", count: 2000), qos: 1)
        let tea = try kiosk.settle(3, sub) { kiosk.lines("item").contains { $0.contains("\"tea\"") && $0.contains("\"sold out\"") } }
        #expect(tea)
        try kiosk.settle(0.3, sub)
        #expect(kiosk.box.logs.contains { $0.contains("2000 bytes") })

        // A reload that binds coffee and keeps kitchen's binding: kitchen keeps its state, the
        // new topic is subscribed without reconnecting (its retained message arrives).
        try sub.client.publish(topic: "home/coffee/state", payload: "brewing", qos: 1, retain: true)
        writeFile(kiosk.dir.path + "/config.yaml", """
            items:
              - id: kitchen
                label: Kitchen
                live: {topic: home/kitchen/state, key: state, format: "light {}", available_topic: home/kitchen/availability}
              - {id: tea, label: Tea, command: [/bin/true]}
              - {id: coffee, label: Coffee, live: {topic: home/coffee/state}}

            """ + liveMQTTSection(broker))
        try kiosk.command(.reload)
        let coffee = try kiosk.settle(5, sub) { kiosk.lines("item").contains { $0.contains("\"brewing\"") } }
        #expect(coffee)
        let menu = try #require(kiosk.loop.dial as? MenuDial)
        #expect(menu.liveItems.state(of: ["kitchen"]).text == "light off")
        #expect(menu.liveItems.state(of: ["kitchen"]).available == false)
    }

    /// Random turns, pauses and taps on a value dial against the thermostat stand-in
    /// (tests/mqtt/thermostat.py: answers after a delay, first repeats the old value, sometimes
    /// never answers): the shown value never jumps back inside a guard, every commit is
    /// published exactly once, and after the guard the dial shows what the device last said.
    @Test(.enabled(if: standInRuns, "the stand-in needs python3 and mosquitto_pub/mosquitto_sub (mosquitto-clients)"),
          arguments: [1, 2] as [UInt64])
    func aValueDialAgainstAThermostatStandIn(seed: UInt64) throws {
        let broker = try TestBroker()
        let sub = try TestSubscriber(broker: broker, subscribe: ["home/heating/#"])
        let guardSeconds = 1.5
        let log = broker.dir.path + "/thermostat.log"
        // In a process group of its own, so stopping it ends its mosquitto_sub too.
        let stand = try #require(spawnBackground(["python3", repositoryRoot + "/tests/mqtt/thermostat.py", "--port", "\(broker.port)",
                                                  "--user", TestBroker.user, "--password-file", broker.passwordFile,
                                                  "--command", "home/heating/target/set", "--state", "home/heating/target",
                                                  "--initial", "21.0", "--delay", "0.6", "--never-every", "4", "--seed", "\(seed)"],
                                                 output: log, ownGroup: true), "cannot start the stand-in")
        defer { stopBackground(stand) }
        for _ in 0..<300 where !(readFile(log) ?? "").contains("ready") { usleep(10_000) }
        let kiosk = try LiveKiosk(config: """
            items:
              - id: heating
                label: Heating
                value: {min: 16, max: 28, step: 0.5, unit: "°C", command_topic: home/heating/target/set,
                        state_topic: home/heating/target, commit_after_seconds: 0.4, guard_seconds: \(guardSeconds)}
              - {id: tea, label: Tea}

            """ + liveMQTTSection(broker))
        try kiosk.loop.start(at: kiosk.loop.now())
        let initial = try kiosk.settle(5, sub) { kiosk.lines("item").contains { $0.contains("\"value\": 21") } }
        #expect(initial, "\(kiosk.stdout)")
        try kiosk.command(.select(path: ["heating"]))
        try kiosk.settle(0.5, sub)
        try kiosk.command(.activate)
        try kiosk.settle(0.3, sub)
        #expect(kiosk.lines("opened").contains { $0.contains("\"heating\"") && $0.contains("\"value\": 21") })

        var rng = SplitMix64(seed: seed)
        for _ in 0..<14 {
            switch rng.next() % 4 {
            case 0, 1: try kiosk.command(.turn(Int(rng.next() % 7) - 3))
            case 2: try kiosk.command(.activate)
            default: break
            }
            try kiosk.settle(Double(rng.next() % 100) / 100, sub)
        }
        // Settle: the last commit, its guard, the stand-in's last answers.
        try kiosk.settle(guardSeconds + 2.5, sub)

        let values = kiosk.lines("value")
        let committed = values.filter { $0.contains("\"committed\"") }.compactMap { number($0, "value") }
        let published = sub.on("home/heating/target/set").compactMap(Double.init)
        #expect(!committed.isEmpty)
        #expect(published == committed, "published \(published), committed \(committed)")
        // Each commit's text carries the step's decimals.
        #expect(sub.on("home/heating/target/set").allSatisfy { $0.hasSuffix(".0") || $0.hasSuffix(".5") })
        // Inside a guard the shown value never changes but by the person's hand.
        for c in values.filter({ $0.contains("\"committed\"") }) {
            let t = time(c)
            let jumped = values.filter { $0.contains("\"external\"") && time($0) > t && time($0) < t + guardSeconds - 0.05 }
            // A later commit restarts the guard; only externals before any newer change count.
            let next = values.first { time($0) > t && ($0.contains("\"changing\"") || $0.contains("\"committed\"")) }
            let inside = jumped.filter { next == nil || time($0) < time(next!) }
            #expect(inside.isEmpty, "jumped back inside the guard after \(c): \(inside)")
        }
        // After the guard the dial shows what the device last said.
        let deviceSaid = (readFile(log) ?? "").split(separator: "\n").filter { $0.hasPrefix("state ") }.last
            .flatMap { Double($0.dropFirst(6)) }
        let shown = kiosk.lines("item").last.flatMap { number($0, "value") }
        #expect(deviceSaid != nil && shown == deviceSaid, "device said \(String(describing: deviceSaid)), dial shows \(String(describing: shown))")
        #expect(kiosk.service.live.guardedReports > 0)
        // Back closes the value dial.
        try kiosk.command(.back)
        try kiosk.settle(0.2, sub)
        #expect(kiosk.lines("closed").contains { $0.contains("\"heating\"") })
    }
}

extension LiveItemsBrokerTests {
    /// A value item the kiosk owns is Home Assistant's `number`: discovered with its range, set
    /// through `<base>/set/value/<path>`, its state retained on `<base>/value/<path>`.
    @Test func aKioskOwnedValueIsAHomeAssistantNumber() throws {
        let broker = try TestBroker()
        let sub = try TestSubscriber(broker: broker, subscribe: ["homeassistant/number/#", "dialkiosk/kiosk-live/value/#"])
        let kiosk = try LiveKiosk(config: """
            items:
              - id: volume
                label: Volume
                value: {min: 0, max: 100, step: 5, unit: "%"}
              - {id: tea, label: Tea}

            """ + liveMQTTSection(broker) + "  discovery_prefix: homeassistant\n")
        try kiosk.loop.start(at: kiosk.loop.now())
        let discovered = try kiosk.settle(5, sub) { !sub.on("homeassistant/number/kiosk-live/value_volume/config").isEmpty }
        #expect(discovered)
        let config = sub.on("homeassistant/number/kiosk-live/value_volume/config").last ?? ""
        #expect(config.contains("\"command_topic\": \"dialkiosk/kiosk-live/set/value/volume\""))
        #expect(config.contains("\"state_topic\": \"dialkiosk/kiosk-live/value/volume\""))
        #expect(config.contains("\"min\": 0.0, \"max\": 100.0, \"step\": 5.0"))
        #expect(config.contains("\"unit_of_measurement\": \"%\""))
        try sub.publish("dialkiosk/kiosk-live/set/value/volume", "40", qos: 1)
        let set = try kiosk.settle(3, sub) { sub.on("dialkiosk/kiosk-live/value/volume").last == "40" }
        #expect(set)
        #expect(kiosk.lines("item").contains { $0.contains("\"volume\"") && $0.contains("\"value\": 40") })
        // Turned on the dial and committed: the number follows.
        try kiosk.command(.select(path: ["volume"]))
        try kiosk.settle(0.5, sub)
        try kiosk.command(.activate)
        try kiosk.command(.turn(3))
        try kiosk.command(.activate)
        let turned = try kiosk.settle(3, sub) { sub.on("dialkiosk/kiosk-live/value/volume").last == "55" }
        #expect(turned, "\(sub.on("dialkiosk/kiosk-live/value/volume"))")
    }
}

/// Whether tests/mqtt/thermostat.py can run here (the host has python3 and the mosquitto
/// clients; Debian 13's build root for the 6.0.3 run has neither).
private let standInRuns = ["/usr/bin/python3", "/usr/bin/mosquitto_pub", "/usr/bin/mosquitto_sub"].allSatisfy { (path: String) in access(path, X_OK) == 0 }

private func stopBackground(_ pid: pid_t) {
    kill(-pid, SIGTERM)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
}
