import ArgumentParser
import TouchInput
#if canImport(Glibc)
import Glibc
#endif

struct ListInputsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-inputs",
        abstract: "List input devices with their capabilities.",
        discussion: """
            Opens every device on the udev seat through libinput, as `run` does, and prints one \
            line per device: kernel name, capabilities (touch, pointer, keyboard), size in \
            millimetres when known, whether it accepts a calibration matrix, seat and name.
            """
    )

    @Option(help: "The udev seat whose devices to list (ID_SEAT; most systems have only seat0).")
    var seat = "seat0"

    @Flag(help: "Also print libinput's informational messages on stderr.")
    var verbose = false

    func validate() throws {
        guard !seat.isEmpty, !seat.contains(where: { $0.isWhitespace }) else {
            throw ValidationError("--seat must be a seat name such as seat0, not \"\(seat)\"")
        }
    }

    func run() throws {
        let verbose = verbose
        try reportingErrors {
            let devices = try listInputDevices(seat: seat) { level, line in
                guard verbose || level >= .error else { return }
                let text = "dialkiosk: \(line)\n"
                fputs(text, stderr)
            }
            guard !devices.isEmpty else {
                throw InputSystemError(.noDevices, operation: "no input devices on seat \(seat)", errno: 0)
            }
            for line in Self.table(devices) { print(line) }
        }
    }

    /// The listing as aligned text lines, a header first.
    static func table(_ devices: [InputDeviceInfo]) -> [String] {
        let header = ["DEVICE", "CAPABILITIES", "SIZE_MM", "CALIBRATION", "SEAT", "NAME"]
        let rows = devices.sorted { $0.sysname.compare(numeric: $1.sysname) }.map { d -> [String] in
            let size = d.sizeMillimetres.map { "\(format($0.width))x\(format($0.height))" } ?? "-"
            return [d.sysname, d.capabilities.names, size, d.acceptsCalibration ? "yes" : "no", d.seat, d.name]
        }
        let all = [header] + rows
        let widths = (0..<header.count - 1).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, text in
                column < widths.count ? text.padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0) : text
            }.joined()
        }
    }

    private static func format(_ mm: Double) -> String {
        let tenths = (mm * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
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
