import DialCore
import Testing
@testable import DialKioskApp

@Suite struct EventLinesTests {
    let encoder = EventLineEncoder(items: [
        MenuItem(id: "tea", label: "Tea", color: RGBColor(hex: 0)),
        MenuItem(id: "odd", label: "Say \"hi\"\\\n\u{1}é", color: RGBColor(hex: 0)),
    ])

    @Test func dialEventsInSimulatesShape() {
        #expect(encoder.line(DialEvent.selected(index: 0, time: 1.2345))
                == "{\"t\": 1.235, \"event\": \"selected\", \"index\": 0, \"id\": \"tea\", \"label\": \"Tea\"}\n")
        #expect(encoder.line(DialEvent.activated(index: 0, time: 2))
                == "{\"t\": 2.000, \"event\": \"activated\", \"index\": 0, \"id\": \"tea\", \"label\": \"Tea\"}\n")
        #expect(encoder.line(DialEvent.rest(time: 3, rotation: -1.25664, index: 0))
                == "{\"t\": 3.000, \"event\": \"rest\", \"rotation\": -1.2566, \"index\": 0, \"id\": \"tea\", \"label\": \"Tea\"}\n")
        #expect(encoder.line(DialEvent.rest(time: 3, rotation: 0, index: nil))
                == "{\"t\": 3.000, \"event\": \"rest\", \"rotation\": 0.0000, \"index\": null}\n")
    }

    @Test func lifecycleEvents() {
        #expect(encoder.line(.started(time: 0.5, items: 2)) == "{\"t\": 0.500, \"event\": \"started\", \"items\": 2}\n")
        #expect(encoder.line(.reloaded(time: 9, items: 3)) == "{\"t\": 9.000, \"event\": \"reloaded\", \"items\": 3}\n")
        #expect(encoder.line(.stopping(time: 10.0004, reason: "SIGTERM"))
                == "{\"t\": 10.000, \"event\": \"stopping\", \"reason\": \"SIGTERM\"}\n")
        #expect(encoder.line(.error(time: 1, message: "no item 'x'"))
                == "{\"t\": 1.000, \"event\": \"error\", \"message\": \"no item 'x'\"}\n")
    }

    @Test func stringsAreEscaped() {
        #expect(encoder.line(.selected(time: 0, index: 1)).contains("\"label\": \"Say \\\"hi\\\"\\\\\\n\\u0001é\""))
        #expect(EventLineEncoder.quoted("\u{7F}") == "\"\\u007f\"")
    }

    @Test func indexOutsideTheMenuHasNoIdOrLabel() {
        #expect(encoder.line(.selected(time: 0, index: 7)) == "{\"t\": 0.000, \"event\": \"selected\", \"index\": 7}\n")
    }

    @Test func fixedPointFormatting() {
        #expect(EventLineEncoder.fixed(0, 3) == "0.000")
        #expect(EventLineEncoder.fixed(-0.0001, 3) == "0.000")
        #expect(EventLineEncoder.fixed(-2.5, 1) == "-2.5")
        #expect(EventLineEncoder.fixed(0.0995, 3) == "0.100")
        #expect(EventLineEncoder.fixed(12345.6789, 0) == "12346")
        #expect(EventLineEncoder.fixed(.nan, 3) == "null")
        #expect(EventLineEncoder.fixed(-.infinity, 3) == "null")
    }
}
