import KMSOutput
import KioskLoop
import KioskReporting

// The KMS output and the panel's backlight as the loop's screen owner (ScreenPower) drives
// them; stated here, where `run` wires KMSOutput to the loop, so KioskLoop needs no DRM module.
extension KMSDisplay: OutputPowering {}
extension Backlight: BacklightDimming {}

extension ScreenPower {
    /// The power switch of `display` and the backlight of its connector under /sys.
    /// `stateDirectory`: where the brightness to restore is kept across a restart (systemd's
    /// RUNTIME_DIRECTORY, /run/dialkiosk); nil keeps it in memory only.
    static func forDisplay(_ display: KMSDisplay, sysfsRoot: String = "/sys", stateDirectory: String?,
                           logger: JournalLogger) -> ScreenPower {
        let card = display.selection.card.path.split(separator: "/").last.map(String.init) ?? ""
        let name = display.selection.connector.name
        switch Backlight.open(sysfsRoot: sysfsRoot, card: card, connector: name, stateDirectory: stateDirectory) {
        case .success(let backlight):
            logger.info("screen: dim uses the backlight \(backlight.directory) (max \(backlight.maxBrightness))")
            if let line = recoveryLine(backlight) { logger.info(line) }
            return ScreenPower(output: display, backlight: backlight) { logger.info($0) }
        case .failure(let why):
            return ScreenPower(output: display, backlight: nil, noBacklight: why.description) { logger.info($0) }
        }
    }

    /// What the backlight did with a previous run's state file, for the log; nil when none.
    static func recoveryLine(_ backlight: Backlight) -> String? {
        let file = backlight.stateFile ?? ""
        switch backlight.recovered {
        case .nothing: return nil
        case .restored(let value): return "screen: a previous run left the backlight dimmed; restored \(value) from \(file)"
        case .keptChanged(let value): return "screen: the backlight was changed to \(value) while dimmed; kept it, dropped \(file)"
        case .discarded: return "screen: \(file) did not hold a brightness to restore; removed it"
        }
    }
}
