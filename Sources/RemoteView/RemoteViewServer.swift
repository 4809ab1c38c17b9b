import DialRender
import Glibc
import KioskLoop
import KioskSeams
import LinuxSystem

/// The remote view as the frame loop sees it: an RFB server whose viewers are served off the
/// loop. After each paint the loop copies the frame's damage into the view's panel (turned,
/// dimmed, marked as the glass shows it) and hands the same rectangles over to the worker
/// (`ViewWorker`), which reads, encodes and writes for every viewer in a poll of its own. The
/// loop polls one pipe on which the worker says viewers did something (input, arrival,
/// departure); it never waits for the worker: a hand-over that finds the worker copying is
/// tried again a moment later, with the damage added up (latest frame wins).
package final class RemoteViewServer: PollSource {
    /// How the server runs; `input`, `maxFPS`, `mark` may change on a reload.
    package struct Options: Sendable, Equatable {
        /// Plain RFB (nil: none).
        package var listen: ListenAddress?
        /// RFB over WebSocket at `/websockify`, and the files of `webRoot` over HTTP (nil: none).
        package var websocket: ListenAddress?
        /// The web client's directory served on the WebSocket address (Debian's noVNC).
        package var webRoot: String?
        /// Viewers may turn the dial.
        package var input: Bool
        package var maxFPS: Double
        package var maximumViewers: Int
        /// The "being viewed" mark on the glass while a viewer is connected (`ViewMark`).
        package var mark: Bool
        /// Host names the WebSocket address answers besides loopback (`remote.allowed_hosts`).
        package var allowedHosts: [String]
        /// Origins whose pages may open the WebSocket besides the page's own (`remote.allowed_origins`).
        package var allowedOrigins: [String]
        /// The secret the upgrade's path must carry (`preview`'s, made per run).
        package var token: String?
        /// A file holding that secret (`remote.token_file`), read at the start.
        package var tokenFile: String?
        /// The group a Unix socket is given, with modes for it (`remote.socket_group`; nil: owner only).
        package var socketGroup: String?

        package init(listen: ListenAddress?, websocket: ListenAddress? = nil, webRoot: String? = nil, input: Bool = false,
                     maxFPS: Double = 30, maximumViewers: Int = 8, mark: Bool = false, allowedHosts: [String] = [],
                     allowedOrigins: [String] = [], token: String? = nil, tokenFile: String? = nil, socketGroup: String? = nil) {
            self.mark = mark
            self.allowedHosts = allowedHosts
            self.allowedOrigins = allowedOrigins
            self.token = token
            self.tokenFile = tokenFile
            self.socketGroup = socketGroup
            self.listen = listen
            self.websocket = websocket
            self.webRoot = webRoot
            self.input = input
            self.maxFPS = maxFPS
            self.maximumViewers = maximumViewers
        }
    }

    /// A viewer whose handshake is done, or that left after it.
    package struct ViewerNews: Sendable, Equatable {
        package var connected: Bool
        /// "127.0.0.1:40112", "[::1]:40112" or "unix".
        package var peer: String
        package var input: Bool
    }

    /// Pixels encoded per worker step over all viewers.
    static let pixelsPerTurn = ViewerHub.pixelsPerTurn
    /// A hand-over that found the worker copying is tried again this much later.
    static let retrySeconds = 0.002

    package var options: Options {
        didSet {
            let options = options
            shared.withLock { shared.options = options }
            worker.wake()
        }
    }
    package let port: Int?
    package let webPort: Int?
    private let frame: ViewFrame
    private let shared: ViewHandover
    private let worker: ViewWorker
    private var closed = false
    private let log: (String) -> Void
    /// Told of each viewer's arrival (after its handshake) and departure.
    package var onViewer: (ViewerNews) -> Void = { _ in }
    /// What the glass shows now (the screen's owner knows; the app sets this): a dimmed glass
    /// is sent dimmed, a dark one black.
    package var look: () -> ScreenLook = { .lit }
    /// Viewers announced by a `viewer` line and not yet gone: the count `<base>/state` gives.
    package private(set) var watching = 0
    /// The mark is on the glass: `mark` is on and someone watches.
    package var markShown: Bool { options.mark && watching > 0 }
    /// What the view's panel holds: black for a dark glass, halved for a dim one, the mark.
    private var panelDark = false
    private var panelDimmed = false
    private var panelMarked = false
    /// Damage not handed over yet (the worker held the lock); `unsentAll`: the whole panel.
    private var unsent: [PixelRect] = []
    private var unsentAll = false
    /// The worker said something waits in the hand-over, not taken yet.
    private var newsWaiting = false

    /// Listens on `options.listen` (errors here, before any thread starts) and starts the
    /// worker. `rotation`: how the logical frames the app hands in are turned on the panel.
    /// `keyCommand`: the kiosk's key map by evdev code (called on the worker; a pure lookup).
    package init(options: Options, rotation: DisplayRotation, keyCommand: @escaping (UInt32) -> StepCommand?,
                 log: @escaping (String) -> Void) throws {
        self.options = options
        let hub = try ViewerHub(options: options, rotation: rotation, keyCommand: keyCommand)
        port = hub.port
        webPort = hub.webPort
        shared = ViewHandover(options: options)
        worker = try ViewWorker(hub: hub, shared: shared)
        frame = ViewFrame(rotation: rotation)
        self.log = log
        try worker.start()
    }

    deinit { close() }

    /// Viewers whose handshake is done.
    package var viewerCount: Int { shared.withLock { shared.viewerCount } }
    /// The panel as viewers get it (what a screenshot shows).
    package var panel: PixelBuffer { frame.panel }
    /// Bytes queued in updates and updates started, over all viewers so far (benchmarks).
    package var updateBytes: Int { shared.withLock { shared.updateBytes } }
    package var updateCount: Int { shared.withLock { shared.updateCount } }
    /// The worker has closed its viewers and returned (after `close`, always).
    var workerEnded: Bool { shared.withLock { shared.ended } }
    /// The threads that encoded an update so far.
    var encodedOn: [pthread_t] { shared.withLock { shared.encodedOn } }

    /// Stops the worker (it closes every viewer and the listeners) and waits for it.
    package func close() {
        guard !closed else { return }
        closed = true
        worker.stop()
        // Refusals held back by the once-per-10-s limit, counted at the end.
        for line in shared.withLock({ shared.logs }) { log(line) }
        shared.withLock { shared.logs.removeAll() }
    }

    /// The painter's logical frame just painted and its damage (nil: all): copied into the
    /// panel where it changed, and those rectangles handed over to the worker.
    package func take(_ logical: PixelBuffer, damage: [PixelRect]?) {
        let now = look()
        let dimmed = now == .dimmedByPaint || now == .dimmedByBacklight
        // After black, a change of dimming, or the mark coming or going, the whole panel.
        let whole = panelDark || dimmed != panelDimmed || markShown != panelMarked
        panelDark = false
        panelDimmed = dimmed
        panelMarked = markShown
        let (rects, resized) = frame.take(logical, damage: whole ? nil : damage, dimmed: dimmed, mark: markShown)
        unsent += rects
        if resized { unsentAll = true }
        if unsent.count > ViewHandover.maximumRects { unsent = [PixelRect.bounds(of: unsent)] }
        handOver()
    }

    /// Copies the unsent damage into the hand-over if the worker is not copying out of it now,
    /// and wakes the worker.
    private func handOver() {
        guard !closed, unsentAll || !unsent.isEmpty else { return }
        let panel = frame.panel
        let all = unsentAll
        let rects = unsent
        let done: Void? = shared.withLockIfAvailable {
            var whole = all
            if shared.panel.width != panel.width || shared.panel.height != panel.height {
                shared.panel = PixelBuffer(width: panel.width, height: panel.height)
                whole = true
            }
            copyPixels(whole ? nil : rects, from: panel, into: &shared.panel)
            shared.damaged(whole ? nil : rects)
            shared.fresh = true
        }
        guard done != nil else { return }
        unsent.removeAll(keepingCapacity: true)
        unsentAll = false
        worker.wake()
    }

    package var pollDescriptors: [pollfd] {
        closed ? [] : [pollfd(fd: worker.newsRead.rawValue, events: Int16(POLLIN), revents: 0)]
    }

    /// Now when the glass went dark (the panel follows); soon when a hand-over or news waits
    /// for the lock.
    package func wakeUp(now: Double) -> Double? {
        if look().isDark && !panelDark && frame.panel.width > 0 { return now }
        if unsentAll || !unsent.isEmpty || newsWaiting { return now + Self.retrySeconds }
        return nil
    }

    package func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        guard !closed else { return [] }
        // A dark glass is painted by nobody (no frame comes): the panel goes black here.
        if look().isDark && !panelDark && frame.panel.width > 0 {
            frame.blacken()
            panelDark = true
            unsentAll = true
        }
        handOver()
        if polled.first.map({ $0.revents != 0 }) ?? false {
            ViewWorker.drain(worker.newsRead)
            newsWaiting = true
        }
        guard newsWaiting else { return [] }
        // Not waiting for the worker here either: news it is still publishing is taken in a
        // moment (`wakeUp`).
        guard let (inputs, news, logs): ([InputEvent], [ViewerNews], [String]) = shared.withLockIfAvailable({
            defer { (shared.inputs, shared.news, shared.logs) = ([], [], []) }
            return (shared.inputs, shared.news, shared.logs)
        }) else { return [] }
        newsWaiting = false
        for line in logs { log(line) }
        let marked = markShown
        for n in news {
            watching += n.connected ? 1 : -1
            onViewer(n)
        }
        var happened: [LoopEvent] = inputs.isEmpty ? [] : [.input(inputs)]
        // The mark comes or goes with the first viewer and the last: a frame puts it on the glass.
        if markShown != marked {
            happened.append(.requests([.repaint]))
        }
        return happened
    }
}
