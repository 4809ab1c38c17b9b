/// How the dial's frame is turned on the panel: the one source of truth for the copy into the
/// scanout buffer (DialRender) and for the touch transform (TouchInput), so they cannot disagree.
///
/// `quarter` turns the picture 90 degrees clockwise as seen on the panel. The dial is painted in
/// the logical frame (width x height as the person sees it); the panel has the scanout size.
public enum DisplayRotation: Int, Sendable, Equatable, CaseIterable {
    case none = 0
    case quarter = 90
    case half = 180
    case threeQuarters = 270

    /// The rotation given in degrees (0, 90, 180, 270), or nil.
    public init?(degrees: Int) { self.init(rawValue: degrees) }

    public var degrees: Int { rawValue }

    /// True when the logical frame's width and height are swapped on the panel.
    public var swapsAxes: Bool { self == .quarter || self == .threeQuarters }

    /// The logical frame size for a panel of `width` x `height`.
    public func logicalSize(panelWidth width: Int, panelHeight height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// Where the logical pixel (x, y) of a `width` x `height` logical frame lands on the panel
    /// (integer pixel indices; this is the copy's mapping).
    @inlinable
    public func panelPixel(x: Int, y: Int, logicalWidth width: Int, logicalHeight height: Int) -> (x: Int, y: Int) {
        switch self {
        case .none: return (x, y)
        case .quarter: return (height - 1 - y, x)
        case .half: return (width - 1 - x, height - 1 - y)
        case .threeQuarters: return (y, width - 1 - x)
        }
    }

    /// A continuous panel position (a touch, in panel pixels of a `panelWidth` x `panelHeight`
    /// panel) in logical frame coordinates: the inverse of the copy's mapping.
    public func logicalPoint(_ p: Point, panelWidth: Double, panelHeight: Double) -> Point {
        switch self {
        case .none: return p
        case .quarter: return Point(x: p.y, y: panelWidth - p.x)
        case .half: return Point(x: panelWidth - p.x, y: panelHeight - p.y)
        case .threeQuarters: return Point(x: panelHeight - p.y, y: p.x)
        }
    }
}

extension DisplayRotation {
    /// The rotation rule every command that paints a dial follows (run on KMS or the virtual
    /// display, render, splash, bench, preview, simulate): `--rotate` when given, else the
    /// configuration's `display.rotation` when it is not 0, else what the panel's orientation
    /// property asks for (a KMS connector's "panel orientation"; nil where there is no panel to
    /// ask), else upright. A configured 0 counts as unset, so a panel mounted turned still
    /// comes out upright without a configuration saying so; `--rotate 0` overrides both.
    public static func chosen(option: DisplayRotation?, configured: DisplayRotation,
                              panel: DisplayRotation?) -> DisplayRotation {
        option ?? (configured == .none ? nil : configured) ?? panel ?? .none
    }
}
