import DialRender
import Glibc
import KioskLoop
import KioskSeams
import LinuxSystem

/// The remote view: an RFB server that is one more source in the frame loop's poll. Viewers'
/// sockets are non-blocking and each turn does bounded work for each (at most `readBudget`
/// bytes read, one update encoded, what the socket takes written). Frames come from the app
/// after each paint (`take`): only their damage is copied in and added to every viewer's
/// dirty region; a viewer gets an update when it asked for one, something changed and its fps
/// cap allows, and only once its last update has left: a slow viewer skips frames (its damage
/// adds up) and never holds the loop. Per viewer at most one encoded update is held (at most a
/// raw frame, 4 bytes a pixel).
package final class RemoteViewServer: PollSource {
    /// How the server runs; `input`, `maxFPS` may change on a reload.
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

        package init(listen: ListenAddress?, websocket: ListenAddress? = nil, webRoot: String? = nil, input: Bool = false,
                     maxFPS: Double = 30, maximumViewers: Int = 8, mark: Bool = false) {
            self.mark = mark
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

    static let readBudget = 16 * 1024
    /// Pixels encoded per turn, over all viewers: a 1080p update spreads over several turns
    /// rather than holding one (a fraction of a millisecond to a few, by encoding).
    static let pixelsPerTurn = 128 * 1024
    /// Turns served, for the order viewers are encoded in.
    private var turns = 0
    static let acceptsPerTurn = 4
    /// A viewer that has not finished its handshake by then is closed.
    static let handshakeSeconds = 10.0

    private final class Viewer {
        let socket: FileDescriptor
        let peer: String
        let session: ViewerSession
        let since: Double
        var input = ViewerInput()
        var announced = false
        var hungUp = false
        /// Before the upgrade: the HTTP request (nil: plain RFB, or upgraded).
        var web: WebFront?
        /// After the upgrade: WebSocket framing (nil: plain RFB).
        var frames: WebSocketFrames?
        /// Bytes framed or answered, still to send (WebSocket and HTTP only).
        var wire: [UInt8] = []
        /// Close once `wire` has left (an HTTP answer).
        var closeAfterWire = false

        init(socket: FileDescriptor, peer: String, session: ViewerSession, since: Double) {
            self.socket = socket
            self.peer = peer
            self.session = session
            self.since = since
        }
    }

    package var options: Options
    /// The plain RFB listener and the WebSocket one, either may be absent.
    private let listeners: [(socket: FileDescriptor, web: Bool)]
    private let frame: ViewFrame
    private var viewers: [Viewer] = []
    private let keyCommand: (UInt32) -> StepCommand?
    private let log: (String) -> Void
    /// Told of each viewer's arrival (after its handshake) and departure.
    package var onViewer: (ViewerNews) -> Void = { _ in }
    private var refused = 0
    private var lastRefusalLog = -Double.infinity

    /// Listens on `options.listen`. `rotation`: how the logical frames the app hands in are
    /// turned on the panel. `keyCommand`: the kiosk's key map by evdev code.
    package init(options: Options, rotation: DisplayRotation, keyCommand: @escaping (UInt32) -> StepCommand?,
                log: @escaping (String) -> Void) throws {
        self.options = options
        var listeners: [(socket: FileDescriptor, web: Bool)] = []
        if let address = options.listen { listeners.append((try ViewSocket.listen(address), false)) }
        if let address = options.websocket { listeners.append((try ViewSocket.listen(address), true)) }
        self.listeners = listeners
        frame = ViewFrame(rotation: rotation)
        self.keyCommand = keyCommand
        self.log = log
    }

    deinit { close() }

    /// The TCP port of plain RFB (nil for a Unix socket or none).
    package var port: Int? { listeners.first { !$0.web }.flatMap { ViewSocket.port(of: $0.socket.rawValue) } }
    /// The TCP port of the WebSocket address.
    package var webPort: Int? { listeners.first { $0.web }.flatMap { ViewSocket.port(of: $0.socket.rawValue) } }
    /// Viewers whose handshake is done.
    package var viewerCount: Int { viewers.filter { $0.session.isReady && !$0.session.isClosed }.count }
    /// Viewers announced by a `viewer` line and not yet gone: the count `<base>/state` gives.
    package private(set) var watching = 0
    /// What the glass shows now (the screen's owner knows; the app sets this): a dimmed glass
    /// is sent dimmed, a dark one black.
    package var look: () -> ScreenLook = { .lit }
    /// The mark is on the glass: `mark` is on and someone watches.
    package var markShown: Bool { options.mark && watching > 0 }
    /// What the view's panel holds: black for a dark glass, halved for a dim one, the mark.
    private var panelDark = false
    private var panelDimmed = false
    private var panelMarked = false
    /// The panel as viewers get it (what a screenshot shows).
    package var panel: PixelBuffer { frame.panel }
    /// Bytes queued in updates and updates sent, over all viewers so far (benchmarks).
    package private(set) var updateBytes = 0
    package private(set) var updateCount = 0

    /// Closes every viewer and the listener (a Unix socket's file is removed).
    package func close() {
        // Refusals held back by the once-per-10-s limit are counted at the end too.
        if refused > 0 { log("remote view: refused \(refused) viewer\(refused == 1 ? "" : "s") since the last such line") }
        refused = 0
        for v in viewers { v.socket.close() }
        viewers.removeAll()
        for (socket, web) in listeners where socket.isOpen {
            if case .unix(let path) = web ? options.websocket : options.listen { unlink(path) }
            socket.close()
        }
    }

    /// The painter's logical frame just painted and its damage (nil: all): copied in where it
    /// changed and added to each viewer's dirty region.
    package func take(_ logical: PixelBuffer, damage: [PixelRect]?) {
        let now = look()
        let dimmed = now == .dimmedByPaint || now == .dimmedByBacklight
        // After black, a change of dimming, or the mark coming or going, the whole panel.
        let whole = panelDark || dimmed != panelDimmed || markShown != panelMarked
        panelDark = false
        panelDimmed = dimmed
        panelMarked = markShown
        let (rects, resized) = frame.take(logical, damage: whole ? nil : damage, dimmed: dimmed, mark: markShown)
        for v in viewers {
            if resized { v.session.resize(width: frame.panel.width, height: frame.panel.height) }
            v.session.damaged(rects)
        }
    }

    private var minimumInterval: Double { options.maxFPS > 0 ? 1 / options.maxFPS : 0 }

    package var pollDescriptors: [pollfd] {
        var fds = listeners.filter { $0.socket.isOpen }.map { pollfd(fd: $0.socket.rawValue, events: Int16(POLLIN), revents: 0) }
        for v in viewers {
            let writing = v.session.pendingOutput > 0 || !v.wire.isEmpty
            let events = (v.session.wantsInput ? Int16(POLLIN) : 0) | (writing ? Int16(POLLOUT) : 0)
            fds.append(pollfd(fd: v.socket.rawValue, events: events, revents: 0))
        }
        return fds
    }

    /// The next update a viewer may get (its fps cap) and the next handshake that runs out.
    package func wakeUp(now: Double) -> Double? {
        var times: [Double] = []
        // The glass went dark: the viewers' panel follows in the next turn.
        if look().isDark && !panelDark && frame.panel.width > 0 { times.append(now) }
        for v in viewers {
            if !v.session.isReady { times.append(v.since + Self.handshakeSeconds) }
            // An update half encoded goes on in the next turn, at once.
            if v.session.isEncoding && v.wire.isEmpty { times.append(now) }
            if v.session.pendingOutput == 0, v.wire.isEmpty, let t = v.session.nextUpdate(minimumInterval: minimumInterval) { times.append(max(t, now)) }
        }
        return times.min()
    }

    package func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        let open = listeners.filter { $0.socket.isOpen }
        guard polled.count >= open.count else { return [] }
        var events: [InputEvent] = []
        // A dark glass is painted by nobody (no frame comes): the panel goes black here.
        if look().isDark && !panelDark && frame.panel.width > 0 {
            frame.blacken()
            panelDark = true
            for v in viewers { v.session.damaged(nil) }
        }
        let marked = markShown
        // Descriptors polled this turn are the listeners, then the viewers present when the
        // turn began, in order.
        let served = Array(viewers.prefix(polled.count - open.count))
        for (v, p) in zip(served, polled.dropFirst(open.count)) {
            if p.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { read(v, now: now, into: &events) }
            if !v.session.isReady && now - v.since > Self.handshakeSeconds { v.session.close("no handshake within \(Int(Self.handshakeSeconds)) s") }
        }
        // One budget for the turn, shared by all viewers (8 viewers must not make a turn 8
        // times longer: they get their updates less often instead), starting each turn with the
        // next viewer so none always comes last.
        var budget = Self.pixelsPerTurn
        let first = viewers.isEmpty ? 0 : turns % viewers.count
        turns &+= 1
        for v in viewers[first...] + viewers[..<first] where !v.session.isClosed {
            if v.web == nil && v.wire.isEmpty && budget > 0 {
                let bytes = v.session.updateBytes
                budget -= v.session.updateIfDue(frame.panel, now: now, minimumInterval: minimumInterval, budget: budget)
                updateBytes += v.session.updateBytes - bytes
            }
            write(v)
        }
        for (l, p) in zip(open, polled) where p.revents & Int16(POLLIN) != 0 { acceptPending(l.socket, web: l.web, now: now) }
        retire(now: now, into: &events)
        var happened: [LoopEvent] = events.isEmpty ? [] : [.input(events)]
        // The mark comes or goes with the first viewer and the last: a frame puts it on the glass.
        if markShown != marked {
            happened.append(.requests([.repaint]))
        }
        return happened
    }

    private func read(_ v: Viewer, now: Double, into events: inout [InputEvent]) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var budget = Self.readBudget
        while budget > 0 && v.session.wantsInput {
            let n = buffer.withUnsafeMutableBytes { recv(v.socket.rawValue, $0.baseAddress, min($0.count, budget), Int32(MSG_DONTWAIT)) }
            if n == 0 { v.hungUp = true; v.session.close("closed the connection"); return }
            if n < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { v.session.close("read failed (\(Errno.current))") }
                return
            }
            budget -= n
            for happening in v.session.receive(unwrap(buffer[0..<n], v)) { act(happening, v, now: now, into: &events) }
        }
    }

    /// RFB bytes of what a WebSocket viewer sent (its HTTP request first); plain bytes as they are.
    private func unwrap(_ bytes: ArraySlice<UInt8>, _ v: Viewer) -> ArraySlice<UInt8> {
        if var web = v.web {
            var rest: [UInt8] = []
            let outcome = web.receive(bytes, rest: &rest)
            v.web = web
            switch outcome {
            case .waiting:
                return []
            case .answer(let reply):
                v.wire += reply
                v.closeAfterWire = true
                v.hungUp = true
                return []
            case .upgrade(let reply):
                v.wire += reply
                v.web = nil
                v.frames = WebSocketFrames()
                return unwrap(rest[...], v)
            }
        }
        guard var frames = v.frames else { return bytes }
        defer { v.frames = frames }
        do {
            let payload = try frames.receive(bytes)
            v.wire += frames.replies
            frames.replies.removeAll()
            if frames.closed { v.hungUp = true; v.session.close("closed the connection") }
            return payload[...]
        } catch {
            v.session.close("a WebSocket frame that is \((error as? WebSocketFrames.Failure) == .tooLong ? "too long" : "not masked")")
            return []
        }
    }

    private func act(_ happening: ViewerSession.Happening, _ v: Viewer, now: Double, into events: inout [InputEvent]) {
        let w = frame.panel.width, h = frame.panel.height
        switch happening {
        case .ready:
            // Full once the handshake is done: the ninth viewer is refused after its handshake
            // (no `viewer` line), before it sees a frame.
            if viewerCount > options.maximumViewers {
                refuse("\(v.peer): already \(options.maximumViewers) viewers", now: now)
                v.session.close("too many viewers")
                return
            }
            v.session.damaged(nil)
            v.announced = true
            watching += 1
            onViewer(ViewerNews(connected: true, peer: v.peer, input: options.input))
        case .pointer(let buttons, let x, let y):
            guard options.input else { return }
            events += v.input.pointer(buttons: buttons, x: x, y: y, time: now, rotation: frame.rotation, panelWidth: w, panelHeight: h)
        case .key(let down, let keysym):
            guard options.input, down, let code = ViewerInput.evdevCode(keysym: keysym), let command = keyCommand(code) else { return }
            events.append(.command(command, time: now))
        }
    }

    private func write(_ v: Viewer) {
        if v.web != nil || v.frames != nil || !v.wire.isEmpty {
            // Framed: the session's bytes go out in one binary frame once the last has left.
            if v.wire.isEmpty, v.frames != nil, v.session.pendingOutput > 0 {
                v.wire = WebSocketFrames.frame(v.session.withPendingOutput { Array($0) })
                v.session.consumed(v.session.pendingOutput)
            }
            while !v.wire.isEmpty {
                let n = v.wire.withUnsafeBytes { send(v.socket.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
                if n > 0 { v.wire.removeFirst(n); continue }
                if n < 0 && errno == EINTR { continue }
                if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK { v.session.close("write failed (\(Errno.current))") }
                return
            }
            if v.closeAfterWire { v.session.close("closed the connection") }
            return
        }
        while v.session.pendingOutput > 0 {
            let n = v.session.withPendingOutput { send(v.socket.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            if n > 0 { v.session.consumed(n); continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK { v.session.close("write failed (\(Errno.current))") }
            return
        }
    }

    private func acceptPending(_ listener: FileDescriptor, web: Bool, now: Double) {
        for _ in 0..<Self.acceptsPerTurn {
            guard let (socket, peer) = ViewSocket.accept(listener.rawValue) else { return }
            if viewers.count >= options.maximumViewers * 2 {
                refuse("\(peer): too many connections", now: now)
                socket.close()
                continue
            }
            let v = Viewer(socket: socket, peer: peer, session: ViewerSession(width: frame.panel.width, height: frame.panel.height), since: now)
            if web { v.web = WebFront(root: options.webRoot) }
            viewers.append(v)
            if !web { write(v) }
        }
    }

    /// Closed sessions go: a `viewer` line for those that were announced, a finger left down is
    /// lifted, refusals counted.
    private func retire(now: Double, into events: inout [InputEvent]) {
        viewers.removeAll { v in
            guard case .closed(let why) = v.session.phase else { return false }
            write(v)  // a refusal's reason, if the socket takes it
            v.socket.close()
            if v.announced {
                if options.input {
                    events += v.input.release(time: now, rotation: frame.rotation, panelWidth: frame.panel.width, panelHeight: frame.panel.height)
                }
                watching -= 1
                onViewer(ViewerNews(connected: false, peer: v.peer, input: options.input))
            } else if !v.hungUp || why != "closed the connection" {
                refuse("\(v.peer): \(why)", now: now)
            }
            return true
        }
    }

    /// A refused viewer: logged at most once per 10 s, with how many there were.
    private func refuse(_ why: String, now: Double) {
        refused += 1
        guard now - lastRefusalLog >= 10 else { return }
        log("remote view: refused \(refused) viewer\(refused == 1 ? "" : "s") (last: \(why))")
        refused = 0
        lastRefusalLog = now
    }
}
