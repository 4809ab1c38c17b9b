import DialCore
import KioskSeams

/// The output's side of the loop: where frames go, the VT switch, the screen's power and look,
/// and a new mode after a hotplug. None is optional: an output without a VT, a power switch or
/// a hotplug gets the implementation that says so (`NoConsole`, `ScreenPower.painted`,
/// `LoopOutput.fixedMode`).
struct LoopOutput {
    /// Builds the scene for a new scanout size (width, height) after a hotplug re-modeset,
    /// resting on the selected slot's path (inside a ring: in that ring).
    typealias Resize = (Int, Int, MenuPath?) throws -> Scene

    let presenter: FramePresenter
    var vt: VTSwitching = NoConsole()
    /// What the glass shows (the one owner of "is the screen dark"): blank switches the output
    /// off and dim lowers the backlight where there are both, else they are painted.
    var power: ScreenPower = .painted()
    var resize: Resize = LoopOutput.fixedMode

    /// An output whose mode never changes: a `.resized` from it is a display that does not do
    /// what it said, an error rather than a scene painted at the wrong size.
    static func fixedMode(width: Int, height: Int, restingOn path: MenuPath?) throws -> Scene {
        throw UnexpectedResize(width: width, height: height)
    }

    struct UnexpectedResize: Error, CustomStringConvertible {
        var width: Int
        var height: Int
        var description: String { "display: a new mode \(width)x\(height) from an output that has one mode" }
    }
}

/// Off a VT (the virtual display, stdin not a VT, the tests): the VT signals change nothing.
final class NoConsole: VTSwitching {
    func release() throws -> [DisplayEvent] { [] }
    func acquire() throws -> [DisplayEvent] { [] }
}

/// How the loop paces frames: the schedule, render late (nil: paint as soon as the flip event
/// comes) and `--stats` (nil: none). These two stay optional: they are options a run has or
/// has not, not collaborators; each nil reads as "off" where it is used, and a do-nothing
/// stand-in would add a protocol and a type for the same two answers.
struct LoopPacing {
    var schedule = FrameSchedule()
    var renderLate: RenderLateSchedule? = nil
    var stats: FrameStats? = nil
}
