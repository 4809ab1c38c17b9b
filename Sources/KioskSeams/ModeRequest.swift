/// A display mode or a frame size as text: `WxH` or `WxH@Hz` (`1920x1080`, `800x480@59.94`).
/// The one parser of that form, for `run --mode`, the configuration's `display.mode` and the
/// `--size` of `render`, `simulate`, `bench` and `list-inputs`.
public struct ModeRequest: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Vertical refresh in Hz; nil takes the connector's preferred (or highest) rate at that size.
    public var refreshHz: Double?

    /// Widths and heights a mode or frame may have: no panel is smaller than 16 pixels, and
    /// 16384 is past every scanout limit while width * height * 4 stays far inside Int.
    public static let sides = 16...16384
    /// Refresh rates in Hz, exclusive at both ends.
    public static let rates = 0.0...1000.0

    public init(width: Int, height: Int, refreshHz: Double? = nil) {
        self.width = width
        self.height = height
        self.refreshHz = refreshHz
    }

    /// Parses `WxH` (the `x` in either case) or, with `allowingRate`, `WxH@Hz`. Digits only: no
    /// signs, spaces, hex or exponents.
    public init(parsing text: String, allowingRate: Bool = true) throws(ModeTextError) {
        func failure(_ problem: ModeTextError.Problem) -> ModeTextError {
            ModeTextError(text: text, problem: problem, allowsRate: allowingRate)
        }
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let size = parts[0].split(omittingEmptySubsequences: false, whereSeparator: { $0 == "x" || $0 == "X" })
            .map(String.init)
        guard size.count == 2, let width = Self.digits(size[0]), let height = Self.digits(size[1]) else { throw failure(.notWxH) }
        guard Self.sides.contains(width), Self.sides.contains(height) else { throw failure(.size) }
        guard parts.count == 2 else {
            self.init(width: width, height: height)
            return
        }
        guard allowingRate, let hz = Self.decimal(String(parts[1])) else { throw failure(.notWxH) }
        guard hz > Self.rates.lowerBound, hz < Self.rates.upperBound else { throw failure(.rate) }
        self.init(width: width, height: height, refreshHz: hz)
    }

    /// "1920x1080", "1920x1080@60", "1920x1080@59.94".
    public var description: String {
        refreshHz.map { "\(width)x\(height)@\(fixed($0, 3, trimmed: true))" } ?? "\(width)x\(height)"
    }

    /// A run of ASCII digits; Int.max when it overflows, so the range check words it.
    private static func digits(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(text) ?? Int.max
    }

    /// `60` or `59.94`: digits, at most one dot with digits on both sides.
    private static func decimal(_ text: String) -> Double? {
        let halves = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard halves.allSatisfy({ digits($0) != nil }) else { return nil }
        return Double(text)
    }
}

/// Text that is not a mode (or, where no rate is allowed, a frame size), worded for any caller:
/// the configuration prefixes file, line and key, the command line the option.
public struct ModeTextError: Error, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        /// Not digits `x` digits (`@` digits), or a rate where none is allowed.
        case notWxH
        /// A side outside `ModeRequest.sides`.
        case size
        /// A rate outside `ModeRequest.rates`.
        case rate
    }

    public var text: String
    public var problem: Problem
    public var allowsRate: Bool

    public init(text: String, problem: Problem, allowsRate: Bool) {
        self.text = text
        self.problem = problem
        self.allowsRate = allowsRate
    }

    public var description: String {
        let form = allowsRate ? "WxH or WxH@Hz (like 1280x800@60)" : "WxH (like 800x480)"
        let sides = ModeRequest.sides, rates = ModeRequest.rates
        switch problem {
        case .notWxH: return "expected \(form), got '\(text)'"
        case .size: return "expected \(form) with width and height from \(sides.lowerBound) to \(sides.upperBound), got '\(text)'"
        case .rate: return "expected \(form) with a rate above \(Int(rates.lowerBound)) and below \(Int(rates.upperBound)) Hz, got '\(text)'"
        }
    }
}
