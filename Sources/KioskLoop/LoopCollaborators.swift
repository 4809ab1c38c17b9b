import DialCore
import KioskSeams

/// The output's side of the loop: where frames go, the VT switch, the screen's power and look,
/// and a new mode after a hotplug. None is optional: an output without a VT, a power switch or
/// a hotplug gets the implementation that says so (`NoConsole`, `ScreenPower.painted`,
/// `LoopOutput.fixedMode`).
package struct LoopOutput {
    /// Builds the scene for a new scanout size (width, height) after a hotplug re-modeset,
    /// resting on the selected slot's path (inside a ring: in that ring).
    package typealias Resize = (Int, Int, MenuPath?) throws -> Scene

    package let presenter: FramePresenter
    package var vt: VTSwitching = NoConsole()
    /// What the glass shows (the one owner of "is the screen dark"): blank switches the output
    /// off and dim lowers the backlight where there are both, else they are painted.
    package var power: ScreenPower = .painted()
    package var resize: Resize = LoopOutput.fixedMode

    package init(presenter: FramePresenter, vt: VTSwitching = NoConsole(), power: ScreenPower = .painted(),
                 resize: @escaping Resize = LoopOutput.fixedMode) {
        self.presenter = presenter
        self.vt = vt
        self.power = power
        self.resize = resize
    }

    /// An output whose mode never changes: a `.resized` from it is a display that does not do
    /// what it said, an error rather than a scene painted at the wrong size.
    package static func fixedMode(width: Int, height: Int, restingOn path: MenuPath?) throws -> Scene {
        throw UnexpectedResize(width: width, height: height)
    }

    package struct UnexpectedResize: Error, CustomStringConvertible {
        package var width: Int
        package var height: Int
        package var description: String { "display: a new mode \(width)x\(height) from an output that has one mode" }
    }
}

/// Off a VT (the virtual display, stdin not a VT, the tests): the VT signals change nothing.
package final class NoConsole: VTSwitching {
    package init() {}
    package func release() throws -> [DisplayEvent] { [] }
    package func acquire() throws -> [DisplayEvent] { [] }
}

/// How the loop paces frames: the schedule, render late (nil: paint as soon as the flip event
/// comes) and `--stats` (nil: none). These two stay optional: they are options a run has or
/// has not, not collaborators; each nil reads as "off" where it is used, and a do-nothing
/// stand-in would add a protocol and a type for the same two answers.
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
