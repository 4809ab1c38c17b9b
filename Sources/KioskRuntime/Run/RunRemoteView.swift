import KioskConfiguration
import KioskReporting
import KioskSeams
import LinuxSystem
import KioskFeatures
import RemoteView
import TouchInput

/// `run`'s remote view, when the configuration has a `remote:` section: the server, fed by the
/// scenes' frame tap, announcing viewers as event lines through the service.
package enum RunRemoteView {
    /// Debian's noVNC, served on the WebSocket address when installed.
    static let noVNC = "/usr/share/novnc"

    static func options(_ settings: RemoteSettings) -> RemoteViewServer.Options {
        RemoteViewServer.Options(listen: address(settings.listen), websocket: settings.websocket.map(address),
                                 webRoot: webRoot(), input: settings.input, maxFPS: settings.maxFPS, mark: settings.mark,
                                 allowedHosts: settings.allowedHosts, allowedOrigins: settings.allowedOrigins,
                                 tokenFile: settings.tokenFile, socketGroup: settings.socketGroup)
    }

    /// noVNC's directory if its page is there.
    package static func webRoot() -> String? {
        FilePaths.readProblem(noVNC + "/vnc.html") == nil ? noVNC : nil
    }

    /// `screenshot` (control socket or MQTT) starts `worker` on the view's panel; everyone who
    /// asked while it runs gets its answer.
    static func answerScreenshots(_ worker: ScreenshotWorker, server: RemoteViewServer, service: LegacyService) {
        final class Waiting { var clients: [ControlServer.ClientID] = [] }
        let waiting = Waiting()
        service.takeScreenshot = { [weak server] client in
            guard let server else { return "the remote view is closed" }
            // Bounded: the control socket's clients and MQTT are few; a flood joins one encode.
            guard waiting.clients.count < 64 else { return "64 screenshot requests already wait" }
            do { try worker.start(server.panel) } catch { return "\(error)" }
            waiting.clients.append(client)
            return nil
        }
        worker.onDone = { [weak service] result, now in
            let clients = waiting.clients
            waiting.clients = []
            switch result {
            case .success(let shot):
                service?.screenshotTaken(path: shot.path, fileProblem: shot.fileProblem, width: shot.width, height: shot.height, sha256: shot.sha256,
                                         png: shot.png, for: clients, wallTime: realtimeNow().rounded(.down), now: now)
            case .failure(let error):
                service?.screenshotFailed(error.description, for: clients, now: now)
            }
        }
    }

    /// Why the view could not listen, with what to change: the sandbox's refusal names the
    /// drop-in that allows loopback TCP; a port taken or a path not allowed names the key.
    static func failure(_ error: any Error) -> String {
        guard let call = error as? SystemCallError else { return "\(error)" }
        let advice: String?
        switch call.code {
        case Errno.addressInUse.rawValue: advice = "another program listens there: change remote.listen (or remote.websocket), or stop it"
        case Errno.accessDenied.rawValue: advice = "the service user may not listen there: a port from 1024 up, or a socket path under /run/dialkiosk"
        case Errno.noSuchFile.rawValue: advice = "the socket's directory does not exist"
        default: advice = SandboxRefusal.hint(errno: call.code, dropIn: "remote-tcp.conf")
        }
        return "\(call)" + (advice.map { "; \($0)" } ?? "")
    }

    static func address(_ listen: RemoteSettings.Listen) -> ListenAddress { listen.asAddress }

    /// The server on `options`, fed by `tap`; its `viewer` lines go out through `service`.
    /// `screenshots`: the worker that answers `screenshot` (`remote.screenshots`), polled
    /// with the server.
    static func start(_ options: RemoteViewServer.Options, config: KioskConfig, rotation: DisplayRotation, tap: FrameTap,
                      service: LegacyService, logger: JournalLogger, screenshots: ScreenshotWorker? = nil) throws -> RemoteViewServer {
        let wheelClick = config.input.wheelClick
        let server = try RemoteViewServer(options: options, rotation: rotation, keyCommand: { code in
            KeyMap.command(code: code, pressed: true, wheelClick: wheelClick)
        }, log: { logger.info($0) })
        server.onViewer = { [weak service] news in
            service?.emit(EventLine([("t", .number(monotonicNow())), ("event", .event(.viewer)), ("state", .string(news.connected ? "connected" : "disconnected")),
                                     ("peer", .string(news.peer)), ("input", .bool(news.input))]))
            service?.viewerChanged(connected: news.connected)
        }
        // Viewers get what the glass shows: dimmed while dim, black while dark.
        server.look = { [weak service] in service?.screen.look ?? .lit }
        tap.consumer = { [weak server] frame, damage in server?.take(frame, damage: damage) }
        tap.mark = { [weak server] in server?.markShown ?? false }
        if let screenshots { answerScreenshots(screenshots, server: server, service: service) }
        // A reload changes what viewers may do and how often they get updates at once; another
        // address (or a section added or removed) waits for the next start.
        service.remoteChanged = { [weak server] settings in
            guard let server else { return }
            guard let settings, settings.listen.asAddress == server.options.listen,
                  settings.websocket?.asAddress == server.options.websocket else {
                return logger.warning("reload: the remote view's address takes effect at the next start")
            }
            server.options.input = settings.input
            server.options.maxFPS = settings.maxFPS
            server.options.mark = settings.mark
            logger.info("reload: remote view input \(settings.input ? "on" : "off"), at most \(Int(settings.maxFPS)) updates a second")
        }
        let plain = options.listen.map { "RFB on \($0)" }
        let web = options.websocket.map { "WebSocket on \($0)\(options.webRoot.map { " with \($0)" } ?? "")" }
        logger.info("remote view: listening: \([plain, web].compactMap { $0 }.joined(separator: ", ")), input \(options.input ? "on" : "off"), at most \(Int(options.maxFPS)) updates a second")
        return server
    }
}

extension RemoteSettings.Listen {
    var asAddress: ListenAddress {
        switch self {
        case .tcp(let host, let port): return .tcp(host: host, port: port)
        case .unix(let path): return .unix(path: path)
        }
    }
}
