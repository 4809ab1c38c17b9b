import KioskReporting
import KioskSeams

/// The output's power switch as ScreenPower uses it (KMSDisplay; tests use a fake).
package protocol OutputPowering: AnyObject {
    /// Switches the output off (ACTIVE=0 / DPMS Off); a throw leaves it on.
    func powerOff() throws
    /// Switches it back on, ahead of the next frame's modeset.
    func powerOn() throws
}

/// The panel's backlight as ScreenPower uses it (KMSOutput's `Backlight`; tests use a fake).
package protocol BacklightDimming: AnyObject {
    func dim(fraction: Double) throws
    func restore() throws
}

/// The loop's side of what the screen's owner decided: each is applied in the turn it came.
package enum BehaviourAction: Sendable, Equatable {
    /// Back to the top ring and its default item (`MenuDial.returnToTop`).
    case returnToDefault
    /// The glass changed (on, dim, off): paint now when resting, else with the next frame.
    case repaint
}

/// The one owner of the screen: what it should show and why (`ScreenPolicy`, the decision),
/// the brightness, and what the glass shows (`ScreenLook`): `off` switches the output off and
/// `dim` lowers the backlight. Where that cannot be done (no power switch or backlight, a
/// refused call), the screen is painted black or dim instead, with one warning: a failure never
/// leaves the screen dark after a wake, because the output is switched on before any frame. The
/// service changes the policy (`change`), the loop asks `look` what to paint and whether to
/// present at all; the output and backlight are told.
package final class ScreenPower {
    /// The backlight's share while dimmed: a quarter, the light the dim frame leaves on a
    /// typical panel (channels halved, gamma 2.2).
    package static let dimFraction = 0.25

    private let output: OutputPowering?
    private let backlight: BacklightDimming?
    private let log: (String) -> Void
    /// Why the dim frame is painted instead of the backlight; logged once, at the first dim.
    private var noBacklight: String?
    /// What the glass shows: the answer to "is the screen dark" and "is the output off".
    package private(set) var look: ScreenLook = .lit
    /// What the screen should show and why: the only place that decides it.
    package private(set) var policy = ScreenPolicy()
    /// The backlight was lowered and must be restored (also when a blank followed the dim).
    private var backlightLowered = false
    /// The backlight's share while dimmed (`brightness N` sets it; `dimFraction` by default).
    package private(set) var dimLevel = ScreenPower.dimFraction
    /// `brightness N` as last asked (percent); 100 until one comes.
    package private(set) var brightness = 100
    private var appliedLevel: Double?
    /// The display behind the output, told when the glass goes dark (`false`) or lights again
    /// (`true`, also for dim): a TV switched over HDMI-CEC.
    package var follower: ((Bool) -> Void)?

    /// `noBacklight`: why `backlight` is nil (the Backlight.open refusal), logged at the first dim.
    package init(output: OutputPowering?, backlight: BacklightDimming?, noBacklight: String? = nil,
         log: @escaping (String) -> Void) {
        self.output = output
        self.backlight = backlight
        self.noBacklight = backlight == nil ? (noBacklight ?? "no backlight") : nil
        self.log = log
    }

    /// No power switch and no backlight (tests, displays without either): a blanked screen
    /// gets the black frame, a dimmed one the dim frame, without a word about the backlight.
    package static func painted(log: @escaping (String) -> Void = { _ in }) -> ScreenPower {
        let power = ScreenPower(output: nil, backlight: nil, log: log)
        power.noBacklight = nil
        return power
    }

    /// The state and its reason (what `<base>/state` and the `power` event say).
    package var state: (state: PowerState, reason: PowerReason) { policy.target }

    /// Changes the decision's facts (a wake, idle, a request, the hours) and makes the glass
    /// follow. Returns whether the glass changed: the loop must repaint.
    @discardableResult
    package func change(_ body: (inout ScreenPolicy) -> Void) -> Bool {
        body(&policy)
        let wasDark = look.isDark
        let changed = settle()
        if look.isDark != wasDark { follower?(!look.isDark) }
        return changed
    }

    /// An input event through the policy (a touch on a dark screen only wakes it).
    package func admit(_ event: InputEvent) -> (admission: ScreenPolicy.Admission, changed: Bool) {
        var admission = ScreenPolicy.Admission.swallowed
        let changed = change { admission = $0.admit(event) }
        return (admission, changed)
    }

    /// `brightness N`: 0 is off, 100 on, anything between dims to N percent (a screen dimmed
    /// already follows the new level). Returns whether the glass changed.
    @discardableResult
    package func setBrightness(_ percent: Int) -> Bool {
        brightness = percent
        dimLevel = Double(percent) / 100
        return change { $0.request(percent == 0 ? .off : percent == 100 ? .on : .dim) }
    }

    /// The glass to the policy's state: at most one power step.
    private func settle() -> Bool {
        switch policy.target.state {
        case .on:
            guard look != .lit else { return false }
            log("screen: wake")
            wake()
        case .dim:
            let dimmed = look == .dimmedByPaint || look == .dimmedByBacklight
            guard !dimmed || (backlight != nil && appliedLevel != dimLevel) else { return false }
            log("screen: dim")
            dim()
        case .off:
            guard !look.isDark else { return false }
            log("screen: blank")
            blank()
        }
        return true
    }

    private func blank() {
        var off = false
        if let output {
            do {
                try output.powerOff()
                off = true
            } catch {
                log("warning: screen: \(error); painting black instead")
            }
        }
        step(.blanked(outputOff: off))
    }

    private func dim() {
        // Out of the dark first: the dim picture needs the output (`screen dim` while blanked).
        switchOn()
        guard let backlight else {
            if let why = noBacklight { log("screen: \(why); painting the dim frame instead") }
            noBacklight = nil
            return step(.dimmed(byBacklight: false))
        }
        guard !backlightLowered || appliedLevel != dimLevel else { return step(.dimmed(byBacklight: true)) }
        do {
            try backlight.dim(fraction: dimLevel)
            backlightLowered = true
            appliedLevel = dimLevel
            step(.dimmed(byBacklight: true))
        } catch {
            log("warning: screen: backlight: \(error); painting the dim frame instead")
            step(.dimmed(byBacklight: backlightLowered))
        }
    }

    private func wake() {
        restoreHardware()
        step(.woken)
    }

    /// The loop must present while the output is off (it resumed after a VT switch or a
    /// hotplug, whose modeset lights it): it is switched on here, and the frame is black.
    func frameNeeded() {
        guard look == .outputOff else { return }
        switchOn()
        step(.switchedOnForFrame)
    }

    /// Wake and exit: the output on (the next frame's modeset completes it), the backlight back
    /// to the saved brightness.
    package func restore() {
        restoreHardware()
        look = .lit
    }

    private func restoreHardware() {
        switchOn()
        if backlightLowered {
            backlightLowered = false
            appliedLevel = nil
            do { try backlight?.restore() } catch { log("warning: screen: backlight: \(error)") }
        }
    }

    /// The output on again when it was switched off (the look follows at the caller's step).
    private func switchOn() {
        guard look == .outputOff else { return }
        do { try output?.powerOn() } catch { log("warning: screen: \(error); the next frame sets the mode again") }
    }

    private func step(_ step: ScreenLook.Step) {
        look = look.applying(step, otherwise: .lit, report: log)
    }
}
