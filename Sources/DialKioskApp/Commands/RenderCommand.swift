import ArgumentParser
import DialCore
import DialRender

extension RenderError: ReportableError {
    public var exitStatus: ExitStatus {
        switch kind {
        case .fontNotFound, .inputFile: return .noInput
        case .outputFile: return .ioError
        case .library: return .failure
        }
    }
}

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Paint one frame of the dial into a PNG file.",
        discussion: """
            The PNG holds exactly what the scanout buffer would: with --rotate 90 or 270 the dial \
            is laid out on the turned (portrait) frame and the picture is turned onto the panel.
            """
    )

    @Option(help: ArgumentHelp("Panel size in pixels, as WIDTHxHEIGHT (e.g. 800x480).", valueName: "WxH"))
    var size: FrameSize

    @Option(help: ArgumentHelp("Rotation of the ring in radians (positive turns clockwise).", valueName: "RAD"))
    var angle: Double = 0

    @Option(help: ArgumentHelp("Show N numbered items instead of the demo menu.", valueName: "N"))
    var items: Int?

    @Option(help: ArgumentHelp("Output rotation in degrees: 0, 90, 180 or 270.", valueName: "DEG"))
    var rotate: Int = 0

    @Option(name: .customLong("show-progress"),
            help: ArgumentHelp("Freeze the show animation at this fraction, 0 (hidden) to 1 (shown).", valueName: "P"))
    var showProgress: Double?

    @Option(help: ArgumentHelp("Configuration file (menu, theme, physics); the demo menu when omitted.", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("PNG file to write.", valueName: "FILE"))
    var out: String

    func validate() throws {
        if let items, !(1...256).contains(items) {
            throw ValidationError("--items must be between 1 and 256, not \(items)")
        }
        if DisplayRotation(degrees: rotate) == nil {
            throw ValidationError("--rotate must be 0, 90, 180 or 270, not \(rotate)")
        }
        if let p = showProgress, !(0...1).contains(p) {
            throw ValidationError("--show-progress must be between 0 and 1, not \(p)")
        }
        if !angle.isFinite { throw ValidationError("--angle must be a finite number of radians") }
    }

    func run() throws {
        try reportingErrors {
            let rotation = DisplayRotation(degrees: rotate) ?? .none
            let logical = rotation.logicalSize(panelWidth: size.width, panelHeight: size.height)
            var config = try ConfigLoader.load(path: self.config)
            if let items { config.items = DemoMenu.numbered(items) }
            let setup = DialSetup(config: config, width: logical.width, height: logical.height)
            let painter = try setup.makePainter()
            painter.paint(setup.pose(rotation: angle, showProgress: showProgress))
            try PNGWriter.write(painter.frame.rotated(rotation), to: out)
        }
    }
}
