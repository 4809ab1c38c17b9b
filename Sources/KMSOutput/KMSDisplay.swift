import CDRM
import KioskSeams
import Glibc
import LinuxSystem

/// One output driven with dumb buffers and page flips through one KMSInterface (atomic
/// commits where the driver has them, the legacy calls otherwise), chosen when the card is
/// opened: the FramePresenter and the DisplayEventSource of the poll loop. It keeps the buffers
/// and the flip state; the interface makes the calls.
///
/// Frame clock: the first frame is a page flip onto the CRTC as it runs when that CRTC already
/// shows the chosen connector at the chosen mode (`FirstFrame`), otherwise a modeset
/// (drmModeSetCrtc or an atomic ALLOW_MODESET commit, neither of which sends an event), after
/// which the same buffer is flipped to at once. Every present is therefore answered by exactly
/// one real flip event, whose timestamp becomes `.frameShown(time:)`. A `.suspended` cancels the
/// answer owed to a frame queued before it.
///
/// Teardown (`close()`, safe twice) runs in reverse: wait for a pending flip, restore the saved
/// CRTC (with `onExit == .keep`, after copying the last frame into it), RmFB + destroy the dumb
/// buffers, close the card.
public final class KMSDisplay: FramePresenter, DisplayEventSource {
    /// Why the output is not being presented to.
    public enum SuspendReason: Hashable, Sendable {
        case vtReleased
        case unplugged
    }

    /// What the screen shows once the program lets go of it (KioskSeams, so that the
    /// configuration can name it without this module).
    public typealias ExitScreen = KioskSeams.ExitScreen

    public internal(set) var selection: OutputSelection
    /// True when flip timestamps are CLOCK_MONOTONIC (DRM_CAP_TIMESTAMP_MONOTONIC); otherwise the
    /// time the event is read is used.
    public let monotonicTimestamps: Bool
    public internal(set) var flipState: PageFlipState = .nothingPosted
    public internal(set) var suspendedBy: Set<SuspendReason> = []
    /// Flip events received since start (the program's own flip counter).
    public private(set) var flipCount = 0
    /// How the first frame went, once it was presented.
    public private(set) var firstFrame: FirstFrame?
    /// Called once, with how the first frame went and the time (CLOCK_MONOTONIC, the flip
    /// event's) it reached the glass.
    public var onFirstFrame: ((FirstFrame, Double) -> Void)?
    /// What close() leaves on the screen.
    public var onExit: ExitScreen = .restore
    /// With `.keep`, after close(): where the last frame went ("/dev/fb0"), or why it could not.
    public private(set) var keptFrame: Result<String, KeptFrameFailure>?

    /// Why `.keep` could not leave the last frame (then the console comes back as with `.restore`).
    public struct KeptFrameFailure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    var card: DRMCard?
    let interface: KMSInterface
    var buffers: [DumbBuffer]
    var rawMode: drmModeModeInfo
    private var saved: SavedCrtc?
    /// The way planned for the first frame (read from the CRTC at start), until it is presented.
    private var firstFramePlan: FirstFrame?
    private var firstFrameShown = false
    var queued: [DisplayEvent] = []
    let sink = FlipSink()
    /// Which frame each buffer holds, for `FrameTarget.age`.
    var ages: BufferAges
    /// The damage (scanout pixels, nil: all) the last frame's paint returned, for damage clips.
    public private(set) var lastDamage: [PixelRect]?
    /// The output is switched off (blank, KMSDisplay+Power): the record of the kernel call, set
    /// as the app's ScreenPower (the owner of "is the screen dark") says; the next present
    /// switches it on.
    public internal(set) var isPoweredOff = false
    /// The `mode:` asked for at start: a replugged connector gets it again when it offers it.
    public var modeRequest: ModeRequest?
    /// Where the display says what it cannot act on (an impossible page-flip step); `run`
    /// passes its warning log.
    public var log: (String) -> Void = { _ in }

    /// Takes ownership of `card` (already master), picks the KMS interface for `api`, reads
    /// the CRTC's state (to restore, and to decide the first frame), creates `bufferCount`
    /// buffers of the mode's size.
    public init(card: DRMCard, probed: ProbedCard, selection: OutputSelection, bufferCount: Int = 2,
                api: KMSAPI.Request = .auto) throws(DisplayError) {
        guard let raw = probed.rawMode(selection.mode, connector: selection.connector.id) else {
            throw DisplayError(.setCrtc(selection.crtcID), code: EINVAL)
        }
        interface = try KMSDisplay.interface(card: card, crtcIDs: probed.info.crtcIDs, selection: selection, request: api)
        self.card = card
        self.selection = selection
        self.rawMode = raw
        monotonicTimestamps = (try? card.capability(UInt64(DRM_CAP_TIMESTAMP_MONOTONIC), named: "DRM_CAP_TIMESTAMP_MONOTONIC")) == 1
        var made: [DumbBuffer] = []
        for _ in 0..<max(2, bufferCount) {
            made.append(try DumbBuffer(card: card, width: selection.mode.width, height: selection.mode.height))
        }
        buffers = made
        ages = BufferAges(count: made.count)
        let route = CRTCRoute(crtcID: selection.crtcID, connector: selection.connector, mode: selection.mode, rawMode: raw)
        let (saved, running) = try KMSObjects.crtcState(card: card, route: route, info: probed.info)
        self.saved = saved
        firstFramePlan = FirstFrame.decide(running: running, connector: selection.connector.name,
                                           mode: ModeTiming(raw), modeSummary: selection.mode.summary)
    }

    deinit { close() }

    public var isActive: Bool { suspendedBy.isEmpty && card != nil }

    /// The flip state's answer: every present (a modeset too, which is followed by a flip at
    /// once) leaves a flip queued, answered by one flip event.
    public var isFlipPending: Bool { flipState.isFlipPending }

    /// The API this display drives its output with.
    public var api: KMSAPI { interface.api }

    /// True when the primary plane takes FB_DAMAGE_CLIPS (atomic only).
    public var takesDamageClips: Bool { interface.takesDamageClips }

    /// The CRTC, connector and mode as they are now (a hotplug may change them).
    var route: CRTCRoute {
        CRTCRoute(crtcID: selection.crtcID, connector: selection.connector, mode: selection.mode, rawMode: rawMode)
    }

    private var sinkPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(sink).toOpaque() }

    // MARK: FramePresenter

    /// The scanout buffer's size: the mode's, i.e. the panel's (rotation is applied by the copy).
    public var frameSize: (width: Int, height: Int) { (selection.mode.width, selection.mode.height) }

    /// Paints the next free buffer and queues it. The rectangles `paint` returns (scanout
    /// pixels that differ from the previous frame; nil: all of it) go to an atomic flip as
    /// FB_DAMAGE_CLIPS.
    public func present(paint: (FrameTarget) throws -> [PixelRect]?) throws {
        guard card != nil, isActive else { throw DisplayError(.present, code: EAGAIN) }
        // Only the screen's owner (the loop's ScreenPower) switches the output on, before it
        // asks for a frame; a frame asked for while it is off is refused, not a power change.
        guard !isPoweredOff else { throw DisplayError(.present, code: EPERM) }
        guard let index = flipState.writableBuffer(count: buffers.count),
              let call = flipState.nextShowCall, let target = buffers[index].target else {
            throw DisplayError(.present, code: EBUSY)
        }
        lastDamage = try paint(ages.next(target, buffer: index))
        ages.painted(buffer: index)
        // The other new buffers get this picture too, now, before anything waits on them.
        ages.prime(besides: index, target: { [flipState, buffers] in $0 == flipState.front ? nil : buffers[$0].target },
                   paint: paint)
        let fb = buffers[index].framebufferID
        if call == .setCrtc {
            if flipOntoRunningMode(buffer: index, framebuffer: fb) { return }
            try interface.modeset(fb, on: route)
            flipState = flipState.applying(.crtcSet(buffer: index), report: log)
        }
        do throws(DisplayError) {
            try interface.flip(fb, on: route, kind: .next(damage: lastDamage), userData: sinkPointer)
        } catch {
            // EINVAL: the CRTC no longer takes flips of this buffer (a mode or connector change
            // under us): the next frame sets the CRTC again instead of flipping.
            if error.code == EINVAL { flipState = flipState.applying(.outputLost, report: log) }
            throw error
        }
        flipState = flipState.applying(.flipQueued(buffer: index), report: log)
    }

    /// The very first frame: flipped onto the CRTC as it runs when the plan says so and the
    /// driver takes it (true), so the console or splash goes straight to the dial; otherwise
    /// (false) the caller modesets, and `firstFrame` says why.
    private func flipOntoRunningMode(buffer: Int, framebuffer: UInt32) -> Bool {
        guard let plan = firstFramePlan else { return false }
        firstFramePlan = nil
        guard plan == .flipOntoRunningMode else {
            firstFrame = plan
            return false
        }
        do throws(DisplayError) {
            try interface.flip(framebuffer, on: route, kind: .ontoRunningMode, userData: sinkPointer)
        } catch {
            firstFrame = .modeset(because: .flipRefused(error.description))
            return false
        }
        firstFrame = .flipOntoRunningMode
        flipState = flipState.applying(.firstFlipQueued(buffer: buffer), report: log)
        return true
    }

    /// Drops the plan to flip onto the running mode before the first frame (blanked or
    /// suspended first: what runs then is no longer what was read at start).
    func forgetRunningMode(because reason: FirstFrame.ModesetReason) {
        if firstFramePlan == .flipOntoRunningMode { firstFramePlan = .modeset(because: reason) }
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
                guard isActive else { continue }
                let time = frameTime(sec: sec, usec: usec)
                queued.append(.frameShown(time: time))
                if !firstFrameShown, let firstFrame {
                    firstFrameShown = true
                    onFirstFrame?(firstFrame, time)
                }
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

    // MARK: Teardown

    /// Restores the CRTC (when master), then releases buffers and the card. Safe to call
    /// twice. With `onExit == .keep` the frame on screen is first copied into the console's
    /// framebuffer (ConsoleFramebuffer), which the restore then shows: the dial stays without a
    /// modeset, and without depending on our framebuffers, which the kernel removes with the card.
    public func close() {
        guard let card else { return }
        waitForPendingFlip()
        let master = !suspendedBy.contains(.vtReleased)
        if onExit == .keep {
            if let front = flipState.front, master, !isPoweredOff, let frame = buffers[front].target {
                keptFrame = ConsoleFramebuffer.copy(frame, driver: selection.card.driver)
            } else {
                keptFrame = .failure(KeptFrameFailure(description: "no frame of ours on screen"))
            }
        }
        // Legacy DPMS Off outlives the restore's SetCrtc in the connector's state: on first.
        if isPoweredOff && master { try? powerOn() }
        interface.restore(master ? saved : nil, on: route)
        saved = nil
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
