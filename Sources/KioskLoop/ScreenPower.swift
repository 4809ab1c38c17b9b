import KMSOutput
import KioskReporting

/// The output's power switch as ScreenPower uses it (KMSDisplay; tests use a fake).
package protocol OutputPowering: AnyObject {
    /// Switches the output off (ACTIVE=0 / DPMS Off); a throw leaves it on.
    func powerOff() throws
    /// Switches it back on, ahead of the next frame's modeset.
    func powerOn() throws
}

extension KMSDisplay: OutputPowering {}

/// The panel's backlight as ScreenPower uses it (KMSOutput's `Backlight`; tests use a fake).
package protocol BacklightDimming: AnyObject {
    func dim(fraction: Double) throws
    func restore() throws
}

extension Backlight: BacklightDimming {}

/// Real power saving for the idle screen: `blank` switches the output off and `dim` lowers the
/// backlight. Where that cannot be done (no backlight, a refused call), the screen is painted
/// black or dim instead, as without this, with one warning: a failure never leaves the screen
/// dark after a wake, because the next frame switches the output on in any case.
package final class ScreenPower {
    /// The backlight's share while dimmed: a quarter, the light the dim frame leaves on a
    /// typical panel (channels halved, gamma 2.2).
    package static let dimFraction = 0.25

    private let output: OutputPowering?
    private let backlight: BacklightDimming?
    private let log: (String) -> Void
    /// Why the dim frame is painted instead of the backlight; logged once, at the first dim.
    private var noBacklight: String?
    /// The output is off: nothing is presented until a wake.
    package private(set) var isOutputOff = false
    package private(set) var isBacklightDimmed = false
    /// The backlight's share while dimmed (`brightness N` sets it; `dimFraction` by default).
    package var dimLevel = ScreenPower.dimFraction
    private var appliedLevel: Double?

    /// `noBacklight`: why `backlight` is nil (the Backlight.open refusal), logged at the first dim.
    package init(output: OutputPowering?, backlight: BacklightDimming?, noBacklight: String? = nil,
         log: @escaping (String) -> Void) {
        self.output = output
        self.backlight = backlight
        self.noBacklight = backlight == nil ? (noBacklight ?? "no backlight") : nil
        self.log = log
    }

    /// Carries out the power side of a behaviour action, before the loop repaints.
    package func apply(_ action: IdleSchedule.Action) {
        switch action {
        case .blank:
            guard let output, !isOutputOff else { return }
            do {
                try output.powerOff()
                isOutputOff = true
            } catch {
                log("warning: screen: \(error); painting black instead")
            }
        case .dim:
            guard let backlight else {
                if let why = noBacklight { log("screen: \(why); painting the dim frame instead") }
                noBacklight = nil
                return
            }
            guard !isBacklightDimmed || appliedLevel != dimLevel else { return }
            do {
                try backlight.dim(fraction: dimLevel)
                isBacklightDimmed = true
                appliedLevel = dimLevel
            } catch {
                log("warning: screen: backlight: \(error); painting the dim frame instead")
            }
        case .wake:
            restore()
        case .returnToDefault:
            break
        }
    }

    /// What to paint for `screen`: the plain dial while the backlight does the dimming; a
    /// blanked screen whose output stayed on gets the black frame.
    package func look(for screen: IdleSchedule.Screen) -> IdleSchedule.Screen {
        screen == .dimmed && isBacklightDimmed ? .awake : screen
    }

    /// Wake and exit: the output on (the next frame's modeset completes it), the backlight back
    /// to the saved brightness.
    package func restore() {
        if isOutputOff {
            isOutputOff = false
            do { try output?.powerOn() } catch { log("warning: screen: \(error); the next frame sets the mode again") }
        }
        if isBacklightDimmed {
            isBacklightDimmed = false
            do { try backlight?.restore() } catch { log("warning: screen: backlight: \(error)") }
        }
    }
}

extension ScreenPower {
    /// The power switch of `display` and the backlight of its connector under /sys.
    /// `stateDirectory`: where the brightness to restore is kept across a restart (systemd's
    /// RUNTIME_DIRECTORY, /run/dialkiosk); nil keeps it in memory only.
    package static func forDisplay(_ display: KMSDisplay, sysfsRoot: String = "/sys", stateDirectory: String?,
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
    package static func recoveryLine(_ backlight: Backlight) -> String? {
        let file = backlight.stateFile ?? ""
        switch backlight.recovered {
        case .nothing: return nil
        case .restored(let value): return "screen: a previous run left the backlight dimmed; restored \(value) from \(file)"
        case .keptChanged(let value): return "screen: the backlight was changed to \(value) while dimmed; kept it, dropped \(file)"
        case .discarded: return "screen: \(file) did not hold a brightness to restore; removed it"
        }
    }
}
