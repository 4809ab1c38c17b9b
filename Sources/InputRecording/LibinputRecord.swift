import YAMLTree

/// One `struct input_event` as `libinput record` writes it: [sec, usec, type, code, value].
package struct EvdevEvent: Sendable, Equatable {
    package var sec: Int
    package var usec: Int
    package var type: Int
    package var code: Int
    package var value: Int
    /// Line in the YAML file, for errors found after parsing.
    package var line: Int

    package init(sec: Int, usec: Int, type: Int, code: Int, value: Int, line: Int = 0) {
        self.sec = sec
        self.usec = usec
        self.type = type
        self.code = code
        self.value = value
        self.line = line
    }

    package var time: Double { Double(sec) + Double(usec) / 1_000_000 }
}

/// An axis range from the recording's absinfo: [min, max, fuzz, flat, resolution].
package struct AbsRange: Sendable, Equatable {
    package var minimum: Int
    package var maximum: Int
    package init(minimum: Int, maximum: Int) {
        self.minimum = minimum
        self.maximum = maximum
    }
}

/// One device of a `libinput record` file, reduced to what a touch replay needs.
package struct RecordedDevice: Sendable, Equatable {
    package var node: String
    package var name: String
    /// Keyed by ABS_* code.
    package var absinfo: [Int: AbsRange]
    /// The evdev frames in order, each ending with its SYN_REPORT. For a file, only those of an
    /// `events` list written inline (`events: [...]`); a block list is streamed (`streamedList`).
    package var frames: [[EvdevEvent]]
    /// The streamed `events:` list of this device (an index into the file's layout), if any.
    var streamedList: Int?

    package init(node: String, name: String, absinfo: [Int: AbsRange], frames: [[EvdevEvent]]) {
        self.node = node
        self.name = name
        self.absinfo = absinfo
        self.frames = frames
    }
}

/// A malformed recording, located: the line and the key path of the offending node.
package struct LibinputRecordError: Error, Equatable, CustomStringConvertible {
    package var line: Int?
    package var path: String
    package var problem: String

    package init(line: Int?, path: String, problem: String) {
        self.line = line
        self.path = path
        self.problem = problem
    }

    package var description: String {
        let place = line.map { "line \($0)" } ?? "the file"
        return (path.isEmpty ? "\(place): \(problem)" : "\(place): \(path): \(problem)").oneLine()
    }
}

/// Reads the YAML `libinput record` writes (see libinput-record(1), FILE FORMAT): per device the
/// node, `evdev.name`, `evdev.absinfo` and the `events` list of `evdev` frames. Unknown keys are
/// ignored as the format asks; `hid` and `libinput` event entries are skipped.
package enum LibinputRecordReader {
    /// Every device of a recording held in memory, each with all its frames (for tests and the
    /// fuzzer; `LibinputRecordFile` streams a file instead).
    package static func devices(yaml: String) throws -> [RecordedDevice] {
        let file = try LibinputRecordFile(bytes: Array(yaml.utf8))
        return try file.devices.enumerated().map { index, device in
            var stream = try file.evdevEvents(ofDevice: index)
            var frames: [[EvdevEvent]] = device.frames
            var entry: Int?
            while let (index, event) = try stream.next() {
                if index != entry { frames.append([]) }
                entry = index
                frames[frames.count - 1].append(event)
            }
            var full = device
            full.frames = frames
            return full
        }
    }

    /// The devices described by a file's header (its text without the streamed lists).
    static func devices(layout: RecordLayout) throws -> [RecordedDevice] {
        let yaml = String(decoding: layout.header, as: UTF8.self)
        do {
            return try devices(header: yaml, layout: layout)
        } catch var error as LibinputRecordError {
            error.line = error.line.map(layout.fileLine)
            throw error
        }
    }

    private static func devices(header yaml: String, layout: RecordLayout) throws -> [RecordedDevice] {
        let root: YAMLNode
        do {
            guard let composed = try YAMLComposer.compose(yaml) else {
                throw LibinputRecordError(line: nil, path: "", problem: "the file is empty")
            }
            root = composed
        } catch let error as YAMLError {
            throw yamlError(error)
        }
        guard root.mapping != nil else {
            throw LibinputRecordError(line: root.line, path: "", problem: "expected a mapping with `devices`")
        }
        if let version = root["version"], version.int != 1 {
            throw LibinputRecordError(line: version.line, path: "version",
                                      problem: "unsupported format version \(version.string ?? "?") (only 1 is known)")
        }
        guard let devicesNode = root["devices"] else {
            throw LibinputRecordError(line: root.line, path: "devices", problem: "missing key")
        }
        guard let list = devicesNode.sequence else {
            throw LibinputRecordError(line: devicesNode.line, path: "devices", problem: "expected a list of devices")
        }
        return try list.enumerated().map { index, node in try device(node, path: "devices[\(index)]", layout: layout) }
    }

    private static func device(_ node: YAMLNode, path: String, layout: RecordLayout) throws -> RecordedDevice {
        guard node.mapping != nil else { throw located(node, path, "expected a mapping") }
        let evdev = try required(node, "evdev", path)
        let evdevPath = path + ".evdev"
        var absinfo: [Int: AbsRange] = [:]
        if let abs = evdev["absinfo"] {
            guard let mapping = abs.mapping else { throw located(abs, evdevPath + ".absinfo", "expected a mapping of code: [min, max, fuzz, flat, resolution]") }
            for (key, value) in mapping {
                let keyPath = evdevPath + ".absinfo.\(key.string ?? "?")"
                guard let code = key.int else { throw located(key, keyPath, "the key must be an ABS_* code number") }
                let numbers = try integers(value, keyPath, expected: 5, meaning: "[min, max, fuzz, flat, resolution]")
                // The kernel's struct input_absinfo holds 32-bit values; beyond them a range is
                // no recording of a real device (and its width would overflow).
                let limits = Int(Int32.min)...Int(Int32.max)
                guard limits.contains(numbers[0]), limits.contains(numbers[1]) else {
                    throw located(value, keyPath, "minimum \(numbers[0]) or maximum \(numbers[1]) is outside the kernel's 32-bit range")
                }
                guard numbers[1] > numbers[0] else {
                    throw located(value, keyPath, "maximum \(numbers[1]) is not above minimum \(numbers[0])")
                }
                absinfo[code] = AbsRange(minimum: numbers[0], maximum: numbers[1])
            }
        }
        var recorded = RecordedDevice(node: node["node"]?.string ?? "", name: evdev["name"]?.string ?? "",
                                      absinfo: absinfo, frames: [])
        if let events = node["events"], !events.isNull {
            guard let list = events.sequence else { throw located(events, path + ".events", "expected a list") }
            if list.isEmpty, let streamed = layout.list(atHeaderLine: events.line) {
                recorded.streamedList = streamed
            }
            for (index, entry) in list.enumerated() {
                let entryPath = path + ".events[\(index)]"
                guard entry.mapping != nil else { throw located(entry, entryPath, "expected a mapping such as `evdev: [...]`") }
                guard let frame = entry["evdev"] else { continue }
                guard let rows = frame.sequence else { throw located(frame, entryPath + ".evdev", "expected a list of events") }
                recorded.frames.append(try rows.enumerated().map { row, rowNode in
                    let rowPath = entryPath + ".evdev[\(row)]"
                    let n = try integers(rowNode, rowPath, expected: 5, meaning: "[sec, usec, type, code, value]")
                    return try EvdevEvent(checking: n, line: layout.fileLine(rowNode.line), path: rowPath)
                })
            }
        }
        return recorded
    }

    private static func required(_ node: YAMLNode, _ key: String, _ path: String) throws -> YAMLNode {
        guard let value = node[key] else { throw located(node, path + ".\(key)", "missing key") }
        return value
    }

    private static func integers(_ node: YAMLNode, _ path: String, expected: Int, meaning: String) throws -> [Int] {
        guard let list = node.sequence, list.count == expected else {
            throw located(node, path, "expected \(expected) integers \(meaning)")
        }
        return try list.map { item in
            guard let value = item.int else { throw located(item, path, "\"\(item.string ?? "?")\" is not an integer") }
            return value
        }
    }

    private static func located(_ node: YAMLNode, _ path: String, _ problem: String) -> LibinputRecordError {
        LibinputRecordError(line: node.line, path: path, problem: problem)
    }

    private static func yamlError(_ error: YAMLError) -> LibinputRecordError {
        switch error {
        case let .syntax(_, problem, line, _, _):
            return LibinputRecordError(line: line, path: "", problem: "not valid YAML: \(problem)")
        case let .duplicateKeys(keys, line):
            return LibinputRecordError(line: line, path: "", problem: "not valid YAML: duplicate key \(keys.joined(separator: ", "))")
        case .reader, .memory:
            // "LINE:COLUMN: error: reader: ...", or no place at all.
            return LibinputRecordError(line: error.line, path: "", problem: "not valid YAML: \(error)")
        }
    }
}
