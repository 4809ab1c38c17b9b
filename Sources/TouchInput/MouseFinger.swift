import KioskSeams

/// A mouse whose left button held down acts as one finger. The position lives in the logical
/// frame, clamped to it, and starts at the centre; nothing draws it (a kiosk shows no cursor).
package struct MouseFinger: Sendable, Equatable {
    /// BTN_LEFT in linux/input-event-codes.h.
    package static let leftButton: UInt32 = 0x110

    package enum State: Sendable, Equatable {
        case hovering
        /// The left button is down: motion drags.
        case pressed
    }

    package private(set) var state: State = .hovering
    package private(set) var position: Point
    private let transform: ScreenTransform

    package init(transform: ScreenTransform) {
        self.transform = transform
        let size = transform.logicalSize
        position = Point(x: Double(size.width) / 2, y: Double(size.height) / 2)
    }

    /// What the finger does in response to one pointer record; nil when it does nothing
    /// (motion without the button, other buttons, a second press).
    package enum Action: Sendable, Equatable {
        case down(Point)
        case motion(Point)
        case up(Point)
    }

    /// Relative motion, in the logical frame (a person moves the mouse by what they see).
    package mutating func move(dx: Double, dy: Double) -> Action? {
        moveTo(Point(x: position.x + dx, y: position.y + dy))
    }

    /// Absolute motion in panel pixels: turned like a touch.
    package mutating func moveAbsolute(panelX: Double, panelY: Double) -> Action? {
        moveTo(transform.logical(x: panelX, y: panelY))
    }

    package mutating func button(_ code: UInt32, pressed: Bool) -> Action? {
        guard code == Self.leftButton else { return nil }
        switch (state, pressed) {
        case (.hovering, true):
            state = .pressed
            return .down(position)
        case (.pressed, false):
            state = .hovering
            return .up(position)
        default:
            return nil
        }
    }

    /// The device went away with the button held: the drag is over without a release.
    package mutating func reset() -> Bool {
        defer { state = .hovering }
        return state == .pressed
    }

    private mutating func moveTo(_ p: Point) -> Action? {
        let clamped = transform.clampedToLogical(p)
        guard clamped != position else { return nil }
        position = clamped
        return state == .pressed ? .motion(clamped) : nil
    }
}
