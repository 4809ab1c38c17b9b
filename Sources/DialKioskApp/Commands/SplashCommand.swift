import ArgumentParser
import DialCore
import DialRender
import KMSOutput
import KioskSeams
import LinuxSystem
import KioskReporting
import KioskConfiguration
import KioskRuntime

struct SplashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splash",
        abstract: "Write a Plymouth boot splash theme that shows the dial at rest.",
        discussion: """
            Writes DIR/\(PlymouthTheme.name).plymouth, DIR/\(PlymouthTheme.name).script and \
            DIR/\(PlymouthTheme.pictureFile): the dial at rest as `render` paints it with the same \
            options, shown unscaled by Plymouth's script plugin, so the hand-over from the splash \
            to `run` changes no pixel. Install: copy DIR to \
            \(PlymouthTheme.themesDirectory)/\(PlymouthTheme.name), then \
            `plymouth-set-default-theme -R \(PlymouthTheme.name)` (README "Boot").
            """
    )

    @Option(help: ArgumentHelp("Directory to write the theme into (created if missing).", valueName: "DIR"))
    var out: String

    /// --config, --size and --rotate, as the other commands that build a scene take them.
    @OptionGroup var scene: SceneOptions<SplashSceneUse>
    var size: FrameSize? { scene.size }
    var config: String? { scene.config }
    var rotate: DisplayRotation? { scene.rotate }

    func validate() throws {
        if out.isEmpty { throw ValidationError("--out must name a directory") }
    }

    func run() throws {
        try reportingErrors {
            let config = try ConfigLoader.load(path: self.config)
            let size: FrameSize
            var panel: PanelOrientation?
            if let given = self.size {
                size = given
            } else {
                let output = try Self.connectedOutput(config.display)
                size = FrameSize(width: output.mode.width, height: output.mode.height)
                panel = output.connector.panelOrientation
            }
            // The rotation rule of `run`: --rotate, else display.rotation, else the panel's.
            let recipe = SceneRecipe(option: rotate, config: config, panel: panel?.displayRotation)
            let frame = try RenderCommand.picture(config: config, size: size, recipe: recipe)
            let theme = PlymouthTheme(width: size.width, height: size.height)
            try Self.makeDirectory(out)
            try Self.write(theme.themeFile, to: out + "/" + theme.themeFileName)
            try Self.write(theme.scriptFile, to: out + "/" + theme.scriptFileName)
            // The picture goes to a fresh name first: a link planted under the final name is
            // replaced by the rename, never followed.
            let picture = Self.temporaryName(in: out)
            try PNGWriter.write(frame, to: picture)
            try Self.rename(picture, to: out + "/" + PlymouthTheme.pictureFile)
            print("splash: \(size) theme '\(PlymouthTheme.name)' in \(out) (install it as \(theme.directory))")
        }
    }

    /// The output `run` would drive (the card, connector and mode rules of `list-outputs` and
    /// `run`); a failure asks for --size.
    static func connectedOutput(_ display: KioskConfig.Display) throws -> OutputSelection {
        let scan: CardScan
        do {
            scan = try CardScan.run(device: display.device)
        } catch {
            throw CommandFailure("no output to take the size from (\(error.description)); give it with --size WxH",
                                 status: .noDevice)
        }
        defer { for c in scan.cards { c.card.close() } }
        switch OutputSelection.choose(from: scan.cards.map(\.probed.info), device: display.device,
                                      connector: display.connector, mode: display.mode) {
        case .success(let selection):
            return selection
        case .failure(let error):
            throw CommandFailure("no output to take the size from (\(error.description)); give it with --size WxH",
                                 status: error.exitStatus)
        }
    }

    static func makeDirectory(_ path: String) throws {
        if let failure = FilePaths.makeDirectory(path, mode: 0o755), failure != .fileExists {
            throw CommandFailure("cannot create directory \(path): \(failure.description)", status: .ioError)
        }
    }

    /// Writes `text` to a new file beside `path` (O_EXCL | O_NOFOLLOW: nothing already there is
    /// opened, a planted link included) and renames it over `path` (a link there is replaced,
    /// not followed).
    static func write(_ text: String, to path: String) throws {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let temporary = temporaryName(in: directory.isEmpty ? "." : directory)
        let written = FileDescriptor.open(temporary, [.writeOnly, .create, .exclusive, .noFollow], mode: 0o644)
            .flatMap { $0.writeAll(Array(text.utf8)) }
        if case .failure(let failure) = written {
            FilePaths.unlink(temporary)
            throw CommandFailure("cannot write \(path): \(failure.description)", status: .ioError)
        }
        try rename(temporary, to: path)
    }

    static func temporaryName(in directory: String) -> String {
        "\(directory)/.dialkiosk-splash-\(FilePaths.processID)-\(UInt32.random(in: 0...UInt32.max))"
    }

    static func rename(_ from: String, to path: String) throws {
        if let failure = FilePaths.rename(from, to: path) {
            FilePaths.unlink(from)
            throw CommandFailure("cannot write \(path): \(failure.description)", status: .ioError)
        }
    }
}
