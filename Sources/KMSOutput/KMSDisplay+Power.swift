import CDRM
import Glibc

/// Blanking by switching the output off: the CRTC's ACTIVE=0 on atomic, the connector's DPMS
/// property on legacy. The panel stops scanning (and its backlight goes off with the link),
/// the vblank interrupt stops, and no flips happen until a present switches it on again.
extension KMSDisplay {
    /// DRM_MODE_DPMS_ON and DRM_MODE_DPMS_OFF, the values of the connector's DPMS enum.
    static let dpmsOn: UInt64 = 0
    static let dpmsOff: UInt64 = 3

    /// Switches the output off after the pending flip (whose `.frameShown` is still delivered).
    /// The next present switches it on (`powerOn`) and sets the CRTC again, so a failure here
    /// leaves the output on and the caller paints black instead.
    public func powerOff() throws(DisplayError) {
        guard let card, isActive, !isPoweredOff else { return }
        waitForPendingFlip()
        if let atomic {
            try atomic.switchOff()
        } else {
            try setDPMS(KMSDisplay.dpmsOff, card: card)
        }
        isPoweredOff = true
        // The loop rests from here (FrameLoop.restWhileOff): the answer to the frame it queued
        // before the blank is not awaited.
        queued.removeAll()
        // With the CRTC off, a flip would fail: the next present is a modeset (ACTIVE=1).
        flipState = .nothingPosted
    }

    /// Marks the output on; on legacy sets DPMS On (SetCrtc alone leaves the connector's DPMS
    /// state Off). On atomic the next present's modeset commit carries ACTIVE=1 with the mode.
    public func powerOn() throws(DisplayError) {
        guard let card, isPoweredOff else { return }
        isPoweredOff = false
        if atomic == nil { try setDPMS(KMSDisplay.dpmsOn, card: card) }
    }

    /// drmModeConnectorSetProperty of DPMS (looked up by name once).
    private func setDPMS(_ value: UInt64, card: DRMCard) throws(DisplayError) {
        let call = DisplayCall.dpms(connector: selection.connector.name, on: value == KMSDisplay.dpmsOn)
        if dpmsProperty == nil {
            let table = try AtomicOutput.readProperties(fd: card.fd, object: selection.connector.id,
                                                        type: UInt32(DRM_MODE_OBJECT_CONNECTOR),
                                                        what: "connector \(selection.connector.id)")
            guard let id = table.id("DPMS") else { throw DisplayError(call, code: ENOENT) }
            dpmsProperty = id
        }
        try DisplayError.check(call, drmModeConnectorSetProperty(card.fd, selection.connector.id, dpmsProperty ?? 0, value))
    }
}

extension AtomicOutput {
    /// A blocking ALLOW_MODESET commit of the CRTC's ACTIVE=0 (AtomicProperties.powerOff);
    /// switching on again is the modeset commit.
    func switchOff() throws(DisplayError) {
        try commit(properties.powerOff(), flags: UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET), as: .power(crtc: properties.crtcID, on: false))
    }
}
