import KioskSeams

/// How a built-in panel is mounted in its casing (the connector's "panel orientation" property).
public enum PanelOrientation: String, Sendable, Equatable, CaseIterable {
    case normal = "Normal"
    /// The panel's top edge is at the bottom of the casing.
    case upsideDown = "Upside Down"
    /// The panel's left edge is at the top of the casing.
    case leftSideUp = "Left Side Up"
    /// The panel's right edge is at the top of the casing.
    case rightSideUp = "Right Side Up"

    /// The rotation that shows the picture upright in the casing. With the panel's left edge at
    /// the top, the logical top row has to land on panel column 0, which is `threeQuarters`'
    /// mapping (x, y) -> (y, w - 1 - x); the right edge up is the mirror case.
    public var displayRotation: DisplayRotation {
        switch self {
        case .normal: return .none
        case .upsideDown: return .half
        case .leftSideUp: return .threeQuarters
        case .rightSideUp: return .quarter
        }
    }
}
