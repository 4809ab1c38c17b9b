import ArgumentParser
import KioskConfiguration

/// `--items N` of run, simulate, render and bench: one range and one wording for all of them,
/// the configuration's own limit of items on a ring (a numbered demo menu is one ring).
enum ItemCount {
    static let range = 1...ConfigLimits.items
    /// The option's help text.
    static let help = "Show N numbered items instead of the demo menu (\(range.lowerBound) to \(range.upperBound))."

    /// Refuses an `--items` value outside `range` (a usage error, exit 64).
    static func validate(_ items: Int?) throws {
        guard let items, !range.contains(items) else { return }
        throw ValidationError("--items must be between \(range.lowerBound) and \(range.upperBound), got \(items)")
    }
}
