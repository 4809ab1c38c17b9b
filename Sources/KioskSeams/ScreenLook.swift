/// What the glass shows while the kiosk runs, and how a dim or dark screen is made: the one
/// answer to "is the screen dark" (`ScreenPower` holds it; the frame loop, the schedule and the
/// display ask it or are told by it). Pure transitions, so an impossible step is said, not
/// ignored.
///
/// The screen's policy decides the state (on, dim, off) and why; this is *what* the glass shows
/// after the power calls that could be made (a refused or missing power switch or backlight
/// leaves a painted look instead).
public enum ScreenLook: Sendable, Equatable {
    /// The dial, at full light.
    case lit
    /// The dial as is; the backlight is lowered.
    case dimmedByBacklight
    /// The dial painted with every channel halved (no backlight to lower).
    case dimmedByPaint
    /// Blanked with the output on: one black frame, then no frames until a wake.
    case blackFrame
    /// Blanked with the output switched off: nothing is presented until a wake (or a frame the
    /// kernel needs, `switchedOnForFrame`).
    case outputOff

    /// What happened to the screen.
    public enum Step: Sendable, Equatable {
        /// Dimmed; `byBacklight`: the backlight took the level (else the dim frame is painted).
        case dimmed(byBacklight: Bool)
        /// Blanked; `outputOff`: the output was switched off (else the black frame is painted).
        case blanked(outputOff: Bool)
        /// Back to full light (output on, backlight restored).
        case woken
        /// The output had to come back on while blank for a frame the loop must present (the
        /// output resumed after a VT switch or a hotplug): the black frame is shown.
        case switchedOnForFrame
    }

    /// What a frame painted now shows.
    public enum Paint: Sendable, Equatable {
        /// The picture as painted.
        case picture
        /// The picture with every channel halved.
        case halved
        /// All black.
        case black
    }

    /// True while blanked: a moving dial queues no frames, only a wake paints again.
    public var isDark: Bool { self == .blackFrame || self == .outputOff }

    /// False while the output is switched off: no frame may be queued (it would switch it on).
    public var presents: Bool { self != .outputOff }

    /// What a frame painted in this look shows.
    public var paint: Paint {
        switch self {
        case .lit, .dimmedByBacklight: return .picture
        case .dimmedByPaint: return .halved
        case .blackFrame, .outputOff: return .black
        }
    }

    /// The look after `step`, or nil when `step` cannot happen here: a blank of a dark screen,
    /// a wake of a lit one, switching on an output that is not off. Each of these means two
    /// owners of the screen's state disagree.
    public func after(_ step: Step) -> ScreenLook? {
        switch (self, step) {
        case (_, .dimmed(let byBacklight)):
            // From dark too (`screen dim` while blanked); again while dimmed (a new level).
            return byBacklight ? .dimmedByBacklight : .dimmedByPaint
        case (.lit, .blanked(let off)), (.dimmedByBacklight, .blanked(let off)), (.dimmedByPaint, .blanked(let off)):
            return off ? .outputOff : .blackFrame
        case (.dimmedByBacklight, .woken), (.dimmedByPaint, .woken), (.blackFrame, .woken), (.outputOff, .woken):
            return .lit
        case (.outputOff, .switchedOnForFrame):
            return .blackFrame
        default:
            return nil
        }
    }

    /// `after(step)` for a caller that has made the calls already: an impossible step is said
    /// through `report`, and the look becomes `fallback`.
    public func applying(_ step: Step, otherwise fallback: ScreenLook, report: (String) -> Void) -> ScreenLook {
        if let next = after(step) { return next }
        report("screen: look \(self) cannot take \(step); now \(fallback)")
        return fallback
    }
}
