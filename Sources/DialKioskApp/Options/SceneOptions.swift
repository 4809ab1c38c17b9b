import ArgumentParser
import KioskSeams

/// The options of the commands that build a dial scene (run, simulate, render, bench, preview,
/// splash): `--config`, `--size`, `--items`, `--rotate`, declared once with one wording and one
/// check. `Use` names the ones a command takes (the others are hidden from its help and refused
/// as unknown) and what an omitted one means there.
struct SceneOptions<Use: SceneOptionUse>: ParsableArguments {
    @Option(help: Use.help(.config, ArgumentHelp("The configuration file (YAML); the demo menu when omitted." + Use.configNote,
                                                 valueName: "file")))
    var config: String?

    @Option(help: Use.help(.size, ArgumentHelp(Use.needsSize ? "Panel size in pixels, as WIDTHxHEIGHT."
                                               : "Panel size in pixels, as WIDTHxHEIGHT (default: \(Use.sizeDefault)).",
                                               valueName: "WxH")))
    var size: FrameSize?

    @Option(help: Use.help(.items, ArgumentHelp(ItemCount.help + Use.itemsNote, valueName: "n")))
    var items: Int?

    @Option(help: Use.help(.rotate, DisplayRotation.help(default: Use.rotateDefault)))
    var rotate: DisplayRotation?

    func validate() throws {
        let given: [(SceneOption, Bool)] = [(.config, config != nil), (.size, size != nil), (.items, items != nil), (.rotate, rotate != nil)]
        for (option, isGiven) in given where isGiven && !Use.takes.contains(option) {
            throw ValidationError("Unknown option '--\(option.rawValue)'")
        }
        if Use.needsSize && size == nil { throw ValidationError("Missing expected argument '--size <WxH>'") }
        try size?.validateBounded()
        try ItemCount.validate(items)
    }

    init() {}
}

/// One of the shared scene options.
enum SceneOption: String, Sendable {
    case config, size, items, rotate
}

/// What a command makes of the shared scene options.
protocol SceneOptionUse {
    /// The options it takes.
    static var takes: Set<SceneOption> { get }
    /// What an omitted `--size` means (when it is taken and not required).
    static var sizeDefault: String { get }
    /// Whether `--size` must be given.
    static var needsSize: Bool { get }
    /// What an omitted `--rotate` means.
    static var rotateDefault: String { get }
    /// Said after `--config`'s help (what the command does with the file), or "".
    static var configNote: String { get }
    /// Said after `--items`' help, or "".
    static var itemsNote: String { get }
}

extension SceneOptionUse {
    static var sizeDefault: String { "" }
    static var needsSize: Bool { false }
    static var rotateDefault: String { "0" }
    static var configNote: String { "" }
    static var itemsNote: String { "" }

    /// `help` as the command shows it: hidden when it does not take the option.
    static func help(_ option: SceneOption, _ help: ArgumentHelp) -> ArgumentHelp {
        var help = help
        if !takes.contains(option) { help.visibility = .private }
        return help
    }
}

// What each command takes, and its defaults.
enum RunSceneUse: SceneOptionUse {
    static let takes: Set<SceneOption> = [.config, .items, .rotate]
    static let rotateDefault = "display.rotation, else the panel orientation property, else 0"
    static let configNote = " Its display and input values are the defaults the options below override."
}

enum SimulateSceneUse: SceneOptionUse {
    static let takes: Set<SceneOption> = [.config, .size, .items]
    static let sizeDefault = "800x480"
}

enum RenderSceneUse: SceneOptionUse {
    static let takes: Set<SceneOption> = [.config, .size, .items, .rotate]
    static let needsSize = true
    static let rotateDefault = "display.rotation, else 0"
}

enum BenchSceneUse: SceneOptionUse {
    static let takes: Set<SceneOption> = [.size, .items, .rotate]
    static let sizeDefault = "800x480, 1280x800 and 1920x1080"
    static let itemsNote = " With --size only (default 10)."
}

enum PreviewSceneUse: SceneOptionUse {
    static let takes: Set<SceneOption> = [.config, .size]
    static let sizeDefault = "800x480"
    static let configNote = " A remote: section in it is not used."
}

enum SplashSceneUse: SceneOptionUse {
    static let takes: Set<SceneOption> = [.config, .size, .rotate]
    static let sizeDefault = "the mode `run` would use on the connected output"
    static let rotateDefault = "display.rotation, else the panel's orientation"
}
