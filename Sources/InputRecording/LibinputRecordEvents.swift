import DialCore
import KioskSeams
import LinuxSystem

/// The `events:` lists of a `libinput record` file, read line by line. They are nearly all of a
/// long recording, and a YAML tree of them costs hundreds of bytes per number, so they are never
/// composed: the rest of the file (the header, a few kilobytes) goes to Yams with each list
/// replaced by `[]`, and a list is streamed row by row when it is replayed. libinput writes them
/// in one block layout (libinput-record(1)):
///
///     events:
///     # a comment
///     - evdev:
///       - [  0,  0,   3,  57,    17] # EV_ABS / ABS_MT_TRACKING_ID 17
///       - [  0,  0,   0,   0,     0] # ------------ SYN_REPORT (0) ----------
///     - libinput:
///       - {type: TOUCH_DOWN, ...}
///
/// Entries other than `evdev` (`libinput`, `hid`) are skipped, as the format asks.
enum RecordEventsLayout {
    /// Leading spaces of a line.
    static func indent(_ line: ArraySlice<UInt8>) -> Int {
        line.prefix(while: { $0 == UInt8(ascii: " ") }).count
    }

    /// Whether a line holds nothing but spaces and perhaps a comment.
    static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        guard let first = line.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return true }
        return first == UInt8(ascii: "#")
    }

    /// The indentation of an `events:` key whose list follows on the next lines (nothing after
    /// the colon but a comment); nil for any other line.
    static func eventsKeyIndent(_ line: ArraySlice<UInt8>) -> Int? {
        let n = indent(line)
        let rest = line.dropFirst(n)
        guard rest.starts(with: "events:".utf8) else { return nil }
        return isBlank(rest.dropFirst(7)) ? n : nil
    }

    /// Whether a line still belongs to a list whose `events:` key is indented by `keyIndent`:
    /// blank and comment lines, deeper lines, and `- ` entries at the key's own indentation
    /// (YAML's indentless sequence, which is how libinput writes it).
    static func belongs(_ line: ArraySlice<UInt8>, keyIndent: Int) -> Bool {
        if isBlank(line) { return true }
        let n = indent(line)
        if n > keyIndent { return true }
        guard n == keyIndent else { return false }
        let rest = line.dropFirst(n)
        return rest.first == UInt8(ascii: "-") && (rest.count == 1 || rest.dropFirst().first == UInt8(ascii: " "))
    }
}

/// Where the streamed lists sit: the header text for Yams, and per list the line of its key in
/// the file and in the header (header lines after a list are fewer by the list's length).
struct RecordLayout {
    struct List {
        var keyFileLine: Int
        var keyHeaderLine: Int
        var keyIndent: Int
        /// Lines of the file the list took out of the header.
        var lines = 0
    }

    /// Text outside the streamed lists, at most this long: a header is a few kilobytes.
    static let maximumHeaderBytes = 1 << 20

    var header: [UInt8] = []
    var lists: [List] = []
    /// The list at each header line, and the file lines taken out before each list: a hostile
    /// file may hold many thousands of lists, and no lookup may cost more than a log.
    private var listAtHeaderLine: [Int: Int] = [:]
    private var linesBefore: [Int] = []

    /// Reads the whole file once, keeping only the header.
    static func scan(_ reader: inout LineReader) throws -> RecordLayout {
        var layout = RecordLayout()
        var headerLine = 0
        var open: Int?  // the list being skipped
        while let line = try readLine(&reader) {
            if let index = open {
                if RecordEventsLayout.belongs(line.bytes, keyIndent: layout.lists[index].keyIndent) {
                    layout.lists[index].lines += 1
                    continue
                }
                open = nil
            }
            headerLine += 1
            if let indent = RecordEventsLayout.eventsKeyIndent(line.bytes) {
                layout.header += repeatElement(UInt8(ascii: " "), count: indent)
                layout.header += "events: []".utf8
                layout.lists.append(List(keyFileLine: line.number, keyHeaderLine: headerLine, keyIndent: indent))
                open = layout.lists.count - 1
                layout.listAtHeaderLine[headerLine] = open
            } else {
                layout.header += line.bytes
            }
            layout.header.append(UInt8(ascii: "\n"))
            guard layout.header.count <= maximumHeaderBytes else {
                throw LibinputRecordError(line: line.number, path: "",
                                          problem: "more than 1 MiB outside the events lists; is this a libinput record file?")
            }
        }
        var taken = 0
        for list in layout.lists {
            layout.linesBefore.append(taken)
            taken += list.lines
        }
        layout.linesBefore.append(taken)
        return layout
    }

    /// The file's line for a line of the header: lists are in header order, so the lists above
    /// it are found by bisection.
    func fileLine(_ headerLine: Int) -> Int {
        var low = 0, high = lists.count
        while low < high {
            let mid = (low + high) / 2
            if lists[mid].keyHeaderLine < headerLine { low = mid + 1 } else { high = mid }
        }
        return headerLine + linesBefore[low]
    }

    /// The list whose `events: []` stands on this header line.
    func list(atHeaderLine line: Int) -> Int? { listAtHeaderLine[line] }

    /// A line, with a line too long (`/dev/zero`, a binary file) as a located record error.
    static func readLine(_ reader: inout LineReader) throws -> LineReader.Line? {
        do {
            return try reader.next()
        } catch LineReader.Failure.tooLong(let line, let limit) {
            throw LibinputRecordError(line: line, path: "",
                                      problem: "longer than \(limit) bytes; is this a libinput record file?")
        }
    }
}

/// Reads the lines of one streamed `events:` list, one evdev row at a time.
struct EventsListParser {
    /// `devices[N].events`, for messages.
    let path: String
    private var entryIndent: Int?
    private var entry = -1
    private var inEvdev = false
    private var row = 0

    init(path: String) { self.path = path }

    /// The evdev event a line of the list holds (with the index of its entry), or nil for
    /// entry heads, comments and skipped entries' lines.
    mutating func feed(_ line: LineReader.Line) throws -> (entry: Int, event: EvdevEvent)? {
        let bytes = line.bytes
        if RecordEventsLayout.isBlank(bytes) { return nil }
        let indent = RecordEventsLayout.indent(bytes)
        let rest = bytes.dropFirst(indent)
        if entryIndent == nil || indent <= entryIndent! {
            try beginEntry(rest, indent: indent, line: line.number)
            return nil
        }
        guard inEvdev else { return nil }
        let rowPath = "\(path)[\(entry)].evdev[\(row)]"
        row += 1
        guard let item = Self.dashItem(rest) else {
            throw LibinputRecordError(line: line.number, path: rowPath, problem: "expected a row `- [sec, usec, type, code, value]`")
        }
        let numbers = try Self.integers(item, line: line.number, path: rowPath)
        return (entry, try EvdevEvent(checking: numbers, line: line.number, path: rowPath))
    }

    /// `- evdev:` starts a frame; `- libinput:`, `- hid:` and other keys start entries to skip.
    private mutating func beginEntry(_ rest: ArraySlice<UInt8>, indent: Int, line: Int) throws {
        entry += 1
        row = 0
        inEvdev = false
        let entryPath = "\(path)[\(entry)]"
        if let expected = entryIndent, indent != expected {
            throw LibinputRecordError(line: line, path: entryPath,
                                      problem: "expected an entry `- evdev:` indented like the first (\(expected) spaces), got \(indent)")
        }
        entryIndent = indent
        guard let item = Self.dashItem(rest), let colon = item.firstIndex(of: UInt8(ascii: ":")),
              colon > item.startIndex, !item[..<colon].contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") }) else {
            throw LibinputRecordError(line: line, path: entryPath, problem: "expected a mapping such as `evdev: [...]`")
        }
        guard item[..<colon].elementsEqual("evdev".utf8) else { return }
        let value = item[(colon + 1)...]
        if RecordEventsLayout.isBlank(value) {
            inEvdev = true
        } else if !Self.stripped(value).elementsEqual("[]".utf8) {
            throw LibinputRecordError(line: line, path: entryPath + ".evdev",
                                      problem: "expected the rows on the lines after `evdev:`, as libinput record writes them")
        }
    }

    /// The text after a `- ` (or nil when the line is not a list item).
    private static func dashItem(_ rest: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard rest.first == UInt8(ascii: "-"), rest.count == 1 || rest.dropFirst().first == UInt8(ascii: " ") else { return nil }
        return stripped(rest.dropFirst())
    }

    /// Without leading and trailing spaces, and without a trailing `# comment`.
    private static func stripped(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var t = trimmed(text)
        if let hash = t.firstIndex(of: UInt8(ascii: "#")), hash == t.startIndex || t[hash - 1] == UInt8(ascii: " ") {
            t = trimmed(t[..<hash])
        }
        return t
    }

    private static func trimmed(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func space(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var t = text.drop(while: space)
        while let last = t.last, space(last) { t = t.dropLast() }
        return t
    }

    /// The five integers of `[sec, usec, type, code, value]`, with the messages the YAML tree
    /// reader gives for the same faults.
    private static func integers(_ item: ArraySlice<UInt8>, line: Int, path: String) throws -> [Int] {
        let shape = "expected 5 integers [sec, usec, type, code, value]"
        guard item.first == UInt8(ascii: "["), item.last == UInt8(ascii: "]") else {
            throw LibinputRecordError(line: line, path: path, problem: shape)
        }
        let fields = item.dropFirst().dropLast().split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard fields.count == 5 else { throw LibinputRecordError(line: line, path: path, problem: shape) }
        return try fields.map { field in
            let token = trimmed(field)
            let text = String(decoding: token, as: UTF8.self)
            let digits = token.first == UInt8(ascii: "-") || token.first == UInt8(ascii: "+") ? token.dropFirst() : token[...]
            guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let value = Int(text) else {
                throw LibinputRecordError(line: line, path: path, problem: "\"\(text)\" is not an integer")
            }
            return value
        }
    }
}

extension EvdevEvent {
    /// An event from a row's numbers, inside what the kernel's `struct input_event` can hold
    /// (16-bit type and code, 32-bit value, microseconds below a second) and what a replay can
    /// time (seconds up to `VirtualTime.maximumSeconds`).
    init(checking n: [Int], line: Int, path: String) throws {
        func check(_ value: Int, _ name: String, _ range: ClosedRange<Int>) throws {
            guard range.contains(value) else {
                throw LibinputRecordError(line: line, path: path,
                                          problem: "\(name) \(value) is outside \(range.lowerBound)...\(range.upperBound)")
            }
        }
        try check(n[0], "sec", 0...Int(VirtualTime.maximumSeconds))
        try check(n[1], "usec", 0...999_999)
        try check(n[2], "type", 0...0xFFFF)
        try check(n[3], "code", 0...0xFFFF)
        try check(n[4], "value", Int(Int32.min)...Int(Int32.max))
        self.init(sec: n[0], usec: n[1], type: n[2], code: n[3], value: n[4], line: line)
    }
}
