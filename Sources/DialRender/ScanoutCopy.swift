import DialCore
import KioskSeams

/// Copies a painter's frames into a presenter's scanout buffers, each only where it is out of
/// date (its age's worth of damage), and hands the frame's damage on in panel pixels.
public final class ScanoutCopy {
    /// How the logical frame is turned on the panel.
    public let rotation: DisplayRotation
    private var history = DamageHistory()
    private var lastFrame: Int?
    /// Pixels the last `copy` wrote into its target (for benchmarks).
    public private(set) var lastCopiedPixels = 0
    /// The disjoint logical rectangles the last `copy` wrote (nil: all of it), for benchmarks.
    public private(set) var lastCopiedRects: [PixelRect]?

    public init(rotation: DisplayRotation) {
        self.rotation = rotation
    }

    /// Copies `frame`, whose `damage` (logical, may overlap; nil: all) is what changed since the
    /// frame before, into `target`: where the target's age and the history allow, only the
    /// rectangles the target has not seen (made disjoint, each pixel written once); otherwise
    /// all of it. Returns the damage in panel pixels (nil: all; may overlap, as the kernel's
    /// damage clips may), what `FramePresenter.present`'s paint returns.
    public func copy(_ frame: PixelBuffer, damage: [PixelRect]?, to target: FrameTarget) -> [PixelRect]? {
        let w = frame.width, h = frame.height
        var rects: [PixelRect]?
        if let n = target.frameNumber {
            // `damage` is relative to the frame this copier saw last; when someone else painted
            // frames since (a dim or blank frame), what changed from the frame before is unknown.
            history.record(n, damage: lastFrame == n - 1 ? damage : nil)
            lastFrame = n
            rects = history.damage(frame: n, age: target.age, width: w, height: h)
        }
        DialRender.copy(frame, to: target, rotation: rotation, damage: rects)
        lastCopiedPixels = rects.map(Damage.area) ?? w * h
        lastCopiedRects = rects
        return damage.map { rects in
            rects.map { $0.clipped(width: w, height: h) }.filter { !$0.isEmpty }
                .map { rotation.panelRect($0, logicalWidth: w, logicalHeight: h) }
        }
    }
}
