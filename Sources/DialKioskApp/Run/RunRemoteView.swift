import KioskConfiguration
import KioskReporting
import KioskSeams
import KioskServiceKit
import RemoteView
import TouchInput

/// `run`'s remote view, when the configuration has a `remote:` section: the server, fed by the
/// scenes' frame tap, announcing viewers as event lines through the service.
enum RunRemoteView {
    static func options(_ settings: RemoteSettings) -> RemoteViewServer.Options {
        RemoteViewServer.Options(listen: address(settings.listen), input: settings.input, maxFPS: settings.maxFPS)
    }

    static func address(_ listen: RemoteSettings.Listen) -> ListenAddress {
        switch listen {
        case .tcp(let host, let port): return .tcp(host: host, port: port)
        case .unix(let path): return .unix(path: path)
        }
    }

    /// The server on `options`, fed by `tap`; its `viewer` lines go out through `service`.
    static func start(_ options: RemoteViewServer.Options, config: KioskConfig, rotation: DisplayRotation, tap: FrameTap,
                      service: KioskService, logger: JournalLogger) throws -> RemoteViewServer {
        let wheelClick = config.input.wheelClick
        let server = try RemoteViewServer(options: options, rotation: rotation, keyCommand: { code in
            KeyMap.command(code: code, pressed: true, wheelClick: wheelClick)
        }, log: { logger.info($0) })
        server.onViewer = { [weak service] news in
            service?.emit(EventLine([("event", .string("viewer")), ("state", .string(news.connected ? "connected" : "disconnected")),
                                     ("peer", .string(news.peer)), ("input", .bool(news.input))]))
        }
        tap.consumer = { [weak server] frame, damage in server?.take(frame, damage: damage) }
        logger.info("remote view: listening on \(options.listen)\(server.port.map { " (port \($0))" } ?? ""), input \(options.input ? "on" : "off"), at most \(Int(options.maxFPS)) updates a second")
        return server
    }
}
