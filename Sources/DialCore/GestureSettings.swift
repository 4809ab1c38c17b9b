/// Thresholds that tell a tap from a drag and a real touch from noise.
public struct GestureSettings: Sendable, Equatable {
    /// A finger that moves less than this (pixels) and lifts within `tapTimeout` taps.
    public var tapSlop: Double
    public var tapTimeout: Double
    /// Radius of the no-rotation zone around the centre, as a fraction of the hub radius.
    public var deadZoneFraction: Double
    /// A timestamp this far (seconds) behind the last one is a new clock, not a late sample.
    public var clockResetThreshold: Double
    /// A dragging finger silent this long (seconds) lost its up: a new finger may take over.
    public var staleTouchTimeout: Double
    /// A finger held this long (seconds) on the hub without moving is a long press (back). 0.6 s
    /// is well past a tap (`tapTimeout`) yet short enough to answer a held finger before it lifts.
    public var longPressDuration: Double

    public init(tapSlop: Double = 12, tapTimeout: Double = 0.35, deadZoneFraction: Double = 0.5,
                clockResetThreshold: Double = 1.0, staleTouchTimeout: Double = 5.0, longPressDuration: Double = 0.6) {
        self.tapSlop = tapSlop
        self.tapTimeout = tapTimeout
        self.deadZoneFraction = deadZoneFraction
        self.clockResetThreshold = clockResetThreshold
        self.staleTouchTimeout = staleTouchTimeout
        self.longPressDuration = longPressDuration
    }
}

