import DialCore

/// What a painter's caches may hold, sized by `DialPainter.prepare` to the frame and to the
/// work: every disc sprite, label and selection ring one ring needs to spin without building
/// anything inside a frame, within a ceiling that grows with the frame.
///
/// The ceiling is half a frame's bytes, at least 5 MiB. A 1920x1080 kiosk keeps what it had
/// with fixed bounds (`DialPainter.CacheBounds`); a 3840x2160 one, whose discs have twice the
/// radius (four times the bytes per sprite, twice the sizes a spin shows), gets four times as
/// much, so it spins without building inside a frame either, while its memory stays within the
/// goal docs/measurements-4k.md checks.
public struct CacheBudget: Sendable, Equatable, CustomStringConvertible {
    /// Bytes sprites, labels and selection rings may hold together.
    public var ceiling: Int
    /// Bytes of disc sprites, and the radius step between two of them, in pixels.
    public var sprites: Int
    public var spriteStep: Double
    /// Bytes of item labels, and the radius step between two label sizes, in pixels.
    public var labels: Int
    public var labelStep: Double
    /// Bytes of selection rings and of icons at drawn sizes.
    public var rings: Int
    public var icons: Int

    /// The ceiling for a `width` x `height` frame.
    public static func ceiling(width: Int, height: Int) -> Int {
        max(5 << 20, width * height * 4 / 2)
    }

    /// The part of the ceiling the sprites may take: disc edges show a coarser step more than
    /// labels do, so they choose first.
    static let spriteShare = 0.65

    /// The finest step (quarter pixels: 1, 2, 4, 8) whose sprites fit in `share` bytes, by
    /// `estimate(step)`; the coarsest when none does.
    static func spriteStep(share: Int, estimate: (Int) -> Int) -> Int {
        [1, 2, 4].first { estimate($0) <= share } ?? 8
    }

    public var description: String {
        func mib(_ b: Int) -> String {
            let tenths = (b * 10 + (1 << 19)) >> 20
            return "\(tenths / 10).\(tenths % 10) MiB"
        }
        return "ceiling \(mib(ceiling)): sprites \(mib(sprites)) (a sprite every \(spriteStep) px of radius), "
            + "labels \(mib(labels)) (a size every \(labelStep) px), selection rings \(mib(rings)), icons \(mib(icons))"
    }
}
