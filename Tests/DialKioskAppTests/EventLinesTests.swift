import DialCore
import Testing
@testable import DialKioskApp

@Suite struct EventLinesTests {
    let items = [
        MenuItem(id: "tea", label: "Tea", color: RGBColor(hex: 0)),
        MenuItem(id: "odd", label: "Say \"hi\"\n", color: RGBColor(hex: 0)),
    ]

    @Test func dialEventsAreSimulatesLines() {
        let events: [DialEvent] = [.selected(index: 0, time: 1.25), .activated(index: 1, time: 2),
                                   .rest(time: 3, rotation: -1.5, index: nil)]
        for event in events {
            #expect(EventLine.kiosk(.dial(event, frames: 7), items: items).text
                    == EventLine.dialEvent(event, items: items, frames: 7).text)
        }
        #expect(EventLine.kiosk(.dial(.selected(index: 0, time: 1.25), frames: 0), items: items).text
                == "{\"t\": 1.25, \"event\": \"selected\", \"index\": 0, \"id\": \"tea\", \"label\": \"Tea\"}")
    }

    /// The one writer escapes keys as well as values, and writes arrays of strings (item paths).
    @Test func writesEscapedKeysAndStringArrays() throws {
        let line = EventLine([("path", .strings(["drinks", "co\"ffee\\", "\u{1}"])), ("k\"ey", .strings([])),
                              ("x", .number(.nan)), ("o", .object([("i\n", .ints([1, -2])), ("e", .object([]))])),
                              ("n", .null)]).text
        #expect(line == #"{"path": ["drinks", "co\"ffee\\", "\u0001"], "k\"ey": [], "x": null, "o": {"i\n": [1, -2], "e": {}}, "n": null}"#)
    }

    @Test func lifecycleEvents() {
        #expect(EventLine.kiosk(.started(time: 0.5, items: 2), items: items).text
                == "{\"t\": 0.5, \"event\": \"started\", \"items\": 2}")
        #expect(EventLine.kiosk(.reloaded(time: 9, items: 3), items: items).text
                == "{\"t\": 9.0, \"event\": \"reloaded\", \"items\": 3}")
        #expect(EventLine.kiosk(.stopping(time: 10.25, reason: "SIGTERM"), items: items).text
                == "{\"t\": 10.25, \"event\": \"stopping\", \"reason\": \"SIGTERM\"}")
        #expect(EventLine.kiosk(.error(time: 1, message: "no item \"x\"\n"), items: []).text
                == "{\"t\": 1.0, \"event\": \"error\", \"message\": \"no item \\\"x\\\"\\n\"}")
    }
}
