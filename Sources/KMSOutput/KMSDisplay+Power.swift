import Glibc

/// Blanking by switching the output off: the CRTC's ACTIVE=0 on atomic, the connector's DPMS
/// property on legacy (KMSInterface.setPower). The panel stops scanning (and its backlight goes
/// off with the link), the vblank interrupt stops, and no flips happen until the screen's owner
/// switches it on again (`powerOn`, then a present's modeset).
extension KMSDisplay {
    /// Switches the output off after the pending flip, whose `.frameShown` is dropped (the
    /// loop is told it rests: FrameSchedule.outputSwitchedOff). The screen's owner switches it on
    /// (`powerOn`) and the next present sets the CRTC again, so a failure here leaves the output on and the
    /// caller paints black instead. A suspended output (VT away, unplugged) is not ours to
    /// switch: EAGAIN, so the caller does not take it for off.
    public func powerOff() throws(DisplayError) {
        guard !isPoweredOff else { return }
        guard card != nil, isActive else { throw DisplayError(.power(crtc: selection.crtcID, on: false), code: EAGAIN) }
        waitForPendingFlip()
        try interface.setPower(on: false, route: route)
        isPoweredOff = true
        forgetRunningMode(because: .crtcOff)
        // The loop rests from here (FrameLoop.repaint, FrameSchedule.outputSwitchedOff): the
        // answer to the frame it queued before the blank is not awaited.
        queued.removeAll()
        // With the CRTC off, a flip would fail: the next present is a modeset (ACTIVE=1).
        flipState = .nothingPosted
    }

    /// Marks the output on; on legacy sets DPMS On (SetCrtc alone leaves the connector's DPMS
    /// state Off). On atomic the next present's modeset commit carries ACTIVE=1 with the mode.
    public func powerOn() throws(DisplayError) {
        guard card != nil, isPoweredOff else { return }
        isPoweredOff = false
        try interface.setPower(on: true, route: route)
    }
}
