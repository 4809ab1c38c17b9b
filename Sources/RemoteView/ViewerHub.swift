import DialRender
import Glibc
import KioskLoop
import KioskReporting
import KioskSeams
import LinuxSystem

/// The viewers' side of the remote view, run on the view's worker thread (`ViewWorker`) in a
/// poll of its own: the listeners, every viewer's socket and session, the encoding and the
/// writes. Viewers' sockets are non-blocking and each step does bounded work for each (at most
/// `readBudget` bytes read, one budget of pixels encoded over all viewers, what the socket
/// takes written). Frames come in as panel pixels and their damage (`take`); a viewer gets an
/// update when it asked for one, something changed and its fps cap allows, and only once its
/// last update has left: a slow viewer skips frames (its damage adds up). Per viewer at most
/// one encoded update is held (at most a raw frame, 4 bytes a pixel).
final class ViewerHub {
    static let readBudget = 16 * 1024
    /// Pixels encoded per step, over all viewers: a 1080p update spreads over several steps,
    /// so a viewer's input and a new frame are taken between its pieces.
    static let pixelsPerTurn = 128 * 1024
    /// Steps served, for the order viewers are encoded in.
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
        /// Close once `wire` has left (an HTTP answer); nothing more is read.
        var closeAfterWire = false
        /// `wire` holds the pong owed (the peer may ping again once it has left).
        var pongInWire = false
        /// The viewer's arrival or its last key or pointer event: the longest idle is the one
        /// a newcomer replaces when every seat is taken.
        var lastInput: Double

        init(socket: FileDescriptor, peer: String, session: ViewerSession, since: Double) {
            self.socket = socket
            self.peer = peer
            self.session = session
            self.since = since
            lastInput = since
        }
    }

    /// Set by the worker from what the loop holds, before each step.
    var options: RemoteViewServer.Options
    /// The plain RFB listener and the WebSocket one, either may be absent.
    private let listeners: [(socket: Listener, web: Bool)]
    let rotation: DisplayRotation
    /// The panel as viewers get it: the worker's own copy, read by the encoders.
    private(set) var panel = PixelBuffer(width: 0, height: 0)
    private var viewers: [Viewer] = []
    private let keyCommand: (UInt32) -> StepCommand?
    var log: (String) -> Void = { _ in }
    /// Told of each viewer's arrival (after its handshake) and departure.
    var onViewer: (RemoteViewServer.ViewerNews) -> Void = { _ in }
    /// Read no viewer's input this step (what was read still waits for the loop).
    var holdInput = false
    private var refusalLog = LogRateLimit(interval: 10)
    private var departureLog = LogRateLimit(interval: 10)
    /// Who may use the WebSocket address (its port, names, origins, token).
    let gate: WebGate

    /// Listens on `options.listen`. `rotation`: how the logical frames are turned on the panel
    /// (for viewers' pointer input). `keyCommand`: the kiosk's key map by evdev code.
    init(options: RemoteViewServer.Options, rotation: DisplayRotation, keyCommand: @escaping (UInt32) -> StepCommand?) throws {
        self.options = options
        var listeners: [(socket: Listener, web: Bool)] = []
        if let address = options.listen { listeners.append((try ViewSocket.listen(address, group: options.socketGroup), false)) }
        if let address = options.websocket { listeners.append((try ViewSocket.listen(address, group: options.socketGroup), true)) }
        self.listeners = listeners
        var gate = WebGate(allowedHosts: options.allowedHosts.map { $0.lowercased() },
                           allowedOrigins: options.allowedOrigins.map { $0.lowercased() },
                           token: options.token.map { Array($0.utf8) })
        if let web = listeners.first(where: { $0.web }) { gate.port = ViewSocket.port(of: web.socket.descriptor.rawValue) }
        if let file = options.tokenFile { gate.token = try ViewToken.read(file) }
        self.gate = gate
        self.rotation = rotation
        self.keyCommand = keyCommand
    }

    deinit { close() }

    /// The TCP port of plain RFB (nil for a Unix socket or none).
    var port: Int? { listeners.first { !$0.web }.flatMap { ViewSocket.port(of: $0.socket.descriptor.rawValue) } }
    /// The TCP port of the WebSocket address.
    var webPort: Int? { listeners.first { $0.web }.flatMap { ViewSocket.port(of: $0.socket.descriptor.rawValue) } }
    /// Viewers whose handshake is done.
    var viewerCount: Int { viewers.filter { $0.session.isReady && !$0.session.isClosed }.count }
    /// Viewers announced and not yet gone.
    private(set) var watching = 0
    /// Bytes queued in updates and updates started, over all viewers so far (benchmarks).
    private(set) var updateBytes = 0
    private(set) var updateCount = 0
    /// The threads that encoded an update so far (the tests check it is never the loop's).
    private(set) var encodedOn: [pthread_t] = []

    /// Closes every viewer and the listener (a Unix socket's file is removed).
    func close() {
        // Refusals held back by the once-per-10-s limit are counted at the end too.
        let held = refusalLog.heldBack
        if held > 0 { log("remote view: refused \(held) connection\(held == 1 ? "" : "s") since the last such line") }
        refusalLog = LogRateLimit(interval: 10)
        for v in viewers { v.socket.close() }
        viewers.removeAll()
        for (socket, _) in listeners { socket.close() }
    }

    /// Panel pixels from `source` where `rects` say they changed (nil: all), added to each
    /// viewer's dirty region; a panel of a new size is taken whole.
    func take(from source: PixelBuffer, rects: [PixelRect]?) {
        let resized = panel.width != source.width || panel.height != source.height
        if resized { panel = PixelBuffer(width: source.width, height: source.height) }
        let changed = resized ? nil : rects
        copyPixels(changed, from: source, into: &panel)
        let all = [PixelRect(x0: 0, y0: 0, x1: panel.width, y1: panel.height)]
        for v in viewers {
            if resized { v.session.resize(width: panel.width, height: panel.height) }
            v.session.damaged(changed ?? all)
        }
    }

    private var minimumInterval: Double { options.maxFPS > 0 ? 1 / options.maxFPS : 0 }

    var pollDescriptors: [pollfd] {
        // Before the first frame has come over, connections wait in the backlog: a viewer's
        // ServerInit gives the panel's size.
        let accepting = panel.width > 0 ? Int16(POLLIN) : 0
        var fds = listeners.filter { $0.socket.descriptor.isOpen }.map { pollfd(fd: $0.socket.descriptor.rawValue, events: accepting, revents: 0) }
        for v in viewers {
            let writing = v.session.pendingOutput > 0 || !v.wire.isEmpty
            let events = (v.session.wantsInput && !holdInput && !v.closeAfterWire ? Int16(POLLIN) : 0) | (writing ? Int16(POLLOUT) : 0)
            fds.append(pollfd(fd: v.socket.rawValue, events: events, revents: 0))
        }
        return fds
    }

    /// The next update a viewer may get (its fps cap) and the next handshake that runs out.
    func wakeUp(now: Double) -> Double? {
        var times: [Double] = []
        for v in viewers {
            if !v.session.isReady { times.append(v.since + Self.handshakeSeconds) }
            // An update half encoded goes on in the next turn, at once.
            if v.session.isEncoding && v.wire.isEmpty { times.append(now) }
            if v.session.pendingOutput == 0, v.wire.isEmpty, let t = v.session.nextUpdate(minimumInterval: minimumInterval) { times.append(max(t, now)) }
        }
        return times.min()
    }

    /// One step: reads, encodes, writes and accepts; returns the input viewers gave.
    func serve(_ polled: [pollfd], now: Double) -> [InputEvent] {
        let open = listeners.filter { $0.socket.descriptor.isOpen }
        guard polled.count >= open.count else { return [] }
        var events: [InputEvent] = []
        // Descriptors polled this turn are the listeners, then the viewers present when the
        // turn began, in order.
        let served = Array(viewers.prefix(polled.count - open.count))
        for (v, p) in zip(served, polled.dropFirst(open.count)) {
            if p.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 && !holdInput && !v.closeAfterWire { read(v, now: now, into: &events) }
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
                let (updates, spent) = (v.session.updates, v.session.updateIfDue(panel, now: now, minimumInterval: minimumInterval, budget: budget))
                budget -= spent
                updateBytes += v.session.updateBytes - bytes
                updateCount += v.session.updates - updates
                if spent > 0 && !encodedOn.contains(where: { pthread_equal($0, pthread_self()) != 0 }) { encodedOn.append(pthread_self()) }
            }
            write(v)
        }
        for (l, p) in zip(open, polled) where p.revents & Int16(POLLIN) != 0 && panel.width > 0 { acceptPending(l.socket.descriptor, web: l.web, now: now) }
        retire(now: now, into: &events)
        return events
    }

    private func read(_ v: Viewer, now: Double, into events: inout [InputEvent]) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var budget = Self.readBudget
        while budget > 0 && v.session.wantsInput && !v.closeAfterWire {
            let n = buffer.withUnsafeMutableBytes { recv(v.socket.rawValue, $0.baseAddress, min($0.count, budget), Int32(MSG_DONTWAIT)) }
            if n == 0 { v.hungUp = true; v.session.close("closed the connection"); return }
            if n < 0 {
                if errno == EINTR { continue }
                // A reset is a hang-up (a client that closed with data unread), not a refusal.
                if errno == ECONNRESET { v.hungUp = true; v.session.close("closed the connection"); return }
                if errno != EAGAIN && errno != EWOULDBLOCK { v.session.close("read failed (\(Errno.current))") }
                return
            }
            budget -= n
            for happening in v.session.receive(unwrap(buffer[0..<n], v, now: now)) { act(happening, v, now: now, into: &events) }
        }
    }

    /// RFB bytes of what a WebSocket viewer sent (its HTTP request first); plain bytes as they are.
    private func unwrap(_ bytes: ArraySlice<UInt8>, _ v: Viewer, now: Double) -> ArraySlice<UInt8> {
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
            case .refuse(let reply, let why):
                v.wire += reply
                v.closeAfterWire = true
                v.hungUp = true
                refuse("\(v.peer): \(why)", now: now)
                return []
            case .upgrade(let reply):
                v.wire += reply
                v.web = nil
                v.frames = WebSocketFrames()
                return unwrap(rest[...], v, now: now)
            }
        }
        guard var frames = v.frames else { return bytes }
        defer { v.frames = frames }
        do {
            let payload = try frames.receive(bytes)
            if frames.closed {
                // Its close is answered with the same status (RFC 6455 5.5.1), after what is in flight.
                v.wire += WebSocketFrames.close(frames.closeStatus ?? 1000)
                v.hungUp = true
                v.session.close("closed the connection" + (frames.closeStatus.map { " (WebSocket status \($0))" } ?? ""))
            }
            return payload[...]
        } catch let failure as WebSocketFrames.Failure {
            v.wire += WebSocketFrames.close(failure.status)
            v.session.close("\(failure)")
            return []
        } catch {
            v.session.close("\(error)")
            return []
        }
    }

    private func act(_ happening: ViewerSession.Happening, _ v: Viewer, now: Double, into events: inout [InputEvent]) {
        let w = panel.width, h = panel.height
        switch happening {
        case .ready:
            // Full once the handshake is done: the ninth viewer is refused after its handshake
            // (no `viewer` line), before it sees a frame.
            // Every seat taken: the newcomer replaces the viewer idle longest (no key or
            // pointer event since it came), so seats held by idle connections never keep a
            // support viewer out for good.
            if viewerCount > options.maximumViewers {
                let seated = viewers.filter { $0 !== v && $0.session.isReady && !$0.session.isClosed }
                if let idle = seated.min(by: { $0.lastInput < $1.lastInput }) {
                    idle.session.close("replaced by a new viewer (every one of \(options.maximumViewers) seats taken, this one idle longest)")
                } else {
                    refuse("\(v.peer): already \(options.maximumViewers) viewers", now: now)
                    v.session.close("too many viewers")
                    return
                }
            }
            v.session.damaged(nil)
            v.announced = true
            watching += 1
            onViewer(RemoteViewServer.ViewerNews(connected: true, peer: v.peer, input: options.input))
        case .pointer(let buttons, let x, let y):
            v.lastInput = now
            guard options.input else { return }
            events += v.input.pointer(buttons: buttons, x: x, y: y, time: now, rotation: rotation, panelWidth: w, panelHeight: h)
        case .key(let down, let keysym):
            v.lastInput = now
            guard options.input, down, let code = ViewerInput.evdevCode(keysym: keysym), let command = keyCommand(code) else { return }
            events.append(.command(command, time: now))
        }
    }

    private func write(_ v: Viewer) {
        if v.web != nil || v.frames != nil || !v.wire.isEmpty {
            // Framed: the session's bytes go out in one binary frame once the last has left.
            // The pong owed goes first, between frames; then the session's bytes.
            if v.wire.isEmpty, let pong = v.frames?.takePong() {
                v.wire = pong
                v.pongInWire = true
            }
            if v.wire.isEmpty, v.frames != nil, v.session.pendingOutput > 0 {
                v.wire = WebSocketFrames.frame(v.session.withPendingOutput { Array($0) })
                v.session.consumed(v.session.pendingOutput)
            }
            while !v.wire.isEmpty {
                let n = v.wire.withUnsafeBytes { send(v.socket.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
                if n > 0 {
                    v.wire.removeFirst(n)
                    if v.wire.isEmpty && v.pongInWire { v.frames?.pongSent(); v.pongInWire = false }
                    continue
                }
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
                // Full: the oldest connection still in its handshake makes room (a real viewer's
                // handshake takes milliseconds; slow ones cannot hold the door together).
                if let slow = viewers.filter({ !$0.session.isReady && !$0.session.isClosed }).min(by: { $0.since < $1.since }) {
                    slow.session.close("replaced by a new connection (every one of \(options.maximumViewers * 2) taken, this handshake oldest)")
                } else {
                    refuse("\(peer): too many connections", now: now)
                    socket.close()
                    continue
                }
            }
            let v = Viewer(socket: socket, peer: peer, session: ViewerSession(width: panel.width, height: panel.height), since: now)
            if web { v.web = WebFront(root: options.webRoot, gate: gate) }
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
                    events += v.input.release(time: now, rotation: rotation, panelWidth: panel.width, panelHeight: panel.height)
                }
                watching -= 1
                onViewer(RemoteViewServer.ViewerNews(connected: false, peer: v.peer, input: options.input))
                if let heldBack = departureLog.admit(now: now) { log("remote view: \(v.peer) left: \(why)" + LogRateLimit.suffix(heldBack)) }
            } else if !v.hungUp || !why.hasPrefix("closed the connection") {
                refuse("\(v.peer): \(why)", now: now)
            }
            return true
        }
    }

    /// A refused connection: logged at most once per 10 s, with how many were held back.
    private func refuse(_ why: String, now: Double) {
        if let heldBack = refusalLog.admit(now: now) { log("remote view: refused \(why)" + LogRateLimit.suffix(heldBack)) }
    }
}
