import DialCore
import KMSOutput

/// What `run` paints on and hears from: a DRM card's output (with its hotplug monitor, power
/// switch, backlight and console), or the virtual display of `--display virtual:WxH@Hz`.
struct RunOutput {
    let presenter: FramePresenter
    /// The flip events (and hotplug) the loop polls.
    let events: [DisplayEventSource]
    /// The mode's size now, in panel pixels (a hotplug may set a new one).
    let panelSize: () -> (width: Int, height: Int)
    let refreshHz: Double
    let rotation: DisplayRotation
    let power: ScreenPower?
    let vt: VTSwitching?
    /// Flips since start, for the last log line.
    let flips: () -> Int
    /// How the frame clock is read, for `--stats`' first line.
    let clockNote: String

    /// The virtual display, vblank 0 at `origin` on the loop's clock `now`: no console, no
    /// power switch or backlight (a blanked or dimmed screen is painted), no hotplug.
    static func virtual(_ spec: VirtualDisplaySpec, rotation: DisplayRotation, origin: Double,
                        now: @escaping () -> Double) -> RunOutput {
        let display = VirtualDisplay(width: spec.width, height: spec.height,
                                     timing: .init(refresh: spec.refreshHz), origin: origin, now: now)
        return RunOutput(presenter: display, events: [display], panelSize: { (spec.width, spec.height) },
                         refreshHz: spec.refreshHz, rotation: rotation, power: nil, vt: nil,
                         flips: { display.flips }, clockNote: "virtual display \(spec), flips paced by poll's timeout")
    }
}
