import ArgumentParser
import DialCore
import TouchInput
#if canImport(Glibc)
import Glibc
#endif

/// The input options `run` and `list-inputs --watch` share: which seat, and the touch calibration.
struct TouchInputOptions: ParsableArguments {
    @Option(help: "The udev seat whose touchscreens, mice, wheels and keyboards to use.")
    var seat = "seat0"

    // Unconditional: a matrix often starts with a minus ("-1 0 1 0 -1 1"), which is not an option.
    @Option(name: .customLong("touch-calibration"), parsing: .unconditional, help: ArgumentHelp(
        "libinput calibration matrix for digitizers mounted differently from the panel, e.g. \"0 -1 1 1 0 0\" for a quarter turn clockwise (applied on top of --rotate).",
        valueName: "a b c d e f"))
    var touchCalibration: String?

    func validate() throws {
        guard !seat.isEmpty, !seat.contains(where: { $0.isWhitespace }) else {
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

    /// A libinput source on the seat for a panel of `panelWidth` x `panelHeight` scanout pixels
    /// turned by `rotation`. Log lines at `minimum` and above go to stderr.
    func makeSource(panelWidth: Int, panelHeight: Int, rotation: DisplayRotation,
                    minimum: InputLogLevel = .info) throws -> LibinputInputSource {
        let transform = ScreenTransform(panelWidth: panelWidth, panelHeight: panelHeight, rotation: rotation)
        return try LibinputInputSource(seat: seat, transform: transform, calibration: calibration) { level, line in
            guard level >= minimum else { return }
            fputs("dialkiosk: \(line)\n", stderr)
        }
    }
}
