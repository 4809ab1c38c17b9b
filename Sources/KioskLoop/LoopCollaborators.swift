import DialCore
import KioskSeams

/// The output's side of the loop: where frames go, and what only a real output has (the VT
/// switch, power saving, a new mode after a hotplug).
package struct LoopOutput {
    package let presenter: FramePresenter
    /// nil off a VT (the virtual display, the tests).
    package var vt: VTSwitching? = nil
    /// Blank switches the output off, dim lowers the backlight (nil: both are painted).
    package var power: ScreenPower? = nil
    /// Builds the scene for a new scanout size (width, height) after a hotplug re-modeset,
    /// resting on the selected slot's path (nil: the scene stays; the output never resizes).
    package var resize: ((Int, Int, MenuPath?) throws -> Scene)? = nil

    package init(presenter: FramePresenter, vt: VTSwitching? = nil, power: ScreenPower? = nil, resize: ((Int, Int, MenuPath?) throws -> Scene)? = nil) {
        self.presenter = presenter
        self.vt = vt
        self.power = power
        self.resize = resize
    }
}

/// How the loop paces frames: the schedule, render late (nil: paint as soon as the flip event
/// comes) and `--stats` (nil: none).
package struct LoopPacing {
    package var schedule = FrameSchedule()
    package var renderLate: RenderLateSchedule? = nil
    package var stats: FrameStats? = nil

    package init(schedule: FrameSchedule = FrameSchedule(), renderLate: RenderLateSchedule? = nil, stats: FrameStats? = nil) {
        self.schedule = schedule
        self.renderLate = renderLate
        self.stats = stats
    }
}
