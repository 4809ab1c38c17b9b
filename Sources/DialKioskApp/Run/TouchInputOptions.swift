import ArgumentParser
import DialCore
import KioskSeams
import TouchInput
import KioskReporting
import KioskConfiguration

/// The input options `run` and `list-inputs --watch` share: which seat, and the touch calibration.
struct TouchInputOptions: ParsableArguments {
    @Option(name: .customLong("seat"), help: "The udev seat whose touchscreens, mice, wheels and keyboards to use (default: the config's, else seat0).")
    var seatOption: String?

    /// The seat named on the command line, else seat0.
    var seat: String { seatOption ?? "seat0" }

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

    /// The matrix, nil when none was given (or it is the identity: nothing to set).
    var calibration: CalibrationMatrix? {
        guard let text = touchCalibration, let m = try? CalibrationMatrix(parsing: text), !m.isIdentity else { return nil }
        return m
    }

    /// The seat and matrix to use: the command line's where given, else the configuration's
    /// `input` section (whose own defaults are seat0 and no matrix).
    func resolved(with config: KioskConfig.Input) -> (seat: String, calibration: CalibrationMatrix?) {
        let matrix = touchCalibration != nil ? calibration : config.calibration.flatMap { $0.isIdentity ? nil : $0 }
        return (seatOption ?? config.seat, matrix)
    }

    /// A libinput source on the seat for a panel of `panelWidth` x `panelHeight` scanout pixels
    /// turned by `rotation`. Log lines at `minimum` and above go to stderr in `format` (with
    /// journal priorities under systemd), or through `logger` when one is given (`run`: its
    /// loop never waits on stderr).
    func makeSource(panelWidth: Int, panelHeight: Int, rotation: DisplayRotation,
                    config: KioskConfig.Input = KioskConfig.Input(),
                    format: LogFormat = LogFormat(journalPrefixes: false),
                    minimum: InputLogLevel = .info, logger: JournalLogger? = nil) throws -> LibinputInputSource {
        let transform = ScreenTransform(panelWidth: panelWidth, panelHeight: panelHeight, rotation: rotation)
        let (seat, calibration) = resolved(with: config)
        return try LibinputInputSource(seat: seat, transform: transform, calibration: calibration,
                                       wheelClick: config.wheelClick) { level, line in
            guard level >= minimum else { return }
            let priority: LogLevel = level >= .error ? .error : level >= .info ? .info : .debug
            if let logger {
                logger.log(priority, "dialkiosk: \(line)")
            } else {
                JournalLogger.writeToStandardError(format.format(priority, "dialkiosk: \(line)"))
            }
        }
    }
}
