import DialCore
import Foundation
import Glibc
import LinuxSystem
import MQTTLink
import Testing
@testable import KioskRuntime
@testable import KioskFeatures
import KioskTestSupport

/// One record of what clients were told feeds the event lines, the retained `<base>/state` and
/// Home Assistant's select: over random navigation, reloads and ring changes through a real
/// mosquitto, the state always names what the event lines last selected, and never an option
/// the select entity (as last published) does not have.
@Suite(.serialized) struct MQTTStatePropertyTests {
    static let menus = [
        MQTTKiosk.items,
        // The ring left out: a reload inside it must close it.
        "items:\n  - {id: coffee, label: Coffee}\n  - {id: tea, label: Tea}\n",
        MQTTKiosk.items + "      - {id: cocoa, label: Cocoa}\n",
    ]

    private static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    @Test func stateAndSelectOptionsFollowTheEventStream() throws {
        let broker = try TestBroker()
        let base = "dialkiosk/kiosk-test"
        let selectTopic = "homeassistant/select/kiosk-test/item/config"
        let sub = try TestSubscriber(broker: broker, id: "prop-sub", subscribe: [base + "/#", selectTopic])
        let mqtt = section(broker, extra: "  discovery_prefix: homeassistant\n")
        let kiosk = try MQTTKiosk(mqtt: mqtt)
        try kiosk.loop.start(at: kiosk.time.now)
        var rng = SplitMix64(seed: 36)
        var menu = 0
        var checked = 0
        func quiet() throws {
            var count = -1
            for _ in 0..<40 where count != sub.messages.count {
                count = sub.messages.count
                try kiosk.settle(0.1, subscriber: sub)
            }
        }
        func check(_ step: String) {
            var told: String?
            var options: [String] = []
            var lastState: String??
            for m in sub.messages {
                if m.topic == base + "/event" {
                    let line = Self.json(m.text)
                    if line["event"] as? String == "selected", let path = line["path"] as? [String] { told = path.joined(separator: "/") }
                } else if m.topic == selectTopic {
                    options = Self.json(m.text)["options"] as? [String] ?? []
                } else if m.topic == base + "/state" {
                    let selected = Self.json(m.text)["selected"] as? String
                    lastState = .some(selected)
                    if let selected { #expect(options.contains(selected), "\(step): state names '\(selected)', options \(options)") }
                }
            }
            #expect(lastState == .some(told), "\(step): state \(String(describing: lastState)), events told \(String(describing: told))")
            checked += 1
        }
        try quiet()
        check("start")
        // `started` comes first: the start's `selected` follows it.
        let first = sub.messages.first { $0.topic == base + "/event" }.map { Self.json($0.text)["event"] as? String }
        #expect(first == .some("started"))
        for i in 0..<24 {
            let paths = ["coffee", "tea", "drinks", "drinks/water", "drinks/juice", "drinks/..", "drinks/cocoa"]
            let step: String
            switch rng.next() % 4 {
            case 0, 1:
                let path = paths[Int(rng.next() % UInt64(paths.count))]
                step = "select \(path)"
                try sub.publish(base + "/set/select", path, qos: 1)
            case 2:
                step = "back"
                try sub.publish(base + "/set/back", "PRESS", qos: 1)
            default:
                menu = (menu + 1 + Int(rng.next() % 2)) % Self.menus.count
                step = "reload menu \(menu)"
                writeFile(kiosk.dir.path + "/config.yaml", Self.menus[menu] + "mqtt:\n" + mqtt)
                try sub.publish(base + "/set/reload", "PRESS", qos: 1)
            }
            try quiet()
            check("step \(i): \(step)")
        }
        #expect(checked == 25)
    }
}
