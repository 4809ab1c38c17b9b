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

    /// The most pixels a picture `render` or `splash` paints: an 8K panel (7680x4320), whose
    /// frame alone takes 127 MiB.
    static let maximumPixels = 7680 * 4320

    /// Refuses (exit 64) a size past `maximumPixels` before any pixel memory is taken.
    func validateBounded() throws {
        guard width * height <= Self.maximumPixels else {
            throw ValidationError("--size \(self) is \(width * height) pixels; at most \(Self.maximumPixels) (7680x4320)")
        }
    }
    static var defaultCompletionKind: CompletionKind { .default }
}
