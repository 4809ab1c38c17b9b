import DialCore
import KioskSeams
import KioskLoop

/// `simulate`'s dial: the configured `MenuDial` (or any dial the loop drives), whose events are handed to `report` with the
/// frames queued so far as they happen, instead of back to the loop (which would log them).
final class ReportingDial: DialDriving {
    let dial: DialDriving
    private let report: ([DialEvent]) throws -> Void
    /// The first error `report` threw (a closed standard output); the run stops at the next turn.
    private(set) var failure: Error?

    init(_ dial: DialDriving, report: @escaping ([DialEvent]) throws -> Void) {
        self.dial = dial
        self.report = report
    }

    private func pass(_ events: [DialEvent]) -> [DialEvent] {
        guard failure == nil, !events.isEmpty else { return [] }
        do { try report(events) } catch { failure = error }
        return []
    }

    func handle(_ event: InputEvent) -> [DialEvent] { pass(dial.handle(event)) }
    func advance(to time: Double) -> [DialEvent] { pass(dial.advance(to: time)) }
    var needsFrame: Bool { dial.needsFrame }
    var pose: DialPose { dial.pose }
    var selectedIndex: Int? { dial.selectedIndex }
    var selectedPath: MenuPath? { dial.selectedPath }
    func returnToTop(at time: Double) -> [DialEvent] { pass(dial.returnToTop(at: time)) }
    func select(path: MenuPath, at time: Double) -> [DialEvent]? { dial.select(path: path, at: time).map(pass) }
    func setShown(_ shown: Bool, at time: Double) { dial.setShown(shown, at: time) }
    var valueDeadline: Double? { dial.valueDeadline }
    func advanceValues(to time: Double) -> [DialEvent] { pass(dial.advanceValues(to: time)) }
}
