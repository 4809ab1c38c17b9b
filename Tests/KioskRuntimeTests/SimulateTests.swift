import Foundation
import Testing
import LinuxSystem
@testable import KioskRuntime
import Glibc
@testable import KioskFeatures
import KioskTestSupport

/// The repository, its examples folder and this target's fixtures (a menu script).
let repository = URL(fileURLWithPath: repositoryRoot)
let examples = repository.appendingPathComponent("examples")
let fixtures = repository.appendingPathComponent("Tests/KioskRuntimeTests/Fixtures")

@Suite struct SimulateCommandTests {
    @Test func sameSelectionsAndRestAt30And144Hz() throws {
        let script = examples.appendingPathComponent("fling.jsonl").path
        let slow = try runDialkiosk(["simulate", "--script", script, "--refresh", "30"])
        let fast = try runDialkiosk(["simulate", "--script", script, "--refresh", "144", "--jitter", "4", "--seed", "9"])
        #expect(slow.status == 0 && fast.status == 0, "\(slow.err) \(fast.err)")
        let a = jsonLines(slow.out), b = jsonLines(fast.out)
        let selectedA = a.filter { $0["event"] as? String == "selected" }.compactMap { $0["id"] as? String }
        let selectedB = b.filter { $0["event"] as? String == "selected" }.compactMap { $0["id"] as? String }
        #expect(!selectedA.isEmpty)
        #expect(selectedA == selectedB)
        let restA = a.filter { $0["event"] as? String == "rest" }.compactMap { $0["rotation"] as? Double }
        let restB = b.filter { $0["event"] as? String == "rest" }.compactMap { $0["rotation"] as? Double }
        #expect(restA.count == 2 && restA.count == restB.count)
        for (x, y) in zip(restA, restB) { #expect(abs(x - y) < 1e-6) }
        // More frames at 144 Hz while moving, none while at rest between the gestures: the
        // second gesture adds frames only for its own movement (about 1.5 s).
        let framesA = a.filter { $0["event"] as? String == "rest" }.compactMap { $0["frames"] as? Int }
        let framesB = b.filter { $0["event"] as? String == "rest" }.compactMap { $0["frames"] as? Int }
        #expect(framesB[0] > framesA[0] * 3)
        #expect(framesA[1] - framesA[0] < 30 * 2)
    }

    @Test func malformedLineNamesItsNumberAndExits65() throws {
        let script = """
            {"t": 0, "type": "down", "x": 500, "y": 100}
            {"t": 0.1, "type": "motion", "x": 510}
            {"t": 0.2, "type": "up", "x": 520, "y": 100}
            """
        let r = try runDialkiosk(["simulate"], stdin: script)
        #expect(r.status == 65)
        #expect(r.err.contains("<stdin>:2: missing key 'y'"))
        #expect(r.out.isEmpty)
    }

    @Test func missingScriptFileIs66AndBadArgumentsAre64() throws {
        let missing = try runDialkiosk(["simulate", "--script", "/nonexistent/touch.jsonl"])
        #expect(missing.status == 66)
        #expect(missing.err.contains("/nonexistent/touch.jsonl"))
        let bad = try runDialkiosk(["simulate", "--jitter", "50"], stdin: "")
        #expect(bad.status == 64)
        #expect(bad.err.contains("--jitter"))
    }
}

/// Hostile and unusual scripts, through the binary.
@Suite struct HostileSimulateTests {
    static let tap = """
        {"t": 0.5, "type": "down", "x": 400, "y": 70}
        {"t": 0.55, "type": "up", "x": 400, "y": 70}
        """
    /// A drag from 12 o'clock towards 3 o'clock: the ring turns and settles.
    static let drag = """
        {"t": 0.5, "type": "down", "x": 400, "y": 70}
        {"t": 0.6, "type": "motion", "x": 520, "y": 120}
        {"t": 0.7, "type": "motion", "x": 570, "y": 240}
        {"t": 0.75, "type": "up", "x": 570, "y": 240}
        """

    @Test func crlfScriptsRunLikeLfScripts() throws {
        let lf = try runDialkiosk(["simulate"], stdin: Self.drag + "\n")
        let crlf = try runDialkiosk(["simulate"], stdin: Self.drag.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n")
        #expect(crlf.status == 0, "\(crlf.err)")
        #expect(!lf.out.isEmpty && crlf.out == lf.out)
    }

    /// Newlines and NULs in a bad value are escaped: the message stays one line.
    @Test func scriptErrorsAreOneEscapedLine() throws {
        let r = try runDialkiosk(["simulate"], stdin: #"{"t": 0, "type": "up\u0000\n<0>forged", "x": 1, "y": 1}"# + "\n")
        #expect(r.status == 65)
        #expect(r.err == #"dialkiosk: <stdin>:1: 'type' must be one of down, motion, up, cancel, got 'up\u{0}\n<0>forged'"# + "\n")
    }

    /// A script that leaves a finger down used to exit 0 with no output at all.
    @Test func aFingerLeftDownIsReported() throws {
        let r = try runDialkiosk(["simulate"], stdin: #"{"t": 0.5, "type": "down", "x": 570, "y": 240}"# + "\n")
        #expect(r.status == 0)
        let last = try #require(jsonLines(r.out).last)
        #expect(last["event"] as? String == "unfinished" && last["reason"] as? String == "finger-down")
        #expect(r.err.contains("<stdin>: the input ended with a finger down"))
    }

    @Test func runningPastMaxSecondsIsReported() throws {
        let r = try runDialkiosk(["simulate", "--max-seconds", "0.6"], stdin: Self.drag)
        let last = try #require(jsonLines(r.out).last)
        #expect(last["event"] as? String == "unfinished" && last["reason"] as? String == "max-seconds")
        #expect(last["t"] as? Double == 0.6)
        #expect(r.err.contains("stopped at --max-seconds 0.6"))
        let whole = try runDialkiosk(["simulate"], stdin: Self.drag)
        #expect(!whole.out.contains("unfinished") && whole.err.isEmpty)
    }

    /// `--max-seconds 1e18` and a sample at t=2e17 trapped (status 132).
    @Test func hugeTimesAreInputErrors() throws {
        let option = try runDialkiosk(["simulate", "--max-seconds", "1e18"], stdin: Self.tap)
        #expect(option.status == 64)
        #expect(option.err.contains("--max-seconds must be a positive number of at most 1e9"))
        let sample = try runDialkiosk(["simulate"], stdin: #"{"t": 2e17, "type": "down", "x": 400, "y": 100}"#)
        #expect(sample.status == 65)
        #expect(sample.err.contains("<stdin>:1: 't' must be at most 1e9 (seconds), got 2e+17"))
    }

    /// A file is checked whole before anything runs; a pipe runs as it arrives, so the events
    /// before a bad line are out when it is reported.
    @Test func filesAreCheckedFirstPipesRunAsTheyCome() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // The bad line is read when the sample before it is handled (at t=3, after the rest).
        let script = Self.drag + "\n{\"t\": 3, \"type\": \"motion\", \"x\": 1, \"y\": 1}\n{\"t\": 4, \"type\": \"jump\", \"x\": 1, \"y\": 1}\n"
        writeFile(dir.path + "/bad.jsonl", script)
        let file = try runDialkiosk(["simulate", "--script", dir.path + "/bad.jsonl"])
        #expect(file.status == 65 && file.out.isEmpty)
        #expect(file.err.contains("bad.jsonl:6: 'type' must be one of"))
        let pipe = try runDialkiosk(["simulate"], stdin: script)
        #expect(pipe.status == 65)
        #expect(pipe.err.contains("<stdin>:6: 'type' must be one of"))
        #expect(jsonLines(pipe.out).contains { $0["event"] as? String == "rest" })
    }

    @Test func recordFilesThatAreNotRegularFilesOrTrapAreRefused() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let zero = try runDialkiosk(["simulate", "--libinput-record", "/dev/zero"])
        #expect(zero.status == 66 && zero.err.contains("/dev/zero: is not a regular file (a character device)"))
        let directory = try runDialkiosk(["simulate", "--libinput-record", dir.path])
        #expect(directory.status == 66 && directory.err.contains("\(dir.path): is a directory"))
        writeFile(dir.path + "/wide.yml", """
            version: 1
            devices:
            - node: /dev/input/event7
              evdev:
                absinfo:
                  53: [-9223372036854775808, 9223372036854775807, 0, 0, 0]
                  54: [0, 499, 0, 0, 0]
              events:
              - evdev:
                - [0, 0, 3, 57, 5]
                - [0, 0, 0, 0, 0]

            """)
        let wide = try runDialkiosk(["simulate", "--libinput-record", dir.path + "/wide.yml"])
        #expect(wide.status == 65)
        #expect(wide.err.contains("wide.yml: line 6: devices[0].evdev.absinfo.53: minimum -9223372036854775808"))
    }
}

/// The script reader on its own: streamed, bounded per line.
@Suite struct TouchScriptReaderTests {
    /// Samples come out as their lines arrive, before the writer closes the pipe.
    @Test func readsSamplesAsTheyArrive() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let line = #"{"t": 0.5, "type": "down", "x": 1, "y": 2}"# + "\n"
        _ = line.withCString { write(fds[1], $0, strlen($0)) }
        var reader = TouchScript.Reader(lines: LineReader(fd: fds[0]), source: "pipe")
        #expect(try reader.next()?.time == 0.5)
        close(fds[1])
        #expect(try reader.next() == nil)
    }

    /// `< /dev/zero` grew to 5.4 GB in 20 s; now the first line is refused at 64 KiB.
    @Test func anEndlessLineIsRefusedAtItsStart() throws {
        let fd = open("/dev/zero", O_RDONLY)
        defer { close(fd) }
        var reader = TouchScript.Reader(lines: LineReader(fd: fd), source: "<stdin>")
        do {
            _ = try reader.next()
            Issue.record("read a sample from /dev/zero")
        } catch let error as ScriptError {
            #expect(error.description == "<stdin>:1: longer than 65536 bytes; expected one touch sample per line")
        }
    }
}

@Suite struct TouchScriptTests {
    @Test func parsesSamplesWithDefaultsAndSkipsComments() throws {
        let text = """
            # a comment
            {"t": 0.5, "type": "down", "x": 1, "y": 2}

            {"t": 0.6, "type": "motion", "x": 3.5, "y": 4, "slot": 2}
            """
        let events = try TouchScript.parse(text, source: "s")
        #expect(events.count == 2)
        #expect(events[0].phase == .down && events[0].slot == 0 && events[0].time == 0.5)
        #expect(events[1].slot == 2 && events[1].x == 3.5)
    }

    @Test(arguments: [
        (#"{"t": 0, "type": "down", "x": 1}"#, "missing key 'y'"),
        (#"{"t": 0, "type": "press", "x": 1, "y": 1}"#, "'type' must be one of"),
        (#"{"t": "0", "type": "down", "x": 1, "y": 1}"#, "'t' must be a number, got '0'"),
        (#"{"t": -1, "type": "down", "x": 1, "y": 1}"#, "'t' must not be negative"),
        (#"{"t": 0, "type": "down", "x": 1, "y": 1, "slot": 1.5}"#, "'slot' must be a whole number"),
        (#"{"t": 0, "type": "down", "x": 1, "y": 1, "z": 1}"#, "unknown key 'z'"),
        (#"[1, 2]"#, "expected one JSON object"),
        (#"{"t": 0, "type": "down", "x": [1], "y": 1}"#, "expected one JSON object"),
        (#"{"t": 0, "#, "expected one JSON object"),
    ])
    func malformedLines(line: String, message: String) {
        do {
            _ = try TouchScript.parse("{\"t\": 0, \"type\": \"down\", \"x\": 1, \"y\": 1}\n" + line, source: "f.jsonl")
            Issue.record("accepted \(line)")
        } catch let e as ScriptError {
            #expect(e.line == 2)
            #expect(e.description.hasPrefix("f.jsonl:2: "))
            #expect(e.description.contains(message), "\(e.description)")
            #expect(e.exitStatus == .dataError)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

@Suite struct EventLineTests {
    @Test func quotesAndRoundTrips() throws {
        let line = EventLine([("label", .string("Dark \"lager\"\n\u{1}é")), ("t", .number(0.1 + 0.2)), ("n", .null)]).text
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["label"] as? String == "Dark \"lager\"\n\u{1}é")
        // The shortest exact form (Foundation's reader on Linux rounds the last digit, so check the text).
        #expect(line.contains("\"t\": 0.30000000000000004,"))
        #expect(object["n"] is NSNull)
        #expect(line.hasPrefix("{\"label\": "))
    }
}

/// The hand-written reader of one script line against Foundation's on the same text.
@Suite struct FlatJSONTests {
    @Test func readsScalarsWithEscapes() {
        let line = #" { "t" : -0.5e-3, "type":"d\u00e9\n\"\\\/\ud83d\ude00", "x": 1E+2, "y": 0, "ok": true, "no": null } "#
        #expect(FlatJSON.object(ArraySlice(line.utf8)) == [
            "t": .number(-0.0005), "type": .string("dé\n\"\\/😀"), "x": .number(100), "y": .number(0),
            "ok": .bool(true), "no": .null,
        ])
        #expect(FlatJSON.object(ArraySlice("{}".utf8)) == [:])
    }

    @Test(arguments: [
        #"{"t": 01}"#, #"{"t": .5}"#, #"{"t": 1.}"#, #"{"t": +1}"#, #"{"t": 1e}"#, #"{"t": -}"#, #"{"a": [1]}"#,
        #"{"a": {}}"#, #"{"a": 1,}"#, #"{"a" 1}"#, #"{"a": 1} x"#, #"{"a": "\x"}"#, "{\"a\": \"\u{1}\"}",
        #"{"a": "\ud800"}"#, #"{"a": "\udc00"}"#, #"{"a": "\u12"}"#, #"{"a": "\u+123"}"#, #"{'a': 1}"#,
        #"{"a": tru}"#, #"{"a": 1"#, #"{"a": "b}"#, "[1, 2]", "", "{,}", #"{"a": NaN}"#, #"{"a": Infinity}"#,
    ])
    func refusesWhatJSONRefuses(text: String) {
        #expect(FlatJSON.object(ArraySlice(text.utf8)) == nil)
        let foundation = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let flat = foundation.map { $0.values.allSatisfy { !($0 is [Any]) && !($0 is [String: Any]) } } ?? false
        // swift-foundation takes a trailing comma, which RFC 8259 does not.
        #expect(!flat || text == #"{"a": 1,}"#, "Foundation reads \(text) as a flat object")
    }

    @Test func refusesInvalidUTF8AndRepeatedKeys() {
        #expect(FlatJSON.object([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]) == nil)
        #expect(FlatJSON.object(ArraySlice(#"{"t": 1, "t": 2}"#.utf8)) == nil)
    }
}
