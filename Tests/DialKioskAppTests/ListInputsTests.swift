import DialCore
import Foundation
import Testing
import InputRecording
import TouchInput
@testable import KioskSeams
@testable import DialKioskApp
@testable import KioskRuntime
import KioskTestSupport

@Suite struct ListInputsTests {
    @Test func tableIsAlignedAndSortedByKernelName() {
        let devices = [
            InputDeviceInfo(name: "Wheel mouse", sysname: "event10", seat: "seat0/default", capabilities: [.pointer]),
            InputDeviceInfo(name: "ILITEK ILITEK-TP", sysname: "event2", seat: "seat0/default", capabilities: [.touch],
                            sizeMillimetres: (154.25, 86), acceptsCalibration: true),
        ]
        let lines = ListInputsCommand.table(devices)
        #expect(lines == [
            "DEVICE   CAPABILITIES  SIZE_MM   CALIBRATION  SEAT           READ_BY   NAME",
            "event2   touch         154.3x86  yes          seat0/default  libinput  ILITEK ILITEK-TP",
            "event10  pointer       -         no           seat0/default  libinput  Wheel mouse",
        ])
    }

    /// REL_DIAL encoders, which libinput does not open, are listed with the seat udev puts
    /// them on: read by DialKiosk on its seat, by nobody on another.
    @Test func dialsAreListedWithTheirSeatAndReader() {
        let devices = [InputDeviceInfo(name: "Wheel mouse", sysname: "event4", seat: "seat0/default", capabilities: [.pointer])]
        let dials = [
            EvdevNode(devnode: "/dev/input/event7", sysname: "event7", name: "rotary@1", seat: "seat1", relativeAxes: "80"),
            EvdevNode(devnode: "/dev/input/event3", sysname: "event3", name: "rotary@0", relativeAxes: "80"),
        ]
        #expect(ListInputsCommand.table(devices, dials: dials, seat: "seat0") == [
            "DEVICE  CAPABILITIES  SIZE_MM  CALIBRATION  SEAT           READ_BY    NAME",
            "event3  dial          -        no           seat0          dialkiosk  rotary@0",
            "event4  pointer       -        no           seat0/default  libinput   Wheel mouse",
            "event7  dial          -        no           seat1          none       rotary@1",
        ])
        #expect(ListInputsCommand.table([], dials: dials, seat: "seat1").map { $0.contains("dialkiosk") } == [false, false, true])
    }

    @Test func eventsPrintAsJsonLines() {
        #expect(ListInputsCommand.json(.touch(TouchEvent(slot: 1, phase: .down, x: 10.5, y: 20, time: 3.25)))
            == #"{"t": 3.25, "event": "touch", "slot": 1, "phase": "down", "x": 10.5, "y": 20.0, "time": 3.25}"#)
        #expect(ListInputsCommand.json(.command(.step(-1), time: 2))
            == #"{"t": 2.0, "event": "command", "command": "step", "by": -1, "time": 2.0}"#)
        #expect(ListInputsCommand.json(.command(.activate, time: 2)) == #"{"t": 2.0, "event": "command", "command": "activate", "time": 2.0}"#)
    }

    /// A seat name is whatever udev or the configuration says: the watching line escapes it, so
    /// the line stays one JSON object and gives back the very name.
    @Test func watchingLineEscapesTheSeatName() throws {
        let seat = "seat\"0\\x\u{1}\n\u{7F}é"
        let line = ListInputsCommand.watching(seat: seat, now: 1.5)
        #expect(!line.contains("\n"))
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(object?["event"] as? String == "watching")
        #expect(object?["seat"] as? String == seat)
    }
    @Test func inputErrorsMapToExitStatuses() {
        #expect(InputSystemError(.open, operation: "/dev/input/event3", errno: 13).exitStatus == .permissionDenied)
        #expect(InputSystemError(.open, operation: "/dev/input/event3", errno: 13).description
            == "/dev/input/event3: Permission denied (is the user in group input?)")
        #expect(InputSystemError(.noDevices, operation: "no input devices on seat seat0", errno: 0).exitStatus == .noDevice)
        #expect(LibinputRecordError(line: 3, path: "devices", problem: "x").exitStatus == .dataError)
    }

    @Test func badCalibrationIsAUsageError() throws {
        let result = try runDialkiosk(["list-inputs", "--touch-calibration", "1 0 0"])
        #expect(result.status == 64)
        #expect(result.err.contains("expected 6 numbers"))
    }
}
