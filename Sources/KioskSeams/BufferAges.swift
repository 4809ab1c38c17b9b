/// Buffer age bookkeeping for a presenter with several buffers: numbers the frames as they are
/// painted and remembers which frame each buffer holds, so `FrameTarget.age` can say how old a
/// buffer's contents are.
public struct BufferAges: Sendable {
    /// Frames painted so far (the number of the last one).
    public private(set) var framesPainted = 0
    private var held: [Int?]

    /// `count` buffers of unknown contents.
    public init(count: Int) {
        held = Array(repeating: nil, count: count)
    }

    /// Numbers the next frame and gives `target` (buffer `index`) its age. Until `painted` is
    /// called the buffer's contents are unknown (a paint that throws may leave them half written).
    public mutating func next(_ target: FrameTarget, buffer index: Int) -> FrameTarget {
        framesPainted += 1
        var t = target
        t.frameNumber = framesPainted
        t.age = held[index].map { framesPainted - $0 }
        held[index] = nil
        return t
    }

    /// Buffer `index` now holds the frame numbered last.
    public mutating func painted(buffer index: Int) {
        held[index] = framesPainted
    }

    /// Writes the picture just painted into buffer `index` into every other buffer whose
    /// contents are unknown (new buffers: the first frame after they were made), each with a
    /// frame number of its own, so that no later frame of a spin has to copy a whole frame
    /// into a buffer it meets for the first time (33 MB at 3840x2160, in the frame a touch
    /// asked for). `paint` is the present's own, called again with the
    /// same pose: every pixel is written, as for any buffer of unknown age. `target` gives a
    /// buffer's target, nil for one that must not be written now (on screen); a paint that
    /// throws leaves its buffer unknown, as before.
    public mutating func prime(besides index: Int, target: (Int) -> FrameTarget?,
                               paint: (FrameTarget) throws -> [PixelRect]?) {
        for other in held.indices where other != index && held[other] == nil {
            guard let t = target(other) else { continue }
            do {
                _ = try paint(next(t, buffer: other))
                painted(buffer: other)
            } catch {
                continue
            }
        }
    }
}
