import ArgumentParser
import DialCore
import KioskSeams
import KioskVocabulary
import LinuxSystem
import TouchInput
import KioskReporting
import KioskLoop
import KioskFeatures

struct ListInputsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-inputs",
        abstract: "List input devices with their capabilities.",
        discussion: """
            Opens every device on the udev seat through libinput, as `run` does, and prints one \
            line per device: kernel name, capabilities (touch, pointer, keyboard), size in \
            millimetres when known, whether it accepts a calibration matrix, seat, who reads it \
            and name. Rotary encoders that report REL_DIAL, which libinput does not open, are \
            listed too, on every seat, as "dial": DialKiosk reads those on its seat itself \
            (READ_BY dialkiosk), and none on another seat (READ_BY none).
            """
    )

    @OptionGroup var input: TouchInputOptions

    @Flag(help: "Also print libinput's informational messages on stderr.")
    var verbose = false

    @Flag(help: ArgumentHelp("After the list, print every touch, mouse drag, wheel step and key command as JSON Lines, as run would see them (for checking rotation and calibration): \(EventVocabulary.names(writtenBy: .listInputs)) lines."))
    var watch = false

    @Option(help: ArgumentHelp("With --watch: the panel size in pixels that touch positions map onto.", valueName: "WxH"))
    var size = FrameSize(width: 1024, height: 768)

    @Option(help: DisplayRotation.help(default: "0; with --watch, as run's --rotate"))
    var rotate: DisplayRotation = .none

    @Option(name: .customLong("exit-after"), help: "With --watch: stop after this many seconds (default: at SIGINT/SIGTERM).")
    var exitAfter: Double?

    func validate() throws {
        if let exitAfter, !(exitAfter > 0 && exitAfter < 1e7) {
            throw ValidationError("--exit-after \(exitAfter) must be a positive number of seconds")
        }
    }

    func run() throws {
        let verbose = verbose
        try reportingErrors {
            let devices = try listInputDevices(seat: input.seat) { level, line in
                guard verbose || level >= .error else { return }
                JournalLogger.writeToStandardError("dialkiosk: \(line)\n")
            }
            let dials = try listDialAxisDevices()
            let readDials = dials.filter { DialAxisPolicy.verdict($0, seat: input.seat) == .read }
            if devices.isEmpty, readDials.isEmpty, !watch {
                throw InputSystemError(.noDevices, operation: "no input devices on seat \(input.seat)", errno: 0)
            }
            for line in Self.table(devices, dials: dials, seat: input.seat) { print(line) }
            if watch { try watchEvents() }
        }
    }

    /// Polls the seat until a signal or --exit-after, printing each translated event.
    private func watchEvents() throws {
        let source = try input.makeSource(panelWidth: size.width, panelHeight: size.height,
                                          rotation: rotate, minimum: verbose ? .debug : .info)
        defer { source.context.close() }
        let signals = try SignalWatcher()
        defer { signals.close() }
        let timer = try exitAfter.map { try ExitTimer(seconds: $0) }
        defer { timer?.close() }
        print(Self.watching(seat: input.seat, now: monotonicNow()))
        flushStandardOutput()
        while true {
            var fds: [PollDescriptor] = [.reading(source.pollDescriptor), .reading(signals.fd), .reading(timer?.fd ?? -1)]
            if case .failure(let failure) = pollDescriptors(&fds, timeoutMS: -1) {
                throw InputSystemError(InputCall(operation: "poll the input descriptors"), errno: failure)
            }
            if fds[1].revents != 0, signals.drain().contains(.terminate) { return }
            if fds[2].revents != 0, timer?.expired() == true { return }
            if fds[0].revents != 0 {
                for event in try source.drain() { print(Self.json(event)) }
                flushStandardOutput()
            }
        }
    }

    /// The first line of `--watch`, once the seat's devices are open (`now`: CLOCK_MONOTONIC).
    static func watching(seat: String, now: Double) -> String {
        EventLine([("t", .number(now)), ("event", .event(.watching)), ("seat", .string(seat))]).text
    }

    /// One input event as a JSON object on one line; `t` is the event's own time (libinput's,
    /// on CLOCK_MONOTONIC like every line's `t`), `time` the same kept for older readers.
    static func json(_ event: InputEvent) -> String {
        switch event {
        case let .touch(t):
            return EventLine([("t", .number(t.time)), ("event", .event(.touch)), ("slot", .int(t.slot)), ("phase", .string(t.phase.rawValue)),
                              ("x", .number(t.x)), ("y", .number(t.y)), ("time", .number(t.time))]).text
        case let .command(command, time):
            let body: [(String, EventLine.Value)]
            switch command {
            case let .step(n): body = [("command", .string("step")), ("by", .int(n))]
            case .first: body = [("command", .string("first"))]
            case .activate: body = [("command", .string("activate"))]
            case .back: body = [("command", .string("back"))]
            case .speech(let what): body = [("command", .string("speech")), ("speech", .string(what.rawValue))]
            case .digit(let d): body = [("command", .string("digit")), ("digit", .int(d))]
            }
            return EventLine([("t", .number(time)), ("event", .event(.command))] + body + [("time", .number(time))]).text
        }
    }

    /// The listing as aligned text lines, a header first: libinput's `devices`, and the REL_DIAL
    /// `dials` (read by DialKiosk when on `seat`), sorted by kernel name.
    static func table(_ devices: [InputDeviceInfo], dials: [EvdevNode] = [], seat: String = DialAxisPolicy.defaultSeat) -> [String] {
        let header = ["DEVICE", "CAPABILITIES", "SIZE_MM", "CALIBRATION", "SEAT", "READ_BY", "NAME"]
        let rows = devices.map { d -> [String] in
            let size = d.sizeMillimetres.map { "\(fixed($0.width, 1, trimmed: true))x\(fixed($0.height, 1, trimmed: true))" } ?? "-"
            return [d.sysname, d.capabilities.names, size, d.acceptsCalibration ? "yes" : "no", d.seat, "libinput", d.name]
        } + dials.map { d -> [String] in
            let reader = DialAxisPolicy.verdict(d, seat: seat) == .read ? "dialkiosk" : "none"
            return [d.sysname, "dial", "-", "no", d.seatName, reader, d.name]
        }
        // A node both read (a knob with buttons for libinput and REL_DIAL for us) lists libinput's first.
        let all = [header] + rows.sorted { $0[0] != $1[0] ? $0[0].compare(numeric: $1[0]) : $0[5] > $1[5] }
        let widths = (0..<header.count - 1).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, text in
                column < widths.count ? text + String(repeating: " ", count: max(0, widths[column] + 2 - text.count)) : text
            }.joined()
        }
    }
}

private extension String {
    /// "event2" before "event10".
    func compare(numeric other: String) -> Bool {
        let a = split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let b = other.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        return a != b ? a.lexicographicallyPrecedes(b) : self < other
    }
}
