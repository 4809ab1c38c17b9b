import DialRender
import Glibc
import LinuxSystem
import KioskReporting
import KioskConfiguration
import KioskLoop

/// What a reload's worker decodes: the icon files of every ring and the box the painter fits
/// them to. Plain data, handed to another thread.
package struct IconJob: Sendable, Equatable {
    package var paths: [String]
    package var box: Int

    package init(paths: [String], box: Int) {
        self.paths = paths
        self.box = box
    }
}

/// Decodes a reloaded menu's icons on a thread of its own while the loop keeps running the old
/// menu (frames, input, commands, the watchdog ping), so a reload never holds a loop turn for
/// the decoding (up to `IconCache.pixelBudget`: seconds on a slow board). The loop then builds
/// the new dial and painter from the filled cache in one turn and swaps them in.
///
/// The thread gets plain data (`IconJob`) and the `IconCache` (Sendable, behind a mutex) and
/// returns nothing: what it decoded is in the cache. It owns the write end of a pipe and closes
/// it when done; the read end's hang-up wakes the loop's poll (`ReloadCompletion`). Nothing is
/// written to the pipe, so a worker outliving the loop never writes to a reused descriptor.
///
/// One reload at a time: a reload asked for while one is being prepared is remembered
/// (`pending`), and when the prepared one is done it is dropped and the file is read again, so
/// the latest request wins and sees the latest file.
package final class ReloadWorker {
    /// The kiosk's decoded icons, shared with the painter builds on the loop.
    package let icons: IconCache
    /// The job of a configuration at the current frame size.
    package let job: (KioskConfig) -> IconJob
    /// The reload being prepared and the read end of its pipe.
    private var inFlight: (config: KioskConfig, changes: ConfigReload.Changes, done: FileDescriptor)?
    /// A reload came while one was being prepared.
    package var pending = false
    /// Where the worker leaves the painter it built, for the loop to take.
    package let shelf: PainterShelf
    /// The painter build of a configuration, made on the loop (at the mode's size then) and run
    /// by the worker after the icons (nil: the loop builds the painter).
    private let painterJob: ((KioskConfig) -> @Sendable () -> Void)?

    package init(icons: IconCache, shelf: PainterShelf = PainterShelf(), job: @escaping (KioskConfig) -> IconJob,
                 painterJob: ((KioskConfig) -> @Sendable () -> Void)? = nil) {
        self.icons = icons
        self.shelf = shelf
        self.job = job
        self.painterJob = painterJob
    }

    /// A reload is being prepared.
    package var isBusy: Bool { inFlight != nil }

    /// The descriptor to poll while a reload is being prepared.
    package var pollDescriptors: [pollfd] {
        inFlight.map { [pollfd(fd: $0.done.rawValue, events: Int16(POLLIN), revents: 0)] } ?? []
    }

    /// Starts decoding the icons of `config` on a new thread.
    package func start(config: KioskConfig, changes: ConfigReload.Changes) throws {
        precondition(inFlight == nil, "one reload at a time")
        var fds: [Int32] = [-1, -1]
        // pipe2 is not in Glibc's Swift module without _GNU_SOURCE: pipe, then the flags.
        guard pipe(&fds) == 0 else { throw SystemCallError("create the reload worker's pipe", errno: errno) }
        let done = FileDescriptor(adopting: fds[0]), finished = FileDescriptor(adopting: fds[1])
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        let task = IconTask(icons: icons, job: job(config), painter: painterJob?(config), finished: finished)
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            Unmanaged<IconTask>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, Unmanaged.passRetained(task).toOpaque())
        guard rc == 0 else {
            // The task, and with it the write end, goes when this scope ends.
            Unmanaged.passUnretained(task).release()
            throw SystemCallError("start the reload worker thread", errno: rc)
        }
        pthread_detach(thread)
        inFlight = (config, changes, done)
    }

    /// The prepared reload once its worker is done (its pipe hung up), else nil.
    package func finished(_ polled: [pollfd]) -> (config: KioskConfig, changes: ConfigReload.Changes)? {
        guard let inFlight, polled.contains(where: { $0.fd == inFlight.done.rawValue && $0.revents != 0 }) else {
            return nil
        }
        self.inFlight = nil
        return (inFlight.config, inFlight.changes)
    }
}

/// One reload's decoding, then its painter build, run on its own thread: Sendable state, and
/// the pipe's write end, which the loop hands over at `start` and never touches again (hence
/// unchecked).
private final class IconTask: @unchecked Sendable {
    let icons: IconCache
    let job: IconJob
    let painter: (@Sendable () -> Void)?
    /// The pipe's write end, closed when done (the loop sees the hang-up).
    let finished: FileDescriptor

    init(icons: IconCache, job: IconJob, painter: (@Sendable () -> Void)?, finished: FileDescriptor) {
        self.icons = icons
        self.job = job
        self.painter = painter
        self.finished = finished
    }

    func run() {
        icons.warm(paths: job.paths, box: job.box)
        painter?()
        finished.close()
    }
}

/// The reload worker's pipe: its hang-up says the icons are decoded.
package struct ReloadCompletion: PollSource {
    package let service: KioskService
    package var pollDescriptors: [pollfd] { service.reloadWorker?.pollDescriptors ?? [] }
    package func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        guard let worker = service.reloadWorker, let prepared = worker.finished(polled) else { return [] }
        return [.service { [service] loop in
            try service.reloadPrepared(prepared.config, prepared.changes, at: now, on: loop)
        }]
    }

    package init(service: KioskService) {
        self.service = service
    }
}
