import Glibc
import DialCore
import KioskSeams
import Testing
import KioskLoop
@testable import KioskReporting
@testable import KioskConfiguration
@testable import KioskFeatures
import KioskTestSupport

/// Values entering a value dial from outside (the socket, MQTT, Home Assistant's number) and
/// `value` on an item that has no dial, through the service as the loop hands them over.
@Suite struct ValueEntryTests {
    final class Fixture {
        var pipeFDs: [Int32] = [-1, -1]
        var logs: [String] = []
        var service: LegacyService!
        /// The dial whose value dials own the setpoints; the fixture carries the service's
        /// value requests to it and its events back, as the loop does.
        var menu: MenuDial!

        init() throws {
            _ = pipe(&pipeFDs)
            _ = fcntl(pipeFDs[0], F_SETFL, O_NONBLOCK)
            let config = try ConfigParser.parse("""
                items:
                  - id: volume
                    label: Volume
                    value: {min: 0, max: 100, step: 5}
                  - {id: tea, label: Tea}

                """, file: "value.yaml")
            let logger = JournalLogger(format: LogFormat(journalPrefixes: false)) { [unowned self] in self.logs.append($0) }
            service = try LegacyService(config: config, configPath: nil, controlPath: nil, environment: [:], logger: logger,
                                       eventsFD: pipeFDs[1], now: 0)
            menu = MenuDial(tree: config.menu, geometry: { _ in Self.dial.pose.geometry })
        }

        deinit {
            service.stop(reason: "test", now: .nan)
            close(pipeFDs[0])
            close(pipeFDs[1])
        }

        static let dial = DialSnapshot(
            pose: DialPose(geometry: DialGeometry(center: Point(x: 100, y: 100), ringRadius: 50, itemRadius: 10, hubRadius: 20),
                           items: [], selected: nil, rotation: 0, visibility: 1),
            selectedPath: nil, ring: .top)

        func set(_ path: MenuPath, _ change: ItemChange, at time: Double = 1) {
            let requests = service.performLive(ControlServer.Request(client: .mqtt, command: .setItem(path: path, change: change)),
                                               at: time, dial: Self.dial) ?? []
            for case .dial(.reportValue(let p, let v)) in requests {
                _ = try? service.handle(.dialEvents(menu.reportValue(v, for: p, at: time), frames: 0), at: time, dial: Self.dial)
            }
        }

        func state(_ path: MenuPath) -> ItemState { service.live.items.state(of: path) }
    }

    @Test func aSetpointOffTheGridIsSnappedToIt() throws {
        let f = try Fixture()
        f.set(["volume"], .value(37))
        #expect(f.menu.values.setpoints[["volume"]]?.shown == 35)
        #expect(f.state(["volume"]).value == 35)
        f.set(["volume"], .value(1e-320), at: 10)
        #expect(f.state(["volume"]).value == 0)
        f.set(["volume"], .value(1e308), at: 20)
        #expect(f.state(["volume"]).value == 100)
    }

    @Test func valueOnAnItemWithoutADialIsRefusedNamingIt() throws {
        let f = try Fixture()
        f.set(["tea"], .value(3))
        #expect(f.state(["tea"]).value == nil)
        #expect(f.logs.contains { $0.contains("item 'tea' is not a value item") }, "\(f.logs)")
    }

    @Test func aMeasuredValueOutsideTheDialIsDrawnAtItsEnd() throws {
        let f = try Fixture()
        f.set(["volume"], .current(250))
        #expect(f.state(["volume"]).current == 100)
        f.set(["volume"], .current(-1e308), at: 2)
        #expect(f.state(["volume"]).current == 0)
        f.set(["volume"], .current(42.5), at: 3)
        #expect(f.state(["volume"]).current == 42.5, "a measured value inside the range is kept as measured")
        #expect(f.logs.contains { $0.contains("measured 250.0 is outside 0.0...100.0; drawn at 100.0") }, "\(f.logs)")
    }

    /// The MQTT routes' `set/item/<path>/value` and `set/value/<path>` with extreme payloads:
    /// a refusal or a finite number, never a crash.
    @Test func extremeNumbersOnTheMQTTRoutes() {
        for payload in ["\(Int.min)", "1e308", "-1e308", "1e-320", "NaN", "inf", "-inf", "0x10", String(repeating: "9", count: 1000),
                        String(repeating: "9", count: 2000), "", " ", "null"] {
            for path in ["volume/value", "tea/value"] {
                switch MQTTLiveRoutes.setCommand(path: path, payload: Array(payload.utf8)) {
                case .success(.setItem(_, .value(let v))): #expect(v.isFinite, "\(payload)")
                case .success(let other): Issue.record("\(payload): \(other)")
                case .failure(let error): #expect(!error.description.isEmpty)
                }
            }
            switch MQTTLiveRoutes.change(Array(payload.utf8), field: .current) {
            case .success(.current(let v)): #expect(v.isFinite, "\(payload)")
            case .success(let other): Issue.record("\(payload): \(other)")
            case .failure(let refusal): #expect(!refusal.description.isEmpty)
            }
        }
    }
}
