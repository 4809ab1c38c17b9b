import Testing
import KioskSeams

/// The one rotation rule (`DisplayRotation.chosen`): `--rotate`, else a configured
/// `display.rotation` other than 0, else the panel's orientation, else upright.
@Suite struct RotationRuleTests {
    struct Row: Sendable, CustomStringConvertible {
        let option: DisplayRotation?
        let configured: DisplayRotation
        let panel: DisplayRotation?
        let chosen: DisplayRotation
        var description: String { "option \(option.map { "\($0.degrees)" } ?? "-"), configured \(configured.degrees), panel \(panel.map { "\($0.degrees)" } ?? "-")" }
    }

    static let table: [Row] = [
        // Nothing said: upright.
        Row(option: nil, configured: .none, panel: nil, chosen: .none),
        // The panel alone.
        Row(option: nil, configured: .none, panel: .threeQuarters, chosen: .threeQuarters),
        // The configuration over the panel; the virtual display (no panel) takes it too.
        Row(option: nil, configured: .quarter, panel: .half, chosen: .quarter),
        Row(option: nil, configured: .quarter, panel: nil, chosen: .quarter),
        // A configured 0 is unset: the panel still decides.
        Row(option: nil, configured: .none, panel: .half, chosen: .half),
        // The option over both, 0 included.
        Row(option: .half, configured: .quarter, panel: .threeQuarters, chosen: .half),
        Row(option: DisplayRotation.none, configured: .quarter, panel: .threeQuarters, chosen: .none),
        Row(option: .threeQuarters, configured: .none, panel: nil, chosen: .threeQuarters),
    ]

    @Test(arguments: table) func theRuleChoosesInOrder(_ row: Row) {
        #expect(DisplayRotation.chosen(option: row.option, configured: row.configured, panel: row.panel) == row.chosen,
                "\(row)")
    }
}
