import DialCore
import Foundation
import Glibc
import LinuxSystem
import Testing
@testable import KioskSeams
@testable import InputRecording

private func fixture(_ name: String) throws -> String {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: "yml", subdirectory: "Fixtures"))
    return try String(contentsOf: url, encoding: .utf8)
}

/// A minimal single-device recording with the given absinfo and evdev frames.
private func recording(absinfo: String = "53: [0, 999, 0, 0, 0]\n      54: [0, 499, 0, 0, 0]", events: String) -> String {
    """
    version: 1
    ndevices: 1
    devices:
    - node: /dev/input/event7
      evdev:
        name: "test panel"
        absinfo:
          \(absinfo)
      events:
    \(events)
    """
}

@Suite struct LibinputRecordTests {
    @Test func readsTheDeviceOfARealShapedRecording() throws {
        let devices = try LibinputRecordReader.devices(yaml: try fixture("swipe-quarter-turn"))
        #expect(devices.count == 1)
        #expect(devices[0].name == "ILITEK ILITEK-TP")
        #expect(devices[0].node == "/dev/input/event4")
        #expect(devices[0].absinfo[53] == AbsRange(minimum: 0, maximum: 4095))
        #expect(devices[0].frames.count == 14)
        #expect(devices[0].frames[0].last == EvdevEvent(sec: 0, usec: 0, type: 0, code: 0, value: 0, line: devices[0].frames[0].last!.line))
    }

    /// The quarter-turn swipe: down at 12 o'clock, twelve motions, up at 3 o'clock, each frame closed.
    @Test func replaysASwipeOntoTheScreen() throws {
        let events = try parseLibinputRecord(yaml: try fixture("swipe-quarter-turn"), screenWidth: 800, screenHeight: 800)
        let samples = events.filter { $0.phase != .frame }
        #expect(events.filter { $0.phase == .frame }.count == 14)
        #expect(samples.map(\.phase) == [.down] + Array(repeating: .motion, count: 12) + [.up])
        #expect(samples.allSatisfy { $0.slot == 0 })
        // (2048, 748) of 0...4095 on 800 pixels: v * 800 / 4096.
        #expect(samples[0].x == 400 && samples[0].y == 146.09375)
        #expect(samples[0].time == 0)
        #expect(samples.last!.x == 3348.0 * 800 / 4096 && samples.last!.y == 400)
        #expect(abs(samples.last!.time - 0.156) < 1e-9)
        // Clockwise on screen: the angle from the centre grows (y down).
        let angles = samples.map { atan2($0.y - 400, $0.x - 400) }
        #expect(zip(angles, angles.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func twoFingersKeepTheirSlots() throws {
        let events = try parseLibinputRecord(yaml: try fixture("two-fingers"), screenWidth: 4096, screenHeight: 4096)
        let samples = events.filter { $0.phase != .frame }.map { "\($0.slot) \($0.phase) \(Int($0.x))" }
        #expect(samples == ["0 down 1000", "1 down 3000", "0 motion 1100", "1 up 3000", "0 up 1100"])
    }

    @Test func singleTouchScreensUseBtnTouch() throws {
        let yaml = recording(absinfo: "0: [100, 1099, 0, 0, 0]\n      1: [0, 999, 0, 0, 0]", events: """
          - evdev:
            - [1, 0, 3, 0, 600]
            - [1, 0, 3, 1, 500]
            - [1, 0, 1, 330, 1]
            - [1, 0, 0, 0, 0]
          - evdev:
            - [1, 10000, 3, 0, 700]
            - [1, 10000, 0, 0, 0]
          - evdev:
            - [1, 20000, 1, 330, 0]
            - [1, 20000, 0, 0, 0]
        """)
        let samples = try parseLibinputRecord(yaml: yaml, screenWidth: 100, screenHeight: 100).filter { $0.phase != .frame }
        #expect(samples == [
            TouchEvent(slot: 0, phase: .down, x: 50, y: 50, time: 1),
            TouchEvent(slot: 0, phase: .motion, x: 60, y: 50, time: 1.01),
            TouchEvent(slot: 0, phase: .up, x: 60, y: 50, time: 1.02),
        ])
    }

    @Test func aTapWithinOneFrameIsDownThenUp() throws {
        let yaml = recording(events: """
          - evdev:
            - [0, 0, 3, 57, 5]
            - [0, 0, 3, 53, 500]
            - [0, 0, 3, 54, 250]
            - [0, 0, 3, 57, -1]
            - [0, 0, 0, 0, 0]
        """)
        let events = try parseLibinputRecord(yaml: yaml, screenWidth: 1000, screenHeight: 500)
        #expect(events.map(\.phase) == [.down, .up, .frame])
        #expect(events[0].x == 500 && events[0].y == 250)
    }

    @Test func aNewTrackingIdReplacesTheContact() throws {
        let yaml = recording(events: """
          - evdev:
            - [0, 0, 3, 57, 5]
            - [0, 0, 0, 0, 0]
          - evdev:
            - [0, 1, 3, 57, 6]
            - [0, 1, 0, 0, 0]
        """)
        let phases = try parseLibinputRecord(yaml: yaml, screenWidth: 1000, screenHeight: 500).map(\.phase)
        #expect(phases == [.down, .frame, .up, .down, .frame])
    }

    @Test func otherEventEntriesAreSkipped() throws {
        let yaml = recording(events: """
          - hid:
              time: [0, 0]
              hidraw0: [1, 2, 3]
          - libinput:
            - {type: TOUCH_DOWN, time: 0.0}
          - evdev:
            - [0, 0, 3, 57, 5]
            - [0, 0, 0, 0, 0]
        """)
        #expect(try parseLibinputRecord(yaml: yaml, screenWidth: 10, screenHeight: 10).map(\.phase) == [.down, .frame])
    }
}

@Suite struct MalformedLibinputRecordTests {
    private func failure(_ yaml: String) -> LibinputRecordError? { recordFailure(yaml) }

    @Test func aShortEventRowIsLocated() {
        let yaml = recording(events: """
          - evdev:
            - [0, 0, 3, 57, 5]
            - [0, 0, 3, 53]
            - [0, 0, 0, 0, 0]
        """)
        let error = failure(yaml)
        #expect(error == LibinputRecordError(line: 13, path: "devices[0].events[0].evdev[1]",
                                             problem: "expected 5 integers [sec, usec, type, code, value]"))
        #expect(error?.description == "line 13: devices[0].events[0].evdev[1]: expected 5 integers [sec, usec, type, code, value]")
    }

    @Test func aWordInsteadOfANumberIsLocated() {
        let yaml = recording(events: """
          - evdev:
            - [0, 0, 3, 57, five]
        """)
        #expect(failure(yaml) == LibinputRecordError(line: 12, path: "devices[0].events[0].evdev[0]", problem: "\"five\" is not an integer"))
    }

    @Test func badAbsinfoIsLocated() {
        #expect(failure(recording(absinfo: "53: [0, 0, 0, 0, 0]", events: "")) ==
            LibinputRecordError(line: 8, path: "devices[0].evdev.absinfo.53", problem: "maximum 0 is not above minimum 0"))
        #expect(failure(recording(absinfo: "X: [0, 10, 0, 0, 0]", events: ""))?.path == "devices[0].evdev.absinfo.X")
    }

    @Test func missingDevicesIsNamed() {
        #expect(failure("version: 1\nndevices: 0\n") == LibinputRecordError(line: 1, path: "devices", problem: "missing key"))
        #expect(failure("version: 1\ndevices: 3\n")?.path == "devices")
        #expect(failure("devices:\n- node: /dev/input/event1\n")?.path == "devices[0].evdev")
    }

    @Test func anUnknownVersionIsRefused() {
        #expect(failure("version: 2\ndevices: []\n")?.path == "version")
    }

    @Test func brokenYamlGivesItsLine() {
        let error = failure("version: 1\ndevices:\n- node: [unclosed\n")
        #expect(error?.line != nil)
        #expect(error?.problem.hasPrefix("not valid YAML") == true)
        #expect(failure("") == LibinputRecordError(line: nil, path: "", problem: "the file is empty"))
    }

    @Test func aRecordingWithoutTouchAxesIsRefused() {
        let error = failure(recording(absinfo: "8: [0, 10, 0, 0, 0]", events: ""))
        #expect(error?.path == "devices")
        #expect(error?.problem.contains("no touch device") == true)
    }

    @Test func aSlotOutOfRangeIsLocated() {
        let yaml = recording(events: """
          - evdev:
            - [0, 0, 3, 47, 99]
        """)
        #expect(failure(yaml) == LibinputRecordError(line: 12, path: "ABS_MT_SLOT", problem: "slot 99 is outside 0...63"))
    }
}

/// Hostile recordings: values beyond what the kernel's structs
/// hold are located errors, not traps, and files are streamed, not held.
@Suite struct HostileLibinputRecordTests {
    private func failure(_ yaml: String) -> LibinputRecordError? { recordFailure(yaml) }

    /// absinfo [-2^63, 2^63-1] made `EvdevTouchReplay.scale` trap (status 132).
    @Test func absinfoBeyondThirtyTwoBitsIsLocated() {
        let yaml = recording(absinfo: "53: [-9223372036854775808, 9223372036854775807, 0, 0, 0]\n      54: [0, 499, 0, 0, 0]",
                             events: """
          - evdev:
            - [0, 0, 3, 57, 5]
            - [0, 0, 3, 53, 500]
            - [0, 0, 0, 0, 0]
        """)
        #expect(failure(yaml) == LibinputRecordError(
            line: 8, path: "devices[0].evdev.absinfo.53",
            problem: "minimum -9223372036854775808 or maximum 9223372036854775807 is outside the kernel's 32-bit range"))
    }

    /// The widest ranges the kernel can report still scale without a trap.
    @Test func theWidestThirtyTwoBitRangeScales() throws {
        let yaml = recording(absinfo: "53: [-2147483648, 2147483647, 0, 0, 0]\n      54: [-2147483648, 2147483647, 0, 0, 0]",
                             events: """
          - evdev:
            - [0, 0, 3, 57, 5]
            - [0, 0, 3, 53, 2147483647]
            - [0, 0, 3, 54, -2147483648]
            - [0, 0, 0, 0, 0]
        """)
        let events = try parseLibinputRecord(yaml: yaml, screenWidth: 800, screenHeight: 480)
        #expect(events.first?.phase == .down)
        #expect(events.first.map { $0.x > 799 && $0.x < 800 && $0.y == 0 } == true)
    }

    @Test(arguments: [
        ("[0, 0, 3, 53, 9223372036854775807]", "value 9223372036854775807 is outside -2147483648...2147483647"),
        ("[9223372036854775807, 0, 3, 53, 1]", "sec 9223372036854775807 is outside 0...1000000000"),
        ("[-1, 0, 3, 53, 1]", "sec -1 is outside 0...1000000000"),
        ("[0, 1000000, 3, 53, 1]", "usec 1000000 is outside 0...999999"),
        ("[0, 0, 65536, 53, 1]", "type 65536 is outside 0...65535"),
        ("[0, 0, 3, -1, 1]", "code -1 is outside 0...65535"),
        ("[0, 0, 3, 53, 99999999999999999999]", "\"99999999999999999999\" is not an integer"),
        ("[0, 0, 3, 53, 1, 2]", "expected 5 integers [sec, usec, type, code, value]"),
        ("{sec: 0}", "expected 5 integers [sec, usec, type, code, value]"),
    ])
    func rowsBeyondTheKernelsTypesAreLocated(row: String, problem: String) {
        let yaml = recording(events: "  - evdev:\n    - [0, 0, 3, 57, 5]\n    - \(row)\n")
        #expect(failure(yaml) == LibinputRecordError(line: 13, path: "devices[0].events[0].evdev[1]", problem: problem))
        // The same row written inline (a YAML flow list) gets the same check.
        let inline = recording(events: "  [{evdev: [[0, 0, 3, 57, 5], \(row)]}]\n").replacingOccurrences(of: "events:\n", with: "events:")
        #expect(failure(inline)?.problem == problem || row.hasPrefix("{"))
    }

    /// Two devices, the touch device second, a comment and CRLF line ends: lines after a streamed
    /// list keep their numbers in messages, and the second device's own list is replayed.
    @Test func aListAfterAnotherIsFoundAndLinesAreTheFilesLines() throws {
        let yaml = """
            version: 1
            devices:
            - node: /dev/input/event1
              evdev:
                name: "keys"
                absinfo: {}
              events:
              - evdev:
                - [0, 0, 1, 30, 1]
                - [0, 0, 0, 0, 0]
            - node: /dev/input/event2
              evdev:
                name: "panel"
                absinfo:
                  53: [0, 999, 0, 0, 0]
                  54: [0, 499, 0, 0, 0]
              events:
              # Current time is 12:00:00
              - libinput:
                - {type: TOUCH_DOWN, time: 0.0}
              - evdev:
                - [0, 0, 3, 57, 5]      # EV_ABS / ABS_MT_TRACKING_ID 5
                - [0, 0, 3, 53, 500]
                - [0, 0, 3, 54, 250]
                - [0, 0, 0, 0, 0]
              - evdev:
                - [0, 8000, 3, 57, -1]
                - [0, 8000, 0, 0, 0]

            """.replacingOccurrences(of: "\n", with: "\r\n")
        let events = try parseLibinputRecord(yaml: yaml, screenWidth: 1000, screenHeight: 500)
        #expect(events.map(\.phase) == [.down, .frame, .up, .frame])
        #expect(events[0].x == 500 && events[0].y == 250 && events[2].time == 0.008)
        let broken = yaml.replacingOccurrences(of: "54: [0, 499, 0, 0, 0]", with: "54: [0, 0, 0, 0, 0]")
        #expect(failure(broken) == LibinputRecordError(line: 16, path: "devices[1].evdev.absinfo.54",
                                                       problem: "maximum 0 is not above minimum 0"))
        let badRow = yaml.replacingOccurrences(of: "[0, 8000, 3, 57, -1]", with: "[0, 8000, 3, 57]")
        #expect(failure(badRow) == LibinputRecordError(line: 27, path: "devices[1].events[2].evdev[0]",
                                                       problem: "expected 5 integers [sec, usec, type, code, value]"))
    }

    /// `/dev/zero` or a binary file: one line without an end is refused at 64 KiB, located.
    @Test func aHugeLineIsLocated() {
        let error = failure("version: 1\n" + String(repeating: "\0", count: LineReader.defaultMaximumLineBytes + 1))
        #expect(error == LibinputRecordError(line: 2, path: "", problem: "longer than 65536 bytes; is this a libinput record file?"))
    }

    /// A file is streamed: the events before a broken row come out before its error, and a
    /// directory or a device is refused before anything is read.
    @Test func aFileIsStreamedAndMustBeRegular() throws {
        var text = recording(events: "")
        for k in 0..<2_000 { text += "  - evdev:\n    - [0, \(k), 3, 57, \(k)]\n    - [0, \(k), 0, 0, 0]\n" }
        text += "  - evdev:\n    - [0, 0, 3, 57, x]\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(getpid()).yml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var stream = try LibinputRecordFile(path: path).touchEvents(screenWidth: 800, screenHeight: 480)
        var count = 0
        do {
            while try stream.next() != nil { count += 1 }
            Issue.record("the broken last row was accepted")
        } catch let error as LibinputRecordError {
            #expect(error == LibinputRecordError(line: 6012, path: "devices[0].events[2000].evdev[0]", problem: "\"x\" is not an integer"))
        }
        // Each contact replaces the previous one: an up, a down and a frame per SYN_REPORT.
        #expect(count == 1 + 1 + 1999 * 3)
        #expect(throws: LineReader.Failure.notRegularFile(reason: "is not a regular file (a character device)")) { try LibinputRecordFile(path: "/dev/zero") }
        #expect(throws: LineReader.Failure.notRegularFile(reason: "is a directory")) { try LibinputRecordFile(path: "/tmp") }
        #expect(throws: LineReader.Failure.open(errno: Errno(ENOENT))) { try LibinputRecordFile(path: "/nonexistent.yml") }
    }
}

/// The located error a recording at 800x480 is refused with; an accepted one is a test failure.
private func recordFailure(_ yaml: String) -> LibinputRecordError? {
    do {
        _ = try parseLibinputRecord(yaml: yaml, screenWidth: 800, screenHeight: 480)
        Issue.record("accepted")
        return nil
    } catch let error as LibinputRecordError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}
