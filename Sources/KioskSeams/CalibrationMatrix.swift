/// libinput's touch calibration: a 2x3 affine matrix on normalized device coordinates
/// (0...1 on both axes), x' = a x + b y + c, y' = d x + e y + f. For digitizers mounted
/// differently from the panel; the display rotation is separate (ScreenTransform). The
/// configuration's `input.calibration` and `--touch-calibration` both parse into it, and
/// TouchInput hands its values to libinput_device_config_calibration_set_matrix.
public struct CalibrationMatrix: Sendable, Equatable, CustomStringConvertible {
    /// a b c d e f, in libinput_device_config_calibration_set_matrix's order.
    public var values: [Float]

    public static let identity = CalibrationMatrix(1, 0, 0, 0, 1, 0)

    /// The digitizer turned 90/180/270 degrees clockwise relative to the panel (the matrices
    /// libinput's documentation gives for rotated touchscreens).
    public static func turned(_ rotation: DisplayRotation) -> CalibrationMatrix {
        switch rotation {
        case .none: return identity
        case .quarter: return CalibrationMatrix(0, -1, 1, 1, 0, 0)
        case .half: return CalibrationMatrix(-1, 0, 1, 0, -1, 1)
        case .threeQuarters: return CalibrationMatrix(0, 1, 0, -1, 0, 1)
        }
    }

    public init(_ a: Float, _ b: Float, _ c: Float, _ d: Float, _ e: Float, _ f: Float) {
        values = [a, b, c, d, e, f]
    }

    /// Six finite numbers separated by spaces (or commas), e.g. "0 -1 1 1 0 0".
    public init(parsing text: String) throws(CalibrationError) {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
        guard fields.count == 6 else { throw .wrongCount(text: text, count: fields.count) }
        var values: [Float] = []
        for (index, field) in fields.enumerated() {
            guard let value = Float(field), value.isFinite else {
                throw .notANumber(text: text, position: index + 1, field: field)
            }
            values.append(value)
        }
        self.values = values
    }

    public var isIdentity: Bool { self == .identity }

    /// Where the normalized point (x, y) lands: what libinput does with each touch.
    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        let v = values.map(Double.init)
        return (v[0] * x + v[1] * y + v[2], v[3] * x + v[4] * y + v[5])
    }

    public var description: String { values.map { fixed(Double($0), 6, trimmed: true) }.joined(separator: " ") }
}

/// A calibration string that is not six numbers.
public enum CalibrationError: Error, Equatable, CustomStringConvertible {
    case wrongCount(text: String, count: Int)
    case notANumber(text: String, position: Int, field: String)

    public var description: String {
        switch self {
        case let .wrongCount(text, count):
            return "touch calibration \"\(text)\": expected 6 numbers \"a b c d e f\", found \(count)"
        case let .notANumber(text, position, field):
            return "touch calibration \"\(text)\": number \(position) \"\(field)\" is not a finite number"
        }
    }
}
