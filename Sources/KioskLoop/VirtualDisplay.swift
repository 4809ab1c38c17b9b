import DialCore
import Glibc
import KioskSeams

/// A display with no device: each present is shown at the next vblank of a virtual refresh,
/// answered by one `.frameShown` at that vblank's time, like a KMS page flip. `simulate` and
/// the tests run it on a virtual clock; `run --display virtual:WxH@Hz` on CLOCK_MONOTONIC, where
/// the loop's poll timeout paces the flips. Late vblanks (jitter) are a parameter; missed
/// vblanks and refused presents are what a test injects (`PresentFaults`). Its power switch behaves as KMSDisplay's: off drops
/// the pending flip's answer and stops the flips; only `powerOn` switches it on again.
package final class VirtualDisplay: FramePresenter, DisplayEventSource, TimedEventSource, OutputPowering {
    /// The vblank clock.
    package struct Timing {
        /// Refresh rate in Hz.
        package var refresh: Double
        /// Each vblank comes up to this many seconds late (uniformly, seeded).
        package var jitter = 0.0
        package var seed: UInt64 = 1

        package init(refresh: Double, jitter: Double = 0.0, seed: UInt64 = 1) {
            self.refresh = refresh
            self.jitter = jitter
            self.seed = seed
        }
    }

    /// A refused present, classified as the kernel's errno would be.
    package struct RefusedPresent: PresentFailureClassified, CustomStringConvertible {
        package var failure: PresentFailure
        package var presentFailure: PresentFailure { failure }
        package var description: String { "virtual display: present refused (\(failure))" }

        package init(failure: PresentFailure) {
            self.failure = failure
        }
    }

    package private(set) var frameSize: (width: Int, height: Int)
    /// No descriptor: the loop waits until `nextEventTime`.
    package let pollDescriptor: Int32 = -1
    private let timing: Timing
    private let faults: (any PresentFaults)?
    private let now: () -> Double
    /// Vblank 0 is at this time (0 on a virtual clock, the start on the real one).
    private let origin: Double
    private var rng: SplitMix64
    private var vblankIndex = 0
    private var nextVblank: Double
    /// Whether a flip is pending, and which buffer is on screen: the same state machine, and
    /// the same answer to "is a flip pending", as KMSDisplay's. Every present is a flip here
    /// (the first too: it is answered by a flip event, as a flip onto a running CRTC is).
    private var flipState = PageFlipState.nothingPosted
    /// When the pending flip lands (read only while `flipState` has one pending).
    private var flipTime = 0.0
    /// Scanout buffers, painted in turn, and which frame each holds.
    private var buffers: [UnsafeMutableRawPointer]
    private var bufferBytes: Int
    private let populate: Bool
    /// A mode change's events, said at the next drain (`changeMode`).
    private var modeEvents: [DisplayEvent] = []
    private var ages: BufferAges
    private var back = 0
    /// Calls of `present`, and successful flips.
    package private(set) var presents = 0
    package private(set) var flips = 0
    /// When the last flip event said its frame was shown.
    package private(set) var lastShown: Double?
    /// The output is switched off (`powerOff`): no vblanks, no flips.
    private(set) var isPoweredOff = false
    /// Presents refused because the output was off: the screen's owner (ScreenPower) switches
    /// it on before any frame, so a count above 0 is a disagreement tests look for.
    private(set) var presentsWhileOff = 0
    /// Presents refused because a flip was pending: the loop asks this display (the one holder
    /// of "a flip is pending") before it queues a frame, so a count above 0 is a schedule that
    /// did not ask, which tests look for.
    package private(set) var presentsWhilePending = 0
    /// True while a presented frame's flip event is still to come (the flip state's answer).
    package var isFlipPending: Bool { flipState.isFlipPending }

    /// `buffers`: how many scanout buffers take frames in turn (2 or 3 as `run --buffers` on KMS;
    /// `run`'s own virtual display takes 1, as nothing scans it out).
    /// `populate`: map the buffers' pages now (MAP_POPULATE, as KMS's dumb buffers are), and
    /// write the first frame into every buffer (`BufferAges.prime`, as KMSDisplay does), for a
    /// display frames are copied into (`run`, `bench`); `simulate` copies none and leaves them
    /// unmapped, so its resident figure is the process's own.
    /// `faults`: what the presents meet besides the vblank clock (none but in a test).
    package init(width: Int, height: Int, timing: Timing, buffers count: Int = 2, origin: Double = 0,
                 populate: Bool = false, faults: (any PresentFaults)? = nil, now: @escaping () -> Double) {
        frameSize = (width, height)
        self.timing = timing
        self.faults = faults
        self.origin = origin
        self.now = now
        rng = SplitMix64(seed: timing.seed)
        nextVblank = origin
        bufferBytes = max(1, width * height * 4)
        self.populate = populate
        buffers = Self.mapBuffers(max(1, count), bytes: bufferBytes, populate: populate)
        ages = BufferAges(count: max(1, count))
        nextVblank = vblank(0)
    }

    deinit { buffers.forEach { munmap($0, bufferBytes) } }

    /// Shared anonymous mappings, as dumb buffers are shmem on vkms and virtio-gpu: the kernel's
    /// zeroed pages, counted as RssShmem (not the process's own RssAnon) and resident only once
    /// a frame is copied in, or at once with `populate`.
    private static func mapBuffers(_ count: Int, bytes: Int, populate: Bool) -> [UnsafeMutableRawPointer] {
        let flags = MAP_SHARED | MAP_ANONYMOUS | (populate ? MAP_POPULATE : 0)
        return (0..<count).map { _ in
            guard let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, flags, -1, 0),
                  memory != MAP_FAILED else {
                fatalError("virtual display: cannot map \(bytes) bytes for a scanout buffer (errno \(errno))")
            }
            return memory
        }
    }

    /// A hotplug's new mode, as KMSDisplay's `reprobe` reports a re-modeset: the output is lost
    /// (a pending flip's answer with it), new buffers take the new size, and the next drain
    /// says `.suspended`, `.resized`, `.resumed`.
    func changeMode(width: Int, height: Int) {
        flipState = flipState.applying(.outputLost) { _ in }
        buffers.forEach { munmap($0, bufferBytes) }
        bufferBytes = max(1, width * height * 4)
        buffers = Self.mapBuffers(buffers.count, bytes: bufferBytes, populate: populate)
        ages = BufferAges(count: buffers.count)
        back = 0
        frameSize = (width, height)
        modeEvents = [.suspended, .resized(width: width, height: height), .resumed]
    }

    /// The refresh period in seconds.
    package var refreshPeriod: Double { 1 / timing.refresh }

    package func present(paint: (FrameTarget) throws -> [PixelRect]?) throws {
        presents += 1
        // As KMSDisplay: only the screen's owner switches the output on; a frame asked for
        // while it is off is refused (and counted: tests look for it).
        if isPoweredOff {
            presentsWhileOff += 1
            throw RefusedPresent(failure: .denied)
        }
        // A frame queued while one is pending is what the kernel refuses with EBUSY.
        guard !flipState.isFlipPending else {
            presentsWhilePending += 1
            throw RefusedPresent(failure: .busy)
        }
        let (width, height) = frameSize
        let target = FrameTarget(base: buffers[back], width: width, height: height, stride: width * 4)
        _ = try paint(ages.next(target, buffer: back))
        ages.painted(buffer: back)
        // As KMSDisplay, where frames are copied in: the other new buffers get this picture too.
        if populate {
            ages.prime(besides: back, target: { [buffers] in
                FrameTarget(base: buffers[$0], width: width, height: height, stride: width * 4)
            }, paint: paint)
        }
        // Refused after the paint, as a flip is: the next frame goes into the same buffer.
        if let failure = faults?.refusal(ofPresent: presents) { throw RefusedPresent(failure: failure) }
        flips += 1
        let queued = back
        back = (back + 1) % buffers.count
        var shown = firstVblank(after: now())
        if faults?.missesVblank(flip: flips) == true { shown = firstVblank(after: shown) }
        flipTime = shown
        flipState = flipState.applying(flipState == .nothingPosted ? .firstFlipQueued(buffer: queued) : .flipQueued(buffer: queued)) {
            preconditionFailure("virtual display: \($0)")
        }
    }

    package func nextEventTime(now: Double) -> Double? {
        modeEvents.isEmpty ? (flipState.isFlipPending ? flipTime : nil) : now
    }

    /// Off after the pending flip, whose answer is dropped (as KMSDisplay's `powerOff`).
    package func powerOff() throws {
        isPoweredOff = true
        flipState = flipState.applying(.outputLost) { _ in }
    }

    package func powerOn() throws {
        isPoweredOff = false
    }

    /// Served every turn: the vblanks that passed by now are counted whether or not a frame is
    /// queued, as a CRTC's counter runs, so the seeded jitter of a vblank depends only on the
    /// times the loop visited, not on when it presented.
    package func drainDisplayEvents() throws -> [DisplayEvent] {
        let time = now()
        _ = firstVblank(after: time)
        if !modeEvents.isEmpty {
            defer { modeEvents.removeAll() }
            return modeEvents
        }
        guard flipState.isFlipPending, flipTime <= time else { return [] }
        let shown = flipTime
        flipState = flipState.applying(.flipCompleted) { preconditionFailure("virtual display: \($0)") }
        lastShown = shown
        return [.frameShown(time: shown)]
    }

    private func vblank(_ k: Int) -> Double {
        origin + Double(k) * refreshPeriod + (timing.jitter > 0 ? Double.random(in: 0..<timing.jitter, using: &rng) : 0)
    }

    /// The first vblank after `time`. Vblanks that passed while nothing was queued are not
    /// waited for; the clock stays below `VirtualTime.maximumSeconds`, so the vblank number
    /// fits an Int exactly.
    private func firstVblank(after time: Double) -> Double {
        if nextVblank <= time {
            let passed = min(((time - origin) / refreshPeriod).rounded(.down), 0x1p53)
            vblankIndex = max(vblankIndex + 1, Int(passed))
            nextVblank = vblank(vblankIndex)
            while nextVblank <= time {
                vblankIndex += 1
                nextVblank = vblank(vblankIndex)
            }
        }
        return nextVblank
    }
}
