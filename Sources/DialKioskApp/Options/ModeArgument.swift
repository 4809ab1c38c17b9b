import ArgumentParser
import DialCore
import KioskSeams

/// `--mode WxH[@Hz]` of run: parsed by `ModeRequest`, the parser of `display.mode` and of every
/// `--size` (`FrameSize`), so the sides and rates have one range.
extension ModeRequest: ExpressibleByArgument {
    public init?(argument: String) {
        guard let mode = try? ModeRequest(parsing: argument) else { return nil }
        self = mode
    }

    public static var defaultCompletionKind: CompletionKind { .default }
}
