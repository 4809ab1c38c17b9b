import DialCore
import InputRecording
import KioskSeams
import LinuxSystem
import KioskReporting

/// Where `simulate`'s touch samples come from, read as a stream. A regular file can be read
/// again, so it is checked whole in a first pass before it runs; a pipe is run as it arrives.
package struct TouchSource {
    /// The file name (or `<stdin>`) for messages.
    package let source: String
    package let rereadable: Bool
    /// Starts a pass from the first sample: each call of the returned function gives the next.
    let start: () throws -> () throws -> TouchEvent?

    /// One pass over the samples; a source that can be read again is checked whole first, so a
    /// malformed line is reported before anything runs.
    package func checkedPass() throws -> () throws -> TouchEvent? {
        if rereadable {
            let check = try start()
            while try check() != nil {}
        }
        return try start()
    }

    /// A touch script on standard input: read again from the same offset when it is a file.
    package static func standardInput() -> TouchSource {
        let offset = seekOffset(of: 0)
        let regular = LineReader.isRegularFile(0) && offset != nil
        return TouchSource(source: "<stdin>", rereadable: regular) {
            if regular, let offset { _ = seekOffset(of: 0, to: offset) }
            var reader = TouchScript.Reader(lines: LineReader(fd: 0), source: "<stdin>")
            return { try reader.next() }
        }
    }

    /// A touch script file (or a FIFO, read once); a missing or unreadable one is status 66.
    package static func script(_ path: String) throws -> TouchSource {
        func open() throws -> LineReader {
            do {
                return try LineReader(path: path, regularFileOnly: false)
            } catch LineReader.Failure.open(let code) {
                let why = code == .noSuchFile ? "no such touch script" : "cannot be read: \(code)"
                throw CommandFailure("\(path): \(why)", status: .noInput)
            }
        }
        var unused: LineReader? = try open()  // said before anything runs
        return TouchSource(source: path, rereadable: unused!.isRegularFile) {
            let lines = try unused ?? open()
            unused = nil
            var reader = TouchScript.Reader(lines: lines, source: path)
            return { try reader.next() }
        }
    }

    /// A `libinput record` file: its header is read here, each pass streams its touch device's
    /// events mapped onto `width` x `height`. Malformed is status 65; missing, unreadable or not
    /// a regular file 66.
    package static func record(_ path: String, width: Int, height: Int) throws -> TouchSource {
        func failure(_ error: Error) -> Error {
            switch error {
            case let error as LibinputRecordError:
                return CommandFailure("\(path): \(error)", status: .dataError)
            case LineReader.Failure.open(let code) where code == .noSuchFile:
                return CommandFailure("\(path): no such libinput record file", status: .noInput)
            case LineReader.Failure.open(let code), LineReader.Failure.read(_, let code):
                return CommandFailure("\(path): cannot read: \(code)", status: .noInput)
            case LineReader.Failure.notRegularFile(let reason):
                return CommandFailure("\(path): \(reason)", status: .noInput)
            default:
                return error
            }
        }
        do {
            let file = try LibinputRecordFile(path: path)
            _ = try file.touchDevice()
            return TouchSource(source: path, rereadable: true) {
                var events: RecordTouchEvents
                do { events = try file.touchEvents(screenWidth: width, screenHeight: height) } catch { throw failure(error) }
                return {
                    do { return try events.next() } catch { throw failure(error) }
                }
            }
        } catch {
            throw failure(error)
        }
    }
}
