import ArgumentParser
import DialCore
import DialRender
import KioskSeams
import KioskReporting
import KioskConfiguration
import KioskRuntime

extension RenderError: ReportableError {
    package var exitStatus: ExitStatus {
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
            is laid out on the turned (portrait) frame and the picture is turned onto the panel. \
            With --path the ring of that item is painted at rest on its first item (--angle turns \
            it further), the hub showing the item's label, as `run` shows it when it opens.
            """
    )

    /// --config, --size (required here), --items and --rotate, as the other commands that build a scene take them.
    @OptionGroup var scene: SceneOptions<RenderSceneUse>
    var config: String? { scene.config }

    @Option(help: ArgumentHelp("Rotation of the ring in radians (positive turns clockwise).", valueName: "RAD"))
    var angle: Double = 0

    @Option(name: .customLong("show-progress"),
            help: ArgumentHelp("Freeze the show animation at this fraction, 0 (hidden) to 1 (shown).", valueName: "P"))
    var showProgress: Double?

    @Option(help: ArgumentHelp("Paint the ring of this item (ids from the top ring, e.g. drinks/coffee).", valueName: "PATH"))
    var path: String?

    @Option(help: ArgumentHelp("Paint the texts in this language (a code of the configuration's languages; "
                               + "the first, its default, when omitted).", valueName: "CODE"))
    var language: String?

    @Option(help: ArgumentHelp("PNG file to write.", valueName: "FILE"))
    var out: String

    func validate() throws {
        if let p = showProgress, !(0...1).contains(p) {
            throw ValidationError("--show-progress must be between 0 and 1, not \(p)")
        }
        if !angle.isFinite { throw ValidationError("--angle must be a finite number of radians") }
    }

    func run() throws {
        // The group's validate() refuses a render without --size.
        guard let size = scene.size else { throw ValidationError("Missing expected argument '--size <WxH>'") }
        try reportingErrors {
            let config = try ConfigLoader.load(path: self.config)
            // The rotation rule with no panel to ask: --rotate, else display.rotation.
            let recipe = SceneRecipe(option: scene.rotate, config: config, items: scene.items)
            if let language, !config.languages.contains(where: { $0.code == language }) {
                let codes = config.languages.map(\.code)
                throw ValidationError("--language '\(language.oneLine())': " + (codes.isEmpty
                    ? "the configuration has no 'languages:' list" : "not one of the configured languages: " + codes.joined(separator: ", ")))
            }
            let frame = try Self.picture(config: config, size: size, recipe: recipe,
                                         angle: angle, showProgress: showProgress, path: path, language: language)
            try PNGWriter.write(frame, to: out)
        }
    }

    /// The panel's picture by the scene recipe `run` uses: the dial laid out on the (turned)
    /// frame, painted, turned onto the panel. `splash` paints its theme's picture with this too.
    static func picture(config: KioskConfig, size: FrameSize, recipe: SceneRecipe, angle: Double = 0,
                        showProgress: Double? = nil, path: String? = nil, language: String? = nil) throws -> PixelBuffer {
        let setup = recipe.setup(config, panelWidth: size.width, panelHeight: size.height, language: language)
        let ring = try path.map { try Self.ring(named: $0, in: setup.menu) } ?? .top
        let rest = ring.isTop ? 0 : setup.restRotation(ofRing: ring)
        return try recipe.picture(setup, pose: setup.pose(rotation: rest + angle, showProgress: showProgress, ring: ring))
    }

    /// The ring `text` names in `menu`, or a usage error naming the first id that is not an
    /// item with a ring of its own.
    static func ring(named text: String, in menu: MenuTree) throws -> MenuPath {
        guard let path = MenuPath(parsing: text) else {
            throw ValidationError("--path '\(text.oneLine())': expected item ids separated by '/', such as drinks/coffee")
        }
        for ring in path.prefixes where menu.items(ofRing: ring) == nil {
            let id = (ring.last ?? "").oneLine()
            guard menu.node(at: ring) != nil else {
                let parent = ring.parent.isTop ? "the top ring" : "ring '\(ring.parent.description.oneLine())'"
                throw ValidationError("--path '\(text.oneLine())': \(parent) has no item '\(id)'")
            }
            throw ValidationError("--path '\(text.oneLine())': item '\(id)' has no items of its own")
        }
        return path
    }
}
