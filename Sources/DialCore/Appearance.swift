import KioskSeams
import RealModule

/// How big an item is drawn by its angular distance from 12 o'clock (seed 000's inflate
/// behaviour, made smooth): `maxScale` at the top, `minScale` from `reach` radians away on.
public struct Inflate: Sendable, Equatable {
    public var minScale: Double
    public var maxScale: Double
    /// Angular distance at which an item has shrunk to `minScale`.
    public var reach: Double

    public init(minScale: Double = 0.66, maxScale: Double = 1.33, reach: Double = 2 * Double.pi / 5) {
        self.minScale = minScale
        self.maxScale = maxScale
        self.reach = reach
    }

    /// Scale for an item at screen angle `angle`.
    public func scale(atAngle angle: Double) -> Double {
        let d = abs(Angle.delta(from: Angle.top, to: angle))
        let t = max(0, min(1, 1 - d / reach))
        let smooth = t * t * (3 - 2 * t)
        return minScale + (maxScale - minScale) * smooth
    }
}

/// The show/hide animation (seeds 000 and 002): on show, items fly out from the hub one after
/// another with an overshoot and a fade-in; on hide they return in reverse order and fade out.
/// Everything is a pure function of time since the animation began.
public struct RevealAnimation: Sendable, Equatable {
    /// Time one item takes to travel (seed 002's `speed`).
    public var itemDuration: Double
    /// Delay between the first and the last item's start (seed 002 staggers by speed * i / N).
    public var stagger: Double
    /// Overshoot strength of the back-out ease (1.70158 is the classic 10 % overshoot).
    public var overshoot: Double

    public init(itemDuration: Double = 0.3, stagger: Double = 0.15, overshoot: Double = 1.70158) {
        self.itemDuration = itemDuration
        self.stagger = stagger
        self.overshoot = overshoot
    }

    /// Total time until the last item has arrived.
    public var totalDuration: Double { itemDuration + stagger }

    /// Item `i`'s own progress 0...1 at `elapsed` seconds into a show (`showing` true) or hide.
    public func progress(item i: Int, count: Int, elapsed: Double, showing: Bool) -> Double {
        let n = Double(max(count, 1))
        let order = showing ? Double(i) / n : 1 - Double(i + 1) / n
        let local = (elapsed - stagger * order) / itemDuration
        let p = max(0, min(1, local))
        return showing ? p : 1 - p
    }

    /// For an item at progress `p` (0 = in the hub, invisible; 1 = in place): the fraction of the
    /// ring radius it has travelled (overshooting past 1 on the way) and its opacity.
    public func pose(progress p: Double) -> (radial: Double, alpha: Double) {
        guard p > 0 else { return (0, 0) }
        guard p < 1 else { return (1, 1) }
        let s = overshoot
        let q = p - 1
        let radial = 1 + (s + 1) * q * q * q + s * q * q
        let alpha = min(1, p * 2)
        return (radial, alpha)
    }
}

/// Whether the menu is shown, hidden, or on the way, with the time the change began.
public enum Visibility: Sendable, Equatable {
    case shown
    case hidden
    case showing(since: Double)
    case hiding(since: Double)

    public var isAnimating: Bool {
        switch self {
        case .showing, .hiding: return true
        case .shown, .hidden: return false
        }
    }
}

/// Builds what a painter needs for one frame from the ring's state.
public struct PoseBuilder: Sendable, Equatable {
    public var layout: DialLayout
    public var geometry: DialGeometry
    public var inflate: Inflate
    public var reveal: RevealAnimation

    public init(layout: DialLayout, geometry: DialGeometry, inflate: Inflate = Inflate(),
                reveal: RevealAnimation = RevealAnimation()) {
        self.layout = layout
        self.geometry = geometry
        self.inflate = inflate
        self.reveal = reveal
    }

    /// The pose at `time` for a ring turned by `rotation`.
    public func pose(rotation: Double, visibility: Visibility, time: Double) -> DialPose {
        let n = layout.count
        var items: [ItemPose] = []
        items.reserveCapacity(n)
        var overall = 1.0
        for i in 0..<n {
            let p: Double
            switch visibility {
            case .shown: p = 1
            case .hidden: p = 0
            case .showing(let since): p = reveal.progress(item: i, count: n, elapsed: time - since, showing: true)
            case .hiding(let since): p = reveal.progress(item: i, count: n, elapsed: time - since, showing: false)
            }
            let (radial, alpha) = reveal.pose(progress: p)
            let a = layout.angle(of: i, rotation: rotation)
            let r = geometry.ringRadius * radial
            let c = Point(x: geometry.center.x + r * .cos(a), y: geometry.center.y + r * .sin(a))
            let scale = inflate.scale(atAngle: a) * (0.4 + 0.6 * min(1, max(0, p)))
            items.append(ItemPose(center: c, scale: scale, alpha: alpha))
            overall = min(overall, p)
        }
        switch visibility {
        case .shown: overall = 1
        case .hidden: overall = 0
        default: break
        }
        return DialPose(geometry: geometry, items: items, selected: layout.selectedIndex(rotation: rotation),
                        rotation: rotation, visibility: overall)
    }
}
