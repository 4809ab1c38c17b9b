import ArgumentParser
import KioskConfiguration
import KioskReporting
import RemoteView
import KioskRuntime

/// `dialkiosk preview`: the whole kiosk on the virtual display with its remote view on
/// loopback, for a machine without a display: a browser opens the printed URL (noVNC, served
/// by the program itself with RFB over WebSocket on the same port) and turns the dial.
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Run the kiosk on a virtual display and show it in a browser (noVNC on loopback).",
        discussion: """
            Prints one URL (on stderr) to open in a browser on this machine; the page and the \
            RFB-over-WebSocket endpoint (/websockify/TOKEN, a secret made for this run and \
            carried by the URL) share the loopback port; the WebSocket answers only this machine's \
            names on that port, the page's own origin and the token. The viewer's \
            pointer turns the dial (input on). Event lines go to stdout as `run` prints them. \
            SIGTERM or Ctrl-C leave nothing running. The page is Debian's novnc package \
            (/usr/share/novnc); without it any WebSocket VNC client can connect to the port.
            """
    )

    /// --config and --size, as the other commands that build a scene take them.
    @OptionGroup var scene: SceneOptions<PreviewSceneUse>
    var config: String? { scene.config }
    var size: FrameSize { scene.size ?? FrameSize(width: 800, height: 480) }

    @Option(help: ArgumentHelp("The loopback port of the page and its WebSocket.", valueName: "N"))
    var port = 6080

    func validate() throws {
        guard (1...65_535).contains(port) else { throw ValidationError("--port \(port) must be between 1 and 65535") }
        _ = try VirtualDisplaySpec(parsing: "virtual:\(size)@60")
    }

    func run() throws {
        try reportingErrors {
            let environment = ProcessEnvironment.current()
            var arguments = ["--display", "virtual:\(size)@60"]
            if let config { arguments += ["--config", config] }
            let options = try RunOptions.parse(arguments)
            var loaded = try ConfigLoader.load(path: options.config)
            loaded.remote = nil
            let logger = JournalLogger(format: .forStandardError(environment: environment))
            let webRoot = RunRemoteView.webRoot()
            // A secret per run in the WebSocket's path: another local user's process (or a page
            // that slipped past the Origin check) cannot turn this dial without the printed URL.
            let token = try ViewToken.random()
            let remote = RemoteViewServer.Options(listen: nil, websocket: .tcp(host: "127.0.0.1", port: port),
                                                  webRoot: webRoot, input: true, token: token)
            var settings = options.settings(config: loaded)
            settings.remote = remote
            let session = try Kiosk(settings: settings, devices: options.devices(environment: environment, logger: logger))
            defer { session.close() }
            if webRoot != nil {
                logger.info("preview: open http://127.0.0.1:\(port)/vnc.html?autoconnect=true&resize=scale&path=websockify%2F\(token)")
            } else {
                logger.warning("preview: noVNC is not installed (apt install novnc); a WebSocket VNC client can connect to ws://127.0.0.1:\(port)/websockify/\(token)")
            }
            let ending = try session.run()
            logger.info("preview: ended by \(ending == .signal ? "signal" : "--exit-after"), \(session.flipCount) flips")
        }
    }
}
