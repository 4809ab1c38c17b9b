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
        package var listen: ListenAddress
        /// Viewers may turn the dial.
        package var input: Bool
        package var maxFPS: Double
        package var maximumViewers: Int

        package init(listen: ListenAddress, input: Bool = false, maxFPS: Double = 30, maximumViewers: Int = 8) {
            self.listen = listen
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

        init(socket: FileDescriptor, peer: String, session: ViewerSession, since: Double) {
            self.socket = socket
            self.peer = peer
            self.session = session
            self.since = since
        }
    }

    package var options: Options
    private let listener: FileDescriptor
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
        listener = try ViewSocket.listen(options.listen)
        frame = ViewFrame(rotation: rotation)
        self.keyCommand = keyCommand
        self.log = log
    }

    deinit { close() }

    /// The TCP port listened on (nil for a Unix socket).
    package var port: Int? { ViewSocket.port(of: listener.rawValue) }
    /// Viewers whose handshake is done.
    package var viewerCount: Int { viewers.filter { $0.session.isReady && !$0.session.isClosed }.count }
    /// Bytes queued in updates and updates sent, over all viewers so far (benchmarks).
    package private(set) var updateBytes = 0
    package private(set) var updateCount = 0

    /// Closes every viewer and the listener (a Unix socket's file is removed).
    package func close() {
        for v in viewers { v.socket.close() }
        viewers.removeAll()
        if listener.isOpen, case .unix(let path) = options.listen { unlink(path) }
        listener.close()
    }

    /// The painter's logical frame just painted and its damage (nil: all): copied in where it
    /// changed and added to each viewer's dirty region.
    package func take(_ logical: PixelBuffer, damage: [PixelRect]?) {
        let (rects, resized) = frame.take(logical, damage: damage)
        for v in viewers {
            if resized { v.session.resize(width: frame.panel.width, height: frame.panel.height) }
            v.session.damaged(rects)
        }
    }

    private var minimumInterval: Double { options.maxFPS > 0 ? 1 / options.maxFPS : 0 }

    package var pollDescriptors: [pollfd] {
        guard listener.isOpen else { return [] }
        var fds = [pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0)]
        for v in viewers {
            let events = (v.session.wantsInput ? Int16(POLLIN) : 0) | (v.session.pendingOutput > 0 ? Int16(POLLOUT) : 0)
            fds.append(pollfd(fd: v.socket.rawValue, events: events, revents: 0))
        }
        return fds
    }

    /// The next update a viewer may get (its fps cap) and the next handshake that runs out.
    package func wakeUp(now: Double) -> Double? {
        var times: [Double] = []
        for v in viewers {
            if !v.session.isReady { times.append(v.since + Self.handshakeSeconds) }
            if v.session.pendingOutput == 0, let t = v.session.nextUpdate(minimumInterval: minimumInterval) { times.append(max(t, now)) }
        }
        return times.min()
    }

    package func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        guard let first = polled.first else { return [] }
        var events: [InputEvent] = []
        // Descriptors polled this turn are the viewers present when the turn began, in order.
        let served = Array(viewers.prefix(polled.count - 1))
        for (v, p) in zip(served, polled.dropFirst()) {
            if p.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { read(v, now: now, into: &events) }
            if !v.session.isReady && now - v.since > Self.handshakeSeconds { v.session.close("no handshake within \(Int(Self.handshakeSeconds)) s") }
        }
        for v in viewers where !v.session.isClosed {
            v.session.updateIfDue(frame.panel, now: now, minimumInterval: minimumInterval)
            write(v)
        }
        if first.revents & Int16(POLLIN) != 0 { acceptPending(now: now) }
        retire(now: now, into: &events)
        return events.isEmpty ? [] : [.input(events)]
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
            for happening in v.session.receive(buffer[0..<n]) { act(happening, v, now: now, into: &events) }
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
        while v.session.pendingOutput > 0 {
            let n = v.session.withPendingOutput { send(v.socket.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            if n > 0 { v.session.consumed(n); continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK { v.session.close("write failed (\(Errno.current))") }
            return
        }
    }

    private func acceptPending(now: Double) {
        for _ in 0..<Self.acceptsPerTurn {
            guard let (socket, peer) = ViewSocket.accept(listener.rawValue) else { return }
            if viewers.count >= options.maximumViewers * 2 {
                refuse("\(peer): too many connections", now: now)
                socket.close()
                continue
            }
            let v = Viewer(socket: socket, peer: peer, session: ViewerSession(width: frame.panel.width, height: frame.panel.height), since: now)
            viewers.append(v)
            write(v)
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
