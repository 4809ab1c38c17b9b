import DialCore
import KioskSeams
import LinuxSystem

/// A `libinput record` file read as a stream: one pass for the header (see `RecordLayout`), then
/// each replay reads the file again from the start and streams the device's `events:` list, so
/// memory stays flat in the length of the recording. The file is read more than once: it must
/// be a regular file.
package struct LibinputRecordFile {
    /// The devices of the header (frames only for lists written inline).
    package let devices: [RecordedDevice]
    private let layout: RecordLayout
    private let reopen: () throws -> LineReader

    /// Reads the header of the file at `path`. Throws `LineReader.Failure` when it cannot be
    /// opened or read, or is not a regular file, and `LibinputRecordError` when it is malformed.
    package init(path: String) throws {
        try self.init { try LineReader(path: path, regularFileOnly: true) }
    }

    /// The same for a recording held in memory.
    package init(bytes: [UInt8]) throws {
        try self.init { LineReader(bytes: bytes) }
    }

    private init(reopen: @escaping () throws -> LineReader) throws {
        var reader = try reopen()
        var layout = try RecordLayout.scan(&reader)
        devices = try LibinputRecordReader.devices(layout: layout)
        layout.header = []  // parsed; only the lists' places are needed from here on
        self.layout = layout
        self.reopen = reopen
    }

    /// The first device with touch axes (ABS_MT_POSITION_X or ABS_X).
    package func touchDevice() throws -> RecordedDevice { devices[try touchDeviceIndex()] }

    private func touchDeviceIndex() throws -> Int {
        let touchCodes = [EvdevCode.absMTPositionX, EvdevCode.absX]
        guard let index = devices.firstIndex(where: { d in touchCodes.contains { d.absinfo[$0] != nil } }) else {
            throw LibinputRecordError(line: nil, path: "devices",
                                      problem: "no touch device: no device has an ABS_MT_POSITION_X (53) or ABS_X (0) absinfo")
        }
        return index
    }

    /// The touch events of the first touch device, mapped onto a `screenWidth` x `screenHeight`
    /// screen, read from the file as they are pulled.
    package func touchEvents(screenWidth: Int, screenHeight: Int) throws -> RecordTouchEvents {
        let index = try touchDeviceIndex()
        let replay = try EvdevTouchReplay(device: devices[index], screenWidth: screenWidth, screenHeight: screenHeight)
        return RecordTouchEvents(evdev: try evdevEvents(ofDevice: index), replay: replay)
    }

    /// The evdev events of device `deviceIndex` in order, each with the index of its entry in
    /// the `events` list.
    func evdevEvents(ofDevice deviceIndex: Int) throws -> EvdevEvents {
        let device = devices[deviceIndex]
        var inline: [(Int, EvdevEvent)] = []
        for (index, frame) in device.frames.enumerated() { inline += frame.map { (index, $0) } }
        guard let listIndex = device.streamedList else { return EvdevEvents(inline: inline, list: nil) }
        let list = layout.lists[listIndex]
        var reader = try reopen()
        while let line = try RecordLayout.readLine(&reader), line.number < list.keyFileLine {}
        return EvdevEvents(inline: inline, list: (reader, list.keyIndent, EventsListParser(path: "devices[\(deviceIndex)].events")))
    }
}

/// The evdev events of one device: an inline list's, then a streamed list's, read line by line.
struct EvdevEvents {
    private var inline: [(Int, EvdevEvent)]
    private var position = 0
    private var list: (reader: LineReader, keyIndent: Int, parser: EventsListParser)?

    init(inline: [(Int, EvdevEvent)], list: (LineReader, Int, EventsListParser)?) {
        self.inline = inline
        self.list = list
    }

    mutating func next() throws -> (entry: Int, event: EvdevEvent)? {
        if position < inline.count {
            position += 1
            return inline[position - 1]
        }
        while var current = list {
            list = nil  // the reader is mutated alone, not copied with its buffer
            guard let line = try RecordLayout.readLine(&current.reader),
                  RecordEventsLayout.belongs(line.bytes, keyIndent: current.keyIndent) else { return nil }
            let event = try current.parser.feed(line)
            list = current
            if let event { return event }
        }
        return nil
    }
}

/// Touch events replayed from a recording's evdev events, produced as they are pulled.
package struct RecordTouchEvents {
    private var evdev: EvdevEvents
    private var replay: EvdevTouchReplay
    private var queue: [TouchEvent] = []
    private var head = 0

    init(evdev: EvdevEvents, replay: EvdevTouchReplay) {
        self.evdev = evdev
        self.replay = replay
    }

    /// The next touch event, or nil at the end of the recording. Throws `LibinputRecordError`
    /// (located) for a malformed row and `LineReader.Failure` when the file cannot be read.
    package mutating func next() throws -> TouchEvent? {
        while head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
            guard let (_, event) = try evdev.next() else { return nil }
            try replay.apply(event, into: &queue)
        }
        head += 1
        return queue[head - 1]
    }
}
