import DialCore
import KioskSeams

/// The output's side of the loop: where frames go, and what only a real output has (the VT
/// switch, power saving, a new mode after a hotplug).
struct LoopOutput {
    let presenter: FramePresenter
    /// nil off a VT (the virtual display, the tests).
    var vt: VTSwitching? = nil
    /// Blank switches the output off, dim lowers the backlight (nil: both are painted).
    var power: ScreenPower? = nil
    /// Builds the scene for a new scanout size (width, height) after a hotplug re-modeset,
    /// resting on the selected slot's path (nil: the scene stays; the output never resizes).
    var resize: ((Int, Int, MenuPath?) throws -> Scene)? = nil
}

/// How the loop paces frames: the schedule, render late (nil: paint as soon as the flip event
/// comes) and `--stats` (nil: none).
struct LoopPacing {
    var schedule = FrameSchedule()
    var renderLate: RenderLateSchedule? = nil
    var stats: FrameStats? = nil
}
