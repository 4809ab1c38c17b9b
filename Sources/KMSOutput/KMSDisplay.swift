import CDRM
import DialCore
import Glibc
import LinuxSystem

/// One output driven with dumb buffers and page flips, by atomic commits where the driver has
/// them (KMSDisplay+Atomic) or the legacy calls: the FramePresenter and the DisplayEventSource of
/// the poll loop.
///
/// Frame clock: the first frame is a modeset (drmModeSetCrtc or an atomic ALLOW_MODESET commit,
/// neither of which sends an event), so the same
/// buffer is flipped to right after it; every present is therefore answered by exactly one real
/// flip event, whose timestamp becomes `.frameShown(time:)`. A `.suspended` cancels the answer
/// owed to a frame queued before it.
///
/// Teardown (`close()`, safe twice) runs in reverse: wait for a pending flip, restore the saved
/// CRTC, RmFB + destroy the dumb buffers, close the card.
public final class KMSDisplay: FramePresenter, DisplayEventSource {
    /// Why the output is not being presented to.
    public enum SuspendReason: Hashable, Sendable {
        case vtReleased
        case unplugged
    }

    /// The CRTC as it was before the first modeset, put back on exit.
    struct SavedCrtc {
        var bufferID: UInt32
        var x: UInt32
        var y: UInt32
        var mode: drmModeModeInfo?
    }

    public private(set) var selection: OutputSelection
    /// True when flip timestamps are CLOCK_MONOTONIC (DRM_CAP_TIMESTAMP_MONOTONIC); otherwise the
    /// time the event is read is used.
    public let monotonicTimestamps: Bool
    public internal(set) var flipState: PageFlipState = .nothingPosted
    public private(set) var suspendedBy: Set<SuspendReason> = []
    /// Flip events received since start (the program's own flip counter).
    public private(set) var flipCount = 0

    var card: DRMCard?
    var buffers: [DumbBuffer]
    var rawMode: drmModeModeInfo
    private var saved: SavedCrtc?
    var queued: [DisplayEvent] = []
    let sink = FlipSink()
    /// The atomic commits, when `api` is `.atomic`.
    let atomic: AtomicOutput?
    /// Which frame each buffer holds, for `FrameTarget.age`.
    var ages: BufferAges
    /// The damage (scanout pixels, nil: all) the last frame's paint returned, for damage clips.
    public private(set) var lastDamage: [PixelRect]?
    /// The output is switched off (blank, KMSDisplay+Power); the next present switches it on.
    public internal(set) var isPoweredOff = false
    /// The connector's DPMS property id, read at the first legacy blank.
    var dpmsProperty: UInt32?
    /// The `mode:` asked for at start: a replugged connector gets it again when it offers it.
    public var modeRequest: ModeRequest?
    /// Where the display says what it cannot act on (an impossible page-flip step); `run`
    /// passes its warning log.
    public var log: (String) -> Void = { _ in }

    /// Takes ownership of `card` (already master), picks the KMS API for `api`, creates
    /// `bufferCount` buffers of the mode's size.
    public init(card: DRMCard, probed: ProbedCard, selection: OutputSelection, bufferCount: Int = 2,
                api: KMSAPI.Request = .auto) throws(DisplayError) {
        guard let raw = probed.rawMode(selection.mode, connector: selection.connector.id) else {
            throw DisplayError(.setCrtc(selection.crtcID), code: EINVAL)
        }
        atomic = try KMSDisplay.atomicOutput(card: card, crtcIDs: probed.info.crtcIDs, selection: selection, request: api)
        self.card = card
        self.selection = selection
        self.rawMode = raw
        monotonicTimestamps = (try? card.capability(UInt64(DRM_CAP_TIMESTAMP_MONOTONIC), named: "DRM_CAP_TIMESTAMP_MONOTONIC")) == 1
        var made: [DumbBuffer] = []
        for _ in 0..<max(2, bufferCount) {
            made.append(try DumbBuffer(fd: card.fd, width: selection.mode.width, height: selection.mode.height))
        }
        buffers = made
        ages = BufferAges(count: made.count)
    }

    deinit { close() }

    public var isActive: Bool { suspendedBy.isEmpty && card != nil }

    // MARK: FramePresenter

    /// The scanout buffer's size: the mode's, i.e. the panel's (rotation is applied by the copy).
    public var frameSize: (width: Int, height: Int) { (selection.mode.width, selection.mode.height) }

    /// Paints the next free buffer and queues it. The rectangles `paint` returns (scanout
    /// pixels that differ from the previous frame; nil: all of it) go to an atomic flip as
    /// FB_DAMAGE_CLIPS.
    public func present(paint: (FrameTarget) throws -> [PixelRect]?) throws {
        guard let card, isActive else { throw DisplayError(.present, code: EAGAIN) }
        // A frame is wanted: the screen must not stay dark (the modeset below sets ACTIVE=1).
        if isPoweredOff { try powerOn() }
        guard let index = flipState.writableBuffer(count: buffers.count),
              let call = flipState.nextShowCall, let target = buffers[index].target else {
            throw DisplayError(.present, code: EBUSY)
        }
        lastDamage = try paint(ages.next(target, buffer: index))
        ages.painted(buffer: index)
        let fb = buffers[index].framebufferID
        if call == .setCrtc {
            try setCrtc(card: card, framebuffer: fb)
            flipState = flipState.applying(.crtcSet(buffer: index), report: log)
        }
        do throws(DisplayError) {
            try queueFlip(card: card, framebuffer: fb, damage: lastDamage.map(DamageClip.clips))
        } catch {
            // EINVAL: the CRTC no longer takes flips of this buffer (a mode or connector change
            // under us): the next frame sets the CRTC again instead of flipping.
            if error.code == EINVAL { flipState = flipState.applying(.outputLost, report: log) }
            throw error
        }
        flipState = flipState.applying(.flipQueued(buffer: index), report: log)
    }

    /// drmModeGetCrtc once (the state to restore), then drmModeSetCrtc with our connector and mode.
    private func setCrtc(card: DRMCard, framebuffer: UInt32) throws(DisplayError) {
        let crtc = selection.crtcID
        if saved == nil {
            guard let c = drmModeGetCrtc(card.fd, crtc) else { throw DisplayError(.getCrtc(crtc), errno: .current) }
            saved = SavedCrtc(bufferID: c.pointee.buffer_id, x: c.pointee.x, y: c.pointee.y,
                              mode: c.pointee.mode_valid != 0 ? c.pointee.mode : nil)
            drmModeFreeCrtc(c)
        }
        if let atomic { return try atomicModeset(atomic, framebuffer: framebuffer, mode: rawMode) }
        var connector = selection.connector.id
        var mode = rawMode
        try DisplayError.check(.setCrtc(crtc), drmModeSetCrtc(card.fd, crtc, framebuffer, 0, 0, &connector, 1, &mode))
    }

    /// drmModePageFlip with DRM_MODE_PAGE_FLIP_EVENT (or the atomic flip); the event carries the
    /// sink as user data.
    private func queueFlip(card: DRMCard, framebuffer: UInt32, damage: [DamageClip]?) throws(DisplayError) {
        if let atomic { return try atomicFlip(atomic, framebuffer: framebuffer, damage: damage) }
        try DisplayError.check(.pageFlip(crtc: selection.crtcID),
                               drmModePageFlip(card.fd, selection.crtcID, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT),
                                               Unmanaged.passUnretained(sink).toOpaque()))
    }

    // MARK: DisplayEventSource

    public var pollDescriptor: Int32 { card?.fd ?? -1 }

    public func drainDisplayEvents() throws -> [DisplayEvent] {
        try readFlipEvents()
        let out = queued
        queued.removeAll()
        return out
    }

    /// drmHandleEvent until the non-blocking descriptor is empty; each flip event advances the
    /// flip state and, while active, queues `.frameShown`.
    private func readFlipEvents() throws(DisplayError) {
        guard let card else { return }
        var context = drmEventContext()
        context.version = 2
        context.page_flip_handler = { _, _, sec, usec, data in
            guard let data else { return }
            Unmanaged<FlipSink>.fromOpaque(data).takeUnretainedValue().times.append((sec, usec))
        }
        while true {
            // drmHandleEvent is one read(2) of the non-blocking card: EAGAIN means drained, and
            // an interrupted read is taken up again on the next poll.
            if drmHandleEvent(card.fd, &context) != 0 {
                let failure = Errno.current
                if failure == .wouldBlock || failure == .interrupted { break }
                throw DisplayError(.handleEvent, errno: failure)
            }
            if sink.times.isEmpty { break }
            for (sec, usec) in sink.times {
                flipCount += 1
                // An event with no flip pending (one that finished after a suspend gave up
                // waiting for it) is stale: said, and not reported as a frame shown.
                guard flipState.isFlipPending else {
                    flipState = flipState.applying(.flipCompleted, report: log)
                    continue
                }
                flipState = flipState.applying(.flipCompleted, report: log)
                if isActive { queued.append(.frameShown(time: frameTime(sec: sec, usec: usec))) }
            }
            sink.times.removeAll()
        }
    }

    private func frameTime(sec: UInt32, usec: UInt32) -> Double {
        if monotonicTimestamps { return Double(sec) + Double(usec) / 1_000_000 }
        return monotonicNow()
    }

    /// Waits (poll on the card, at most `timeoutMS` in all) until no flip is pending. The
    /// kernel still scans out a buffer with a flip pending, so it must not be freed before.
    public func waitForPendingFlip(timeoutMS: Int32 = 1000) {
        guard let card else { return }
        var left = timeoutMS
        while flipState.isFlipPending && left > 0 {
            var descriptors = [pollfd(fd: card.fd, events: Int16(POLLIN), revents: 0)]
            if case .failure = pollDescriptors(&descriptors, timeoutMS: 100) { break }
            left -= 100
            try? readFlipEvents()
        }
    }

    // MARK: VT switching and hotplug

    /// VT released: finish the pending flip, drop master, forget what is on screen.
    public func suspend(_ reason: SuspendReason) -> [DisplayEvent] {
        let wasActive = isActive
        waitForPendingFlip()
        queued.removeAll()
        suspendedBy.insert(reason)
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
    private func replaceBuffers(mode: ModeInfo, raw: drmModeModeInfo, connector: ConnectorInfo) throws(DisplayError) {
        guard let card else { return }
        waitForPendingFlip()
        for b in buffers.reversed() { b.destroy() }
        let count = buffers.count
        buffers.removeAll()
        flipState = .nothingPosted
        var made: [DumbBuffer] = []
        for _ in 0..<count {
            made.append(try DumbBuffer(fd: card.fd, width: mode.width, height: mode.height))
        }
        buffers = made
        ages = BufferAges(count: made.count)
        rawMode = raw
        selection.mode = mode
        selection.connector = connector
    }

    // MARK: Teardown

    /// Restores the CRTC (when master), then releases buffers and the card. Safe to call twice.
    /// With atomic too the restore is the legacy drmModeSetCrtc of the saved CRTC: it sets the
    /// same CRTC, mode, framebuffer, connector routing and full-screen primary plane that an
    /// atomic commit of the saved properties would, and the kernel runs it as one atomic commit.
    public func close() {
        guard let card else { return }
        waitForPendingFlip()
        // Legacy DPMS Off outlives the restore's SetCrtc in the connector's state: on first.
        if isPoweredOff && !suspendedBy.contains(.vtReleased) { try? powerOn() }
        if let saved, !suspendedBy.contains(.vtReleased) {
            var connector = selection.connector.id
            if var mode = saved.mode, saved.bufferID != 0 {
                _ = drmModeSetCrtc(card.fd, selection.crtcID, saved.bufferID, saved.x, saved.y, &connector, 1, &mode)
            } else {
                _ = drmModeSetCrtc(card.fd, selection.crtcID, 0, 0, 0, nil, 0, nil)
            }
        }
        saved = nil
        atomic?.release()
        for b in buffers.reversed() { b.destroy() }
        buffers.removeAll()
        card.close()
        self.card = nil
    }
}

/// Where the C flip handler leaves the timestamps it is given (its user data).
final class FlipSink {
    var times: [(UInt32, UInt32)] = []
}
