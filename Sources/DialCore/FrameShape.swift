import KioskSeams
import RealModule

/// Where the dial may draw on a frame, and the bands around it the title and the hint take.
extension DialGeometry {
    /// How far from the centre any frame of the dial may draw: the ring radius with the show
    /// animation's overshoot (items fly up to 10% past their place), plus the largest disc
    /// (`maxScale`) with its soft shadow (about a third of its radius) and its selection ring.
    public func reach(maxScale: Double) -> Double {
        ringRadius * DialGeometry.overshoot + itemRadius * maxScale * DialGeometry.discExtent + DialGeometry.ringPixels
    }

    /// The back-out ease's farthest travel, as a fraction of the ring radius (1.0998 with the
    /// classic overshoot), rounded up.
    static let overshoot = 1.1
    /// A disc's drawn radius with its shadow (blur 0.22 and drop 0.12 of its radius).
    static let discExtent = 1.34
    /// The selection ring's gap and width and a pixel of antialiasing.
    static let ringPixels = 6.0

    /// The margin a round panel keeps between its edge and anything drawn, as a fraction of its
    /// inscribed circle's radius.
    public static let roundMargin = 0.045

    /// The geometry on a round panel: every frame of a spin and of the show and hide animations
    /// (`reach`) stays inside the inscribed circle of a `width` x `height` frame, `roundMargin`
    /// of its radius away from its edge; neighbours at rest do not touch, as in `fitting`.
    public static func fittingRound(width: Int, height: Int, count: Int, maxScale: Double = 1.33) -> DialGeometry {
        let w = Double(width), h = Double(height)
        let radius = min(w, h) / 2
        let n = Double(max(count, 3))
        let spacing = Double.sin(Double.pi / n) / 1.15
        let allowed = radius * (1 - roundMargin) - ringPixels
        // reach = R * overshoot + R * spacing * maxScale * discExtent + ringPixels <= allowed
        let ring = allowed / (overshoot + maxScale * discExtent * spacing)
        let item = min(ring * spacing, radius * 0.2)
        return DialGeometry(center: Point(x: w / 2, y: h / 2), ringRadius: ring,
                            itemRadius: item, hubRadius: max(ring - item * maxScale - 6, ring * 0.35))
    }

    /// The geometry for a panel of `shape`.
    public static func fitting(width: Int, height: Int, count: Int, maxScale: Double = 1.33, shape: DisplayShape) -> DialGeometry {
        switch shape {
        case .rectangle: return fitting(width: width, height: height, count: count, maxScale: maxScale)
        case .round: return fittingRound(width: width, height: height, count: count, maxScale: maxScale)
        }
    }
}

/// The free bands above and below the dial, where the title and the hint go.
public struct DialBands: Sendable, Equatable {
    /// Rows above the dial's reach: `0 ..< top`.
    public var top: Int
    /// Rows below it: `bottom ..< height`.
    public var bottom: Int
    public var width: Int
    public var height: Int

    public init(geometry g: DialGeometry, maxScale: Double, width: Int, height: Int) {
        let reach = g.reach(maxScale: maxScale)
        top = max(0, Int((g.center.y - reach).rounded(.down)))
        bottom = min(height, Int((g.center.y + reach).rounded(.up)))
        self.width = width
        self.height = height
    }

    /// The text size of the title and the hint on this frame: a twentieth of its short side,
    /// not below `minimum`.
    public static func textPixels(width: Int, height: Int, minimum: Double = 12) -> Double {
        max(minimum, Double(min(width, height)) * 0.05)
    }

    /// Whether a band of `rows` holds a line of `pixels` text: one and a half lines at least.
    public static func fits(rows: Int, pixels: Double) -> Bool { Double(rows) >= 1.5 * pixels }

    public var topRows: Int { top }
    public var bottomRows: Int { height - bottom }
}

/// A round panel's visible area: its inscribed circle.
public struct RoundFrame: Sendable, Equatable {
    public var center: Point
    public var radius: Double

    public init(width: Int, height: Int) {
        center = Point(x: Double(width) / 2, y: Double(height) / 2)
        radius = Double(min(width, height)) / 2
    }

    /// Whether `p` is on the glass (inside the circle).
    public func contains(_ p: Point) -> Bool {
        let dx = p.x - center.x, dy = p.y - center.y
        return dx * dx + dy * dy <= radius * radius
    }
}
