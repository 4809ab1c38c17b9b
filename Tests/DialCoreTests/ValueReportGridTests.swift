import Testing
@testable import DialCore

/// A value that enters from outside (a state topic, `set <path> value`, Home Assistant's number)
/// lands on the dial's step grid inside its range, as a turn would reach it.
@Suite struct ValueReportGridTests {
    let settings = ValueSettings(minimum: 0, maximum: 100, step: 5)

    func shown(after report: Double) -> (Double, [ValueSetpoint.Output]) {
        var setpoint = ValueSetpoint(settings: settings, initial: 50)
        let out = setpoint.report(report, at: 1)
        return (setpoint.shown, out)
    }

    @Test func offGridValuesSnapToTheNearestStep() {
        #expect(shown(after: 37).0 == 35)
        #expect(shown(after: 38).0 == 40)
        #expect(shown(after: 37).1 == [.external(35)])
        #expect(shown(after: 1e-320).0 == 0)
        #expect(shown(after: -1e-320).0 == 0)
    }

    @Test func valuesOutsideTheRangeAreClampedAndSaidSo() {
        #expect(shown(after: 1e308) == (100, [.clamped(reported: 1e308, to: 100), .external(100)]))
        #expect(shown(after: -1e308) == (0, [.clamped(reported: -1e308, to: 0), .external(0)]))
        #expect(shown(after: .greatestFiniteMagnitude).0 == 100)
        #expect(shown(after: .nan).1.isEmpty)
    }

    @Test func snappingNeverOverflows() {
        let fine = ValueSettings(minimum: -1e300, maximum: 1e300, step: 1e-300)
        #expect(fine.snapped(1e308).isFinite)
        #expect(fine.snapped(-1e308) == -1e300)
    }
}
