import CDRM
import KioskSeams

/// VT switching and hotplug: suspending and resuming the output, and re-reading the connector
/// after a udev change (KMSDisplay keeps the state; ReprobeDecision decides).
extension KMSDisplay {
    /// VT released: finish the pending flip, drop master, forget what is on screen.
    public func suspend(_ reason: SuspendReason) -> [DisplayEvent] {
        let wasActive = isActive
        waitForPendingFlip()
        queued.removeAll()
        suspendedBy.insert(reason)
        forgetRunningMode(because: .suspended)
        flipState = flipState.applying(.outputLost, otherwise: .nothingPosted, report: log)
        if reason == .vtReleased { try? card?.dropMaster() }
        return wasActive ? [.suspended] : []
    }

    /// VT acquired or output replugged: take master back if needed; the next present sets the
    /// CRTC again. Returns `.resumed` when nothing else keeps the output suspended.
    public func resume(_ reason: SuspendReason) throws(DisplayError) -> [DisplayEvent] {
        guard suspendedBy.contains(reason) else { return [] }
        if reason == .vtReleased { try card?.becomeMaster() }
        suspendedBy.remove(reason)
        return isActive ? [.resumed] : []
    }

    /// Re-reads the connector after a udev `change` and does what `ReprobeDecision` says:
    /// unplugged suspends, replugged at the buffers' size resumes, a new size re-modesets
    /// (`.resized`, then `.resumed`).
    public func reprobe() throws(DisplayError) -> [DisplayEvent] {
        guard let card else { return [] }
        let (info, raws) = try CardProbe.connector(selection.connector.id, on: card)
        let unplugged = suspendedBy.contains(.unplugged)
        switch ReprobeDecision.decide(connector: info, current: selection.mode, suspended: unplugged, request: modeRequest) {
        case .keep:
            return []
        case .suspend:
            return suspend(.unplugged)
        case .resume(let i):
            rawMode = raws[i]
            selection.mode = info.modes[i]
            selection.connector = info
            return try resume(.unplugged)
        case .remodeset(let i):
            let events = unplugged ? [] : suspend(.unplugged)
            try replaceBuffers(mode: info.modes[i], raw: raws[i], connector: info)
            return try events + [.resized(width: info.modes[i].width, height: info.modes[i].height)] + resume(.unplugged)
        }
    }

    /// New dumb buffers at `mode`'s size (the old ones destroyed first: the CRTC may be showing
    /// one, and RmFB of it turns the CRTC off, which the next present's modeset undoes). The
    /// next present sets the CRTC with the new mode (atomic: TEST_ONLY first).
    func replaceBuffers(mode: ModeInfo, raw: drmModeModeInfo, connector: ConnectorInfo) throws(DisplayError) {
        guard let card else { return }
        waitForPendingFlip()
        for b in buffers.reversed() { b.destroy() }
        let count = buffers.count
        buffers.removeAll()
        flipState = .nothingPosted
        var made: [DumbBuffer] = []
        for _ in 0..<count {
            made.append(try DumbBuffer(card: card, width: mode.width, height: mode.height))
        }
        buffers = made
        ages = BufferAges(count: made.count)
        rawMode = raw
        selection.mode = mode
        selection.connector = connector
    }
}
