import DialCore
import Testing
@testable import KioskFeatures
import KioskTestSupport

@Suite struct EventLinesTests {
    let items = [
        MenuItem(id: "tea", label: "Tea", color: RGBColor(hex: 0)),
        MenuItem(id: "odd", label: "Say \"hi\"\n", color: RGBColor(hex: 0)),
    ]

    @Test func dialEventsAreSimulatesLines() throws {
        let menu = try MenuTree(flat: items)
        let events: [DialEvent] = [.selected(index: 0, path: ["tea"], time: 1.25), .activated(index: 1, path: ["odd"], time: 2),
                                   .rest(time: 3, rotation: -1.5, index: nil)]
        for event in events {
            #expect(EventLine.kiosk(.dial(event, frames: 7), menu: menu).text
                    == EventLine.dialEvent(event, menu: menu, frames: 7).text)
        }
        // A flat menu's line is today's plus the path.
        #expect(EventLine.kiosk(.dial(.selected(index: 0, path: ["tea"], time: 1.25), frames: 0), menu: menu).text
                == "{\"t\": 1.25, \"event\": \"selected\", \"index\": 0, \"id\": \"tea\", \"label\": \"Tea\", \"path\": [\"tea\"]}")
    }

    @Test func nestedEventsNameTheirPath() throws {
        let menu = try MenuTree([MenuNode(items[0], children: [MenuNode(items[1])])])
        func line(_ e: DialEvent) -> String { EventLine.dialEvent(e, menu: menu, frames: 0).text }
        #expect(line(.opened(path: ["tea"], time: 1))
                == "{\"t\": 1.0, \"event\": \"opened\", \"id\": \"tea\", \"label\": \"Tea\", \"path\": [\"tea\"]}")
        #expect(line(.closed(path: ["tea"], time: 2))
                == "{\"t\": 2.0, \"event\": \"closed\", \"id\": \"tea\", \"label\": \"Tea\", \"path\": [\"tea\"]}")
        #expect(line(.activated(index: 0, path: ["tea", "odd"], time: 3))
                == "{\"t\": 3.0, \"event\": \"activated\", \"index\": 0, \"id\": \"odd\", \"label\": \"Say \\\"hi\\\"\\n\", \"path\": [\"tea\", \"odd\"]}")
        #expect(line(.selected(index: nil, path: ["tea", ".."], time: 4))
                == "{\"t\": 4.0, \"event\": \"selected\", \"index\": null, \"id\": \"..\", \"label\": \"Back\", \"path\": [\"tea\", \"..\"]}")
    }

    /// The one writer escapes keys as well as values, and writes arrays of strings (item paths).
    @Test func writesEscapedKeysAndStringArrays() throws {
        let line = EventLine([("path", .strings(["drinks", "co\"ffee\\", "\u{1}"])), ("k\"ey", .strings([])),
                              ("x", .number(.nan)), ("o", .object(EventLine([("i\n", .ints([1, -2])), ("e", .object(EventLine([])))]))),
                              ("n", .null)]).text
        #expect(line == #"{"path": ["drinks", "co\"ffee\\", "\u0001"], "k\"ey": [], "x": null, "o": {"i\n": [1, -2], "e": {}}, "n": null}"#)
    }

    @Test func lifecycleEvents() {
        #expect(EventLine.kiosk(.started(time: 0.5, items: 2), menu: .empty).text
                == "{\"t\": 0.5, \"event\": \"started\", \"items\": 2}")
        #expect(EventLine.kiosk(.reloaded(time: 9, items: 3), menu: .empty).text
                == "{\"t\": 9.0, \"event\": \"reloaded\", \"items\": 3}")
        #expect(EventLine.kiosk(.stopping(time: 10.25, reason: "SIGTERM"), menu: .empty).text
                == "{\"t\": 10.25, \"event\": \"stopping\", \"reason\": \"SIGTERM\"}")
        #expect(EventLine.kiosk(.error(time: 1, message: "no item \"x\"\n"), menu: .empty).text
                == "{\"t\": 1.0, \"event\": \"error\", \"message\": \"no item \\\"x\\\"\\n\"}")
    }
}
