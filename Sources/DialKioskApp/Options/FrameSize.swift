import ArgumentParser
import DialCore
import KioskSeams

/// `WxH` on the command line, e.g. `800x480`: a mode without a rate, parsed by `ModeRequest`.
struct FrameSize: ExpressibleByArgument, Equatable, CustomStringConvertible {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        guard let size = try? ModeRequest(parsing: argument, allowingRate: false) else { return nil }
        self.init(width: size.width, height: size.height)
    }

    var description: String { "\(width)x\(height)" }
    static var defaultCompletionKind: CompletionKind { .default }
}
