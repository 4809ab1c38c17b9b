import DialCore
import KioskSeams

/// Damage: what changed between frames, as disjoint rectangles, and which of it a scanout
/// buffer of a given age has not seen yet (buffer age, as in EGL_EXT_buffer_age and wlroots'
/// damage ring).
public enum Damage {
    /// The union of `rects`, clipped to a `width` x `height` frame, as disjoint rectangles:
    /// horizontal bands between consecutive top/bottom edges, each split into the runs of x
    /// it covers, with equal neighbouring bands merged (pixman's banded region). Copying the
    /// result writes every covered pixel exactly once, however much the inputs overlap.
    public static func union(_ rects: [PixelRect], width: Int, height: Int) -> [PixelRect] {
        // A rectangle inside another one adds band edges and no pixel: among a few, each is kept
        // only when no kept one holds it, and drops those it holds. Among many (a buffer's age
        // worth of a painter's frames) that search is quadratic and is left out: a rectangle
        // twice, or one inside another, costs the sweep a few band edges, never a pixel.
        var pending: [PixelRect] = []
        pending.reserveCapacity(rects.count)
        let few = rects.count <= 32
        for rect in rects {
            let r = rect.clipped(width: width, height: height)
            guard !r.isEmpty else { continue }
            if few {
                guard !pending.contains(where: { $0.holds(r) }) else { continue }
                if pending.contains(where: { r.holds($0) }) { pending.removeAll { r.holds($0) } }
            }
            pending.append(r)
        }
        guard pending.count > 1 else { return pending }
        pending.sort { $0.y0 < $1.y0 }
        // Edges appended in place: one allocation, not one per rectangle (the union runs twice
        // a frame on a few hundred rectangles).
        var ys: [Int] = []
        ys.reserveCapacity(2 * pending.count)
        for r in pending {
            ys.append(r.y0)
            ys.append(r.y1)
        }
        ys.sort()
        var out: [PixelRect] = []
        // Rectangles of the previous band, still open downwards; the inputs crossing the band,
        // kept in x order; the next input to enter.
        var open: [PixelRect] = []
        var active: [PixelRect] = []
        active.reserveCapacity(pending.count)
        var next = 0
        var runs: [(Int, Int)] = []
        var top = ys[0]
        for bottom in ys.dropFirst() where bottom > top {
            active.removeAll { $0.y1 <= top }
            while next < pending.count && pending[next].y0 <= top {
                let r = pending[next]
                active.insert(r, at: active.firstIndex { $0.x0 > r.x0 } ?? active.count)
                next += 1
            }
            runs.removeAll(keepingCapacity: true)
            for r in active {
                if let last = runs.last, r.x0 <= last.1 {
                    runs[runs.count - 1].1 = max(last.1, r.x1)
                } else {
                    runs.append((r.x0, r.x1))
                }
            }
            if runs.count == open.count && open.first?.y1 == top
                && zip(runs, open).allSatisfy({ $0.0.0 == $0.1.x0 && $0.0.1 == $0.1.x1 }) {
                for i in open.indices { open[i].y1 = bottom }
            } else {
                out += open
                open.removeAll(keepingCapacity: true)
                for (x0, x1) in runs { open.append(PixelRect(x0: x0, y0: top, x1: x1, y1: bottom)) }
            }
            top = bottom
        }
        return out + open
    }

    /// Pixels covered by disjoint `rects` (a `union` result).
    public static func area(_ rects: [PixelRect]) -> Int { rects.reduce(0) { $0 + $1.area } }
}

/// The damage of the frames painted most recently, numbered by the presenter
/// (`FrameTarget.frameNumber`), so a buffer of age `a` gets the union of the last `a` frames'
/// damage. A frame the history did not see (painted by someone else: the dim or blank frame,
/// another painter before a reload) counts as a whole-frame change.
public struct DamageHistory {
    /// Frames kept: enough for triple buffering and one frame of slack.
    public static let depth = 4
    private var frames: [(number: Int, damage: [PixelRect]?)] = []

    public init() {}

    /// Notes frame `number`'s damage (nil: all of it).
    public mutating func record(_ number: Int, damage: [PixelRect]?) {
        frames.removeAll { $0.number >= number }
        frames.append((number, damage))
        if frames.count > Self.depth { frames.removeFirst(frames.count - Self.depth) }
    }

    /// What a buffer that holds frame `number - age` lacks to show frame `number`: the union of
    /// frames `number - age + 1 ... number`, clipped to `width` x `height`; nil (copy all of it)
    /// when the age is unknown or any of those frames is not in the history.
    public func damage(frame number: Int, age: Int?, width: Int, height: Int) -> [PixelRect]? {
        guard let age, age >= 1 else { return nil }
        var rects: [PixelRect] = []
        for n in (number - age + 1)...number {
            guard let entry = frames.first(where: { $0.number == n }), let d = entry.damage else { return nil }
            rects += d
        }
        return Damage.union(rects, width: width, height: height)
    }
}

private extension PixelRect {
    /// True when every pixel of `r` is inside this rectangle.
    func holds(_ r: PixelRect) -> Bool { x0 <= r.x0 && y0 <= r.y0 && r.x1 <= x1 && r.y1 <= y1 }
}

extension DisplayRotation {
    /// Where the logical rectangle `r` of a `width` x `height` logical frame lands on the panel
    /// (the copy's mapping, `panelPixel`, applied to its corners).
    public func panelRect(_ r: PixelRect, logicalWidth width: Int, logicalHeight height: Int) -> PixelRect {
        switch self {
        case .none: return r
        case .quarter: return PixelRect(x0: height - r.y1, y0: r.x0, x1: height - r.y0, y1: r.x1)
        case .half: return PixelRect(x0: width - r.x1, y0: height - r.y1, x1: width - r.x0, y1: height - r.y0)
        case .threeQuarters: return PixelRect(x0: r.y0, y0: width - r.x1, x1: r.y1, y1: width - r.x0)
        }
    }
}
