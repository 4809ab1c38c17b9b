import ArgumentParser
import DialCore
import KioskSeams

/// `--rotate DEG` of run, render, splash, bench and list-inputs: parsed into the rotation
/// itself, so a value other than 0, 90, 180 or 270 is refused by the parser with one wording
/// ("Please provide one of '0', '90', '180' or '270'") for every command.
extension DisplayRotation: ExpressibleByArgument {
    public init?(argument: String) {
        guard let degrees = Int(argument) else { return nil }
        self.init(degrees: degrees)
    }

    public static var allValueStrings: [String] { allCases.map { String($0.degrees) } }
    public var defaultValueDescription: String { String(degrees) }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }

    /// The option's help text; `default` says what an omitted `--rotate` means.
    static func help(default: String) -> ArgumentHelp {
        ArgumentHelp("Display rotation in degrees clockwise: 0, 90, 180 or 270 (default: \(`default`)).", valueName: "deg")
    }
}
