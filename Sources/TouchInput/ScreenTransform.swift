import KioskSeams

/// Panel pixels to the dial's logical pixels: the display rotation from DialCore (the same
/// mapping the scanout copy inverts, so touch and picture cannot disagree).
package struct ScreenTransform: Sendable, Equatable {
    /// The panel in scanout pixels (what libinput's *_transformed calls are asked to fill).
    package var panelWidth: Int
    package var panelHeight: Int
    package var rotation: DisplayRotation

    package init(panelWidth: Int, panelHeight: Int, rotation: DisplayRotation = .none) {
        self.panelWidth = panelWidth
        self.panelHeight = panelHeight
        self.rotation = rotation
    }

    /// The frame the dial is laid out in (width and height swapped for 90 and 270).
    package var logicalSize: (width: Int, height: Int) {
        rotation.logicalSize(panelWidth: panelWidth, panelHeight: panelHeight)
    }

    /// A panel position in logical frame coordinates.
    package func logical(x: Double, y: Double) -> Point {
        rotation.logicalPoint(Point(x: x, y: y), panelWidth: Double(panelWidth), panelHeight: Double(panelHeight))
    }

    /// `p` kept inside the logical frame (a mouse never leaves the screen).
    package func clampedToLogical(_ p: Point) -> Point {
        let size = logicalSize
        return Point(x: min(max(p.x, 0), Double(max(size.width - 1, 0))),
                     y: min(max(p.y, 0), Double(max(size.height - 1, 0))))
    }
}
