/// Render late (Weston's repaint window, wlroots' max render time): after a flip event, the
/// next frame is not painted at once but as late as it can still make the next vblank, so that
/// input arriving meanwhile reaches that vblank instead of the one after it. Painting at once
/// shows a sample taken just after the flip event one period later than it needs to.
///
/// The start is the predicted next vblank (the flip's timestamp plus the mode's period) minus
/// the predicted paint time (the longest of the recent paints) minus a margin. Pure: the loop
/// records each paint's duration and asks when to start; `FrameSchedule` waits for it with a
/// poll() timeout.
public struct RenderLateSchedule: Sendable, Equatable {
    /// How many recent paints the prediction looks at: half a second at 60 Hz, so a slow frame
    /// (a new label shaped, a reload) keeps the start early for a while without holding it
    /// there for good.
    public static let historyLength = 30
    /// Between the planned start and the vblank beyond the predicted paint: poll() wakes up
    /// to a millisecond late (its timeout is whole milliseconds, rounded up so it never wakes
    /// early), the scheduler's wake-up delay on a loaded board comes on top, and the flip
    /// must reach the kernel before the vblank that latches it. Missing that vblank costs a
    /// whole period, far more than the margin does.
    public static let defaultMargin = 0.002

    public var margin: Double
    private var recent = RecentValues(capacity: RenderLateSchedule.historyLength)

    public init(margin: Double = RenderLateSchedule.defaultMargin) {
        self.margin = margin
    }

    /// One frame's paint time in seconds (from the start of painting until the flip is
    /// queued); a negative or non-finite value (a clock step) is dropped.
    public mutating func recordPaint(_ seconds: Double) {
        guard seconds.isFinite, seconds >= 0 else { return }
        recent.append(seconds)
    }

    /// The paint time to plan for: the longest of the recent paints; nil before the first.
    public var predictedPaint: Double? { recent.values.max() }

    /// When to start painting the frame after the one whose flip event said `flipTime`, or nil
    /// to paint at once: with no paint history, when the predicted paint and the margin fill
    /// the whole period (waiting would miss the next vblank for sure), or for a period that is
    /// not a positive number.
    public func paintStart(afterFlipAt flipTime: Double, refreshPeriod: Double) -> Double? {
        guard let paint = predictedPaint, refreshPeriod > 0, refreshPeriod.isFinite, flipTime.isFinite else {
            return nil
        }
        let lead = paint + margin
        guard lead < refreshPeriod else { return nil }
        return flipTime + refreshPeriod - lead
    }
}
