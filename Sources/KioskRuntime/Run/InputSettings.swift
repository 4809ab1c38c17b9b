import DialCore
import KioskSeams
import TouchInput
import KioskReporting
import KioskConfiguration

/// Where touches, mice, wheels and keys come from (`--seat`, `--touch-calibration`), as plain
/// values: the CLI's options map here, and `list-inputs` and `run` open libinput by them.
package struct InputSettings {
    /// `--seat`; nil: the configuration's, else seat0.
    package var seatOption: String?
    /// `--touch-calibration`, as given (checked by the CLI).
    package var touchCalibration: String?

    package init(seatOption: String? = nil, touchCalibration: String? = nil) {
        self.seatOption = seatOption
        self.touchCalibration = touchCalibration
    }

    package var seat: String { seatOption ?? "seat0" }

    /// The matrix given, nil when none or the identity.
    package var calibration: CalibrationMatrix? {
        guard let text = touchCalibration, let m = try? CalibrationMatrix(parsing: text), !m.isIdentity else { return nil }
        return m
    }

    /// The seat and matrix to use: each from the command line where given, else the configuration's.
    package func resolved(with config: KioskConfig.Input) -> (seat: String, calibration: CalibrationMatrix?) {
        let matrix = touchCalibration != nil ? calibration : config.calibration.flatMap { $0.isIdentity ? nil : $0 }
        return (seatOption ?? config.seat, matrix)
    }

    /// libinput on the resolved seat, its touches mapped onto a `panelWidth` x `panelHeight`
    /// panel turned by `rotation`; its log lines at `minimum` and above go to `logger` (or
    /// stderr in `format`).
    package func makeSource(panelWidth: Int, panelHeight: Int, rotation: DisplayRotation,
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
