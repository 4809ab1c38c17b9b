import DialCore
import KioskSeams
import TouchInput
import KioskReporting
import KioskConfiguration

/// Where `run`'s input comes from: libinput on the seat, or a touch script (`--input-script`,
/// the JSON Lines `simulate` reads) timed from the start, after whose last sample the kiosk
/// runs on untouched.
package struct RunInput {
    let source: InputSource
    /// Maps touches onto a new panel size after a hotplug re-modeset (a script's are in screen
    /// pixels already).
    let retarget: (ScreenTransform) -> Void
    let close: () -> Void

    static func open(_ device: Kiosk.Devices.Input, panelWidth: Int, panelHeight: Int, rotation: DisplayRotation,
                     config: KioskConfig.Input, origin: Double, now: @escaping () -> Double,
                     logger: JournalLogger) throws -> RunInput {
        let settings: InputSettings
        switch device {
        case .script(let path):
            let next = try TouchSource.script(path).checkedPass()
            let script = try ScriptInput(origin: origin, now: now) { try next().map(InputEvent.touch) }
            logger.info("run: input from the touch script \(path), timed from the start")
            return RunInput(source: script, retarget: { _ in }, close: {})
        case .libinput(let given):
            settings = given
        }
        let libinput = try settings.makeSource(panelWidth: panelWidth, panelHeight: panelHeight, rotation: rotation,
                                                    config: config, format: logger.format, logger: logger)
        return RunInput(source: libinput, retarget: libinput.retarget, close: { libinput.context.close() })
    }
}
