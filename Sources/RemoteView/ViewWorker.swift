import DialRender
import Glibc
import KioskLoop
import KioskReporting
import KioskSeams
import LinuxSystem
import Synchronization

/// What the frame loop and the view's worker share, behind one lock: the hand-over panel and
/// its damage (loop to worker, latest wins), the options, and what viewers did (worker to
/// loop). Whoever holds the lock only copies: the loop the damaged pixels in, the worker the
/// same pixels out, or a few plain values. The loop never waits for it (`withLockIfAvailable`).
final class ViewHandover: @unchecked Sendable {
    /// Guards every field below (they stay plain fields, read and written only inside
    /// `withLock`/`withLockIfAvailable`, hence the unchecked Sendable).
    private let mutex = Mutex<Void>(())

    /// The panel as the loop last handed it over; the worker copies `damage` out of it.
    var panel = PixelBuffer(width: 0, height: 0)
    /// Panel rectangles changed since the worker last took (nil: all of it). Many collapse
    /// into their bounding box, so this stays a few hundred bytes.
    var damage: [PixelRect]? = []
    var fresh = false
    var options: RemoteViewServer.Options
    var stop = false
    /// The worker's last step is done and its viewers closed.
    var ended = false
    /// Input viewers gave, for the loop (bounded: the worker reads no more while
    /// `inputLimit` events wait).
    var inputs: [InputEvent] = []
    var news: [RemoteViewServer.ViewerNews] = []
    var logs: [String] = []
    var viewerCount = 0
    var updateBytes = 0
    var updateCount = 0
    var encodedOn: [pthread_t] = []

    static let maximumRects = 32
    static let inputLimit = 256

    init(options: RemoteViewServer.Options) {
        self.options = options
    }

    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        try mutex.withLock { _ in try body() }
    }

    /// `body` under the lock if nobody holds it, else nil (the caller tries again later).
    func withLockIfAvailable<R>(_ body: () -> R) -> R? {
        mutex.withLockIfAvailable { _ in body() }
    }

    /// Adds panel rectangles to `damage` (nil: all).
    func damaged(_ rects: [PixelRect]?) {
        guard let rects, var damage else { damage = nil; return }
        damage += rects
        if damage.count > Self.maximumRects { damage = [PixelRect.bounds(of: damage)] }
        self.damage = damage
    }
}

extension PixelRect {
    /// The smallest rectangle holding all of `rects` (not empty).
    static func bounds(of rects: [PixelRect]) -> PixelRect {
        var box = rects[0]
        for r in rects.dropFirst() {
            box = PixelRect(x0: min(box.x0, r.x0), y0: min(box.y0, r.y0), x1: max(box.x1, r.x1), y1: max(box.y1, r.y1))
        }
        return box
    }
}

/// Copies `rects` (nil: all) of `source` into `target` of the same size, row by row.
func copyPixels(_ rects: [PixelRect]?, from source: PixelBuffer, into target: inout PixelBuffer) {
    precondition(source.width == target.width && source.height == target.height, "panels of one size")
    let all = [PixelRect(x0: 0, y0: 0, x1: source.width, y1: source.height)]
    let from = source.rowPitch, to = target.rowPitch
    source.withUnsafePixels { s in
        target.withUnsafeMutablePixels { t in
            for r in rects ?? all {
                let r = r.clipped(width: source.width, height: source.height)
                guard !r.isEmpty else { continue }
                for y in r.y0..<r.y1 {
                    (t + y * to + r.x0).update(from: s + y * from + r.x0, count: r.x1 - r.x0)
                }
            }
        }
    }
}

/// The remote view's worker thread: a poll of its own over a wake-up pipe and `ViewerHub`'s
/// sockets. Each step takes the hand-over (the damaged pixels since the last), runs the hub
/// (reads, encodes, writes, accepts) and leaves what viewers did in the hand-over, with a byte
/// on the news pipe the loop polls. It runs below the loop's priority, like the reload worker:
/// a viewer served a little later is better than a flip missed.
final class ViewWorker: @unchecked Sendable {
    static let nice: Int32 = 10

    private let hub: ViewerHub
    private let shared: ViewHandover
    /// Loop to worker: a byte says "look at the hand-over". Worker to loop: "look at the news".
    private let wakeRead: FileDescriptor, wakeWrite: FileDescriptor
    let newsRead: FileDescriptor
    private let newsWrite: FileDescriptor
    private var thread: SystemThread?
    /// What the hub told during a step, published at its end (the worker's own).
    private var news: [RemoteViewServer.ViewerNews] = []
    private var logs: [String] = []

    init(hub: ViewerHub, shared: ViewHandover) throws {
        self.hub = hub
        self.shared = shared
        (wakeRead, wakeWrite) = try Self.pipe("wake-up")
        (newsRead, newsWrite) = try Self.pipe("news")
        hub.onViewer = { [unowned self] in news.append($0) }
        hub.log = { [unowned self] in logs.append($0) }
    }

    private static func pipe(_ name: String) throws -> (FileDescriptor, FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        // pipe2 is not in Glibc's Swift module without _GNU_SOURCE: pipe, then the flags.
        guard Glibc.pipe(&fds) == 0 else { throw SystemCallError("create the remote view's \(name) pipe", errno: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        return (FileDescriptor(adopting: fds[0]), FileDescriptor(adopting: fds[1]))
    }

    func start() throws {
        do {
            thread = try SystemThread.start("remote view's worker") { self.run() }
        } catch {
            throw SystemCallError("start the remote view's worker thread", errno: error.code)
        }
    }

    /// Wakes the worker (a full pipe already says so).
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite.rawValue, &byte, 1)
    }

    /// Stops the worker and waits for it: its viewers are closed when this returns.
    func stop() {
        guard let thread else { return }
        shared.withLock { shared.stop = true }
        wake()
        thread.join()
        self.thread = nil
    }

    /// Empties a pipe's bytes (they only say "look").
    static func drain(_ fd: FileDescriptor) {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(fd.rawValue, &bytes, bytes.count) == bytes.count {}
    }

    private func run() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.nice)
        while step(block: true) {}
        hub.close()
        publish([])
        shared.withLock { shared.ended = true }
    }

    /// One step: waits (`block`) for a socket, the wake-up pipe or the hub's next time, takes
    /// the hand-over, serves the hub and publishes; false once the loop asked it to stop.
    func step(block: Bool) -> Bool {
        var fds = [pollfd(fd: wakeRead.rawValue, events: Int16(POLLIN), revents: 0)] + hub.pollDescriptors
        let before = monotonicNow()
        let timeout = hub.wakeUp(now: before).map { Int32(min(max(0, ($0 - before) * 1000).rounded(.up), 60_000)) } ?? -1
        _ = poll(&fds, nfds_t(fds.count), block ? timeout : 0)
        if fds[0].revents != 0 { Self.drain(wakeRead) }
        let now = monotonicNow()
        let stopping: Bool = shared.withLock {
            if shared.fresh {
                hub.take(from: shared.panel, rects: shared.damage)
                shared.damage = []
                shared.fresh = false
            }
            hub.options = shared.options
            hub.holdInput = shared.inputs.count >= ViewHandover.inputLimit
            return shared.stop
        }
        if stopping { return false }
        let inputs = hub.serve(Array(fds.dropFirst()), now: now)
        publish(inputs)
        return true
    }

    /// What this step brought, into the hand-over; a byte on the news pipe when the loop has
    /// something to act on.
    private func publish(_ inputs: [InputEvent]) {
        let tell = !inputs.isEmpty || !news.isEmpty || !logs.isEmpty
        shared.withLock {
            shared.inputs += inputs
            shared.news += news
            shared.logs += logs
            shared.viewerCount = hub.viewerCount
            shared.updateBytes = hub.updateBytes
            shared.updateCount = hub.updateCount
            shared.encodedOn = hub.encodedOn
        }
        news.removeAll()
        logs.removeAll()
        if tell {
            var byte: UInt8 = 1
            _ = write(newsWrite.rawValue, &byte, 1)
        }
    }
}
