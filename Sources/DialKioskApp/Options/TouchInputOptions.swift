import ArgumentParser
import DialCore
import KioskSeams
import TouchInput
import KioskReporting
import KioskConfiguration
import KioskRuntime

/// The input options `run` and `list-inputs --watch` share: which seat, and the touch calibration.
struct TouchInputOptions: ParsableArguments {
    @Option(name: .customLong("seat"), help: "The udev seat whose touchscreens, mice, wheels and keyboards to use (default: the config's, else seat0).")
    var seatOption: String?

    // Unconditional: a matrix often starts with a minus ("-1 0 1 0 -1 1"), which is not an option.
    @Option(name: .customLong("touch-calibration"), parsing: .unconditional, help: ArgumentHelp(
        "libinput calibration matrix for digitizers mounted differently from the panel, e.g. \"0 -1 1 1 0 0\" for a quarter turn clockwise (applied on top of --rotate).",
        valueName: "a b c d e f"))
    var touchCalibration: String?

    func validate() throws {
        if let seat = seatOption, seat.isEmpty || seat.contains(where: { $0.isWhitespace }) {
            throw ValidationError("--seat must be a seat name such as seat0, not \"\(seat)\"")
        }
        if let touchCalibration {
            do {
                _ = try CalibrationMatrix(parsing: touchCalibration)
            } catch {
                throw ValidationError("--touch-calibration: \(error.description)")
            }
        }
    }

    /// The options as the runtime takes them.
    var settings: InputSettings { InputSettings(seatOption: seatOption, touchCalibration: touchCalibration) }
    var seat: String { settings.seat }
    var calibration: CalibrationMatrix? { settings.calibration }
    func resolved(with config: KioskConfig.Input) -> (seat: String, calibration: CalibrationMatrix?) { settings.resolved(with: config) }

    func makeSource(panelWidth: Int, panelHeight: Int, rotation: DisplayRotation,
                    config: KioskConfig.Input = KioskConfig.Input(),
                    format: LogFormat = LogFormat(journalPrefixes: false),
                    minimum: InputLogLevel = .info, logger: JournalLogger? = nil) throws -> LibinputInputSource {
        try settings.makeSource(panelWidth: panelWidth, panelHeight: panelHeight, rotation: rotation, config: config,
                                format: format, minimum: minimum, logger: logger)
    }
}
