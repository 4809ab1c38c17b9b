import Testing
@testable import KioskSeams
@testable import TouchInput

@Suite struct ScreenTransformTests {
    /// A touch in the middle of a panel pixel lands in the middle of the logical pixel the
    /// scanout copy put there: the touch transform inverts DialCore's copy mapping.
    @Test(arguments: DisplayRotation.allCases)
    func touchInvertsTheCopy(rotation: DisplayRotation) {
        let transform = ScreenTransform(panelWidth: 800, panelHeight: 480, rotation: rotation)
        let logical = transform.logicalSize
        for (x, y) in [(0, 0), (17, 3), (logical.width - 1, 0), (5, logical.height - 1), (logical.width - 1, logical.height - 1)] {
            let panel = rotation.panelPixel(x: x, y: y, logicalWidth: logical.width, logicalHeight: logical.height)
            let p = transform.logical(x: Double(panel.x) + 0.5, y: Double(panel.y) + 0.5)
            #expect(p == Point(x: Double(x) + 0.5, y: Double(y) + 0.5), "\(rotation) pixel (\(x), \(y))")
        }
    }

    @Test func quarterTurnSwapsTheLogicalSize() {
        let transform = ScreenTransform(panelWidth: 800, panelHeight: 480, rotation: .quarter)
        #expect(transform.logicalSize == (480, 800))
        // The panel's top-right corner is the logical top-left corner when the picture is turned
        // 90 degrees clockwise.
        #expect(transform.logical(x: 800, y: 0) == Point(x: 0, y: 0))
    }

    @Test func clampingKeepsAPointOnScreen() {
        let transform = ScreenTransform(panelWidth: 800, panelHeight: 480)
        #expect(transform.clampedToLogical(Point(x: -5, y: 900)) == Point(x: 0, y: 479))
        #expect(transform.clampedToLogical(Point(x: 400, y: 240)) == Point(x: 400, y: 240))
    }
}
