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
}
